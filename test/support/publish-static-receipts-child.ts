/**
 * Child process of the static receipts' crash test: runs the publisher's use case on the store at `url`
 * against the object store at `objectStoreUrl`, over and over, until the parent SIGKILLs it. Prints
 * `started` once its store is open (the parent times its kill from there) and `done` when nothing is left.
 */
import { openStore } from '../../src/adapters/store/create-store.js';
import { parseObjectStoreUrl, s3Client } from '../../src/adapters/objects/s3-client.js';
import { s3StaticReceipts } from '../../src/adapters/objects/s3-static-receipts.js';
import { publishStaticReceipts } from '../../src/app/anchoring/publish-static-receipts.js';

const [url, objectStoreUrl, publicBaseUrl, secretKey] = process.argv.slice(2) as [string, string, string, string];
const opened = await openStore({ databaseUrl: url, embeddedDir: undefined, now: Date.now });
const loc = parseObjectStoreUrl(objectStoreUrl);
const deps = {
  store: opened.store,
  secretKey,
  clock: { now: Date.now },
  staticReceipts: { objects: s3StaticReceipts(s3Client(loc), loc.prefix), publicBaseUrl },
};
console.log('started');
for (;;) {
  const run = await publishStaticReceipts(deps, { budgetMs: 60_000 });
  if (!run.more) break;
}
console.log('done');
await opened.close();
