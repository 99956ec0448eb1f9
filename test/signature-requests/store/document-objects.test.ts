/**
 * The document store's contract, run on every adapter: the store's own tables on both stores, and an
 * S3-compatible object store (a real S3 HTTP server, s3rver, started here; no client is mocked).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseObjectStoreUrl, s3Client, type S3Client } from '../../../src/adapters/objects/s3-client.js';
import { s3DocumentObjects } from '../../../src/adapters/objects/s3-document-objects.js';
import { storeDocumentObjects } from '../../../src/adapters/store/document.repository.js';
import type { DocumentObjectStore } from '../../../src/app/signature-requests/document/document.port.js';
import { documentObjectContract } from '../../support/document-object-contract.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

for (const kind of await storeKinds()) {
  describe(`document objects in the ${kind.name} store`, { skip: kind.skip }, () => {
    let s: TestStore;
    let objects: DocumentObjectStore;
    before(async () => {
      s = await kind.open();
      objects = storeDocumentObjects(s.db);
    });
    after(async () => s?.destroy());
    documentObjectContract(() => objects);
  });
}

describe('document objects in an S3-compatible store', () => {
  let server: TestS3;
  let s3: S3Client;
  let objects: DocumentObjectStore;
  before(async () => {
    server = await startS3('proofseal-docs', 'tenant/a');
    const loc = parseObjectStoreUrl(server.url);
    s3 = s3Client(loc);
    objects = s3DocumentObjects(s3, loc.prefix);
  });
  after(async () => server?.close());
  documentObjectContract(() => objects);

  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const k of s3.list(prefix)) keys.push(k);
    return keys;
  };

  // Each check below in a prefix of its own, apart from what the contract's objects left.
  const isolated = (sub: string) => s3DocumentObjects(s3, `tenant/a/${sub}/`);

  it('holds only the keyed name, sealed chunks and pending marks, under the prefix; removal leaves nothing', async () => {
    const objects = isolated('layout');
    const name = randomBytes(32).toString('hex');
    const w = await objects.begin(1000);
    await w.append(Buffer.from('chunk-one'));
    await w.append(Buffer.from('chunk-two'));
    assert.equal((await keysUnder('tenant/a/layout/documents/p/')).length, 1, 'a pending mark while writing');
    await w.commit(name, { salt: randomBytes(16), size: 18, chunkBytes: 9 }, 1000);
    const keys = await keysUnder('tenant/a/layout/documents/');
    assert.ok(keys.includes(`tenant/a/layout/documents/o/${name}`));
    assert.equal(keys.filter((k) => k.startsWith('tenant/a/layout/documents/w/')).length, 2);
    assert.deepEqual(await keysUnder('tenant/a/layout/documents/p/'), [], 'no pending mark once committed');
    assert.equal(await objects.remove(name, 2000), true);
    assert.deepEqual(await keysUnder('tenant/a/layout/documents/'), []);
  });

  it('a commit that stopped after its index keeps its chunks when the abandoned writes are swept', async () => {
    const objects = isolated('stopped');
    const name = randomBytes(32).toString('hex');
    const w = await objects.begin(500);
    await w.append(Buffer.from('kept'));
    await w.commit(name, { salt: randomBytes(16), size: 4, chunkBytes: 4 }, 500);
    // What a process stopped between the index and the mark's deletion leaves: the mark, naming the object.
    const writeId = (await keysUnder('tenant/a/stopped/documents/w/'))[0]!.split('/')[5]!;
    await s3.put(`tenant/a/stopped/documents/p/000000000000500-${writeId}`, Buffer.from(name));
    assert.equal(await objects.sweepAbandoned(10_000), 0);
    assert.deepEqual(await keysUnder('tenant/a/stopped/documents/p/'), []);
    const chunks: Buffer[] = [];
    for await (const c of objects.chunks(name, 0, 0)) chunks.push(Buffer.from(c));
    assert.deepEqual(chunks, [Buffer.from('kept')]);
    assert.equal(await objects.remove(name, 10_000), true);
  });

  it('fails with the S3 error (never a credential) when the store refuses the key pair', async () => {
    const loc = parseObjectStoreUrl(server.url);
    const wrong = s3Client({ ...loc, accessKeyId: 'UNKNOWNKEY', secretAccessKey: 'topsecret' });
    await assert.rejects(
      wrong.get(`${loc.prefix}documents/o/x`),
      (e: Error) => /answered 403 InvalidAccessKeyId/.test(e.message) && !e.message.includes('topsecret'),
    );
  });
});

describe('OBJECT_STORE_URL', () => {
  it('names the endpoint, bucket, prefix, region, style and key pair', () => {
    assert.deepEqual(
      parseObjectStoreUrl(
        'https://AK:s%2Fe%2Bc@s3.eu-west-3.amazonaws.com/my-bucket/pro/seal?region=eu-west-3&style=virtual',
      ),
      {
        endpoint: 'https://s3.eu-west-3.amazonaws.com',
        bucket: 'my-bucket',
        prefix: 'pro/seal/',
        region: 'eu-west-3',
        style: 'virtual',
        accessKeyId: 'AK',
        secretAccessKey: 's/e+c',
      },
    );
    const plain = parseObjectStoreUrl('http://k:s@127.0.0.1:9000/b12');
    assert.equal(plain.prefix, '');
    assert.equal(plain.style, 'path');
    assert.equal(plain.region, 'us-east-1');
  });
  it('refuses a URL without a key pair, bucket or known style, without printing the secret', () => {
    for (const bad of [
      'http://127.0.0.1:9000/b12',
      'http://k:topsecret@h/',
      'http://k:topsecret@h/b12?style=odd',
      'ftp://k:topsecret@h/b12',
    ]) {
      assert.throws(
        () => parseObjectStoreUrl(bad),
        (e: Error) => /OBJECT_STORE_URL/.test(e.message) && !e.message.includes('topsecret'),
        bad,
      );
    }
  });
});
