// tier: slow (measured: 10.2 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The file to sign kept in an S3-compatible store (a real S3 HTTP server, s3rver, started here): upload,
 * download with a range, nothing but sealed chunks in the bucket, and the retention job's deletion.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseObjectStoreUrl, s3Client, type S3Client } from '../../../src/adapters/objects/s3-client.js';
import { s3DocumentObjects } from '../../../src/adapters/objects/s3-document-objects.js';
import {
  deleteExpiredDocuments,
  REMOVE_GRACE_MS,
} from '../../../src/app/signature-requests/document/delete-expired-documents.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';
import { testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, openBench, requestBody, type Bench } from '../fixture.js';

const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('the file to sign in an S3-compatible store', () => {
  let server: TestS3;
  let s3: S3Client;
  let b: Bench;
  const keys = async (prefix: string) => {
    const out: string[] = [];
    for await (const k of s3.list(prefix)) out.push(k);
    return out;
  };

  before(async () => {
    server = await startS3('proofseal-files', 'p');
    const loc = parseObjectStoreUrl(server.url);
    s3 = s3Client(loc);
    const documents = { objects: s3DocumentObjects(s3, loc.prefix), retentionMs: 90 * 86_400_000 };
    b = await openBench(embedded, { documents }, { config: testConfig({ OBJECT_STORE_URL: server.url }) });
  });
  after(async () => {
    await b?.close();
    await server?.close();
  });

  it('uploads, serves a range, keeps only sealed chunks, and the retention job deletes the object', async () => {
    const content = Buffer.concat([Buffer.from('%PDF-1.7 secret words\n'), randomBytes(700 * 1024)]);
    const { id } = await createRequest(b, requestBody({ state: 'DRAFT', hashToSign: sha256(content) }));
    const up = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${id}/file`,
      headers: { ...b.auth, 'content-type': 'application/pdf' },
      payload: content,
    });
    assert.equal(up.statusCode, 200, up.body);
    const url = `/v1/signatureRequest/${id}/file`;
    const whole = await b.app.inject({ method: 'GET', url, headers: b.auth });
    assert.ok(whole.rawPayload.equals(content));
    const range = await b.app.inject({ method: 'GET', url, headers: { ...b.auth, range: 'bytes=262000-524999' } });
    assert.equal(range.statusCode, 206);
    assert.ok(range.rawPayload.equals(content.subarray(262000, 525000)), 'a range across three chunks');
    const stored = await keys('p/documents/');
    assert.equal(stored.filter((k) => k.startsWith('p/documents/w/')).length, 3, '700 KB: three 256 KiB chunks');
    for (const k of stored) {
      const bytes = Buffer.from((await s3.get(k))!);
      assert.ok(!bytes.includes(Buffer.from('secret words')), `${k} holds no plaintext`);
      assert.ok(!k.includes(sha256(content)), `${k} does not name the file's hash`);
    }
    const json = { ...b.auth, 'content-type': 'application/json' };
    const move = (to: string) =>
      b.app.inject({ method: 'POST', url: `/v1/signatureRequest/${id}/transition`, headers: json, payload: `"${to}"` });
    assert.equal((await move('PENDING')).statusCode, 200);
    assert.equal((await move('CANCELED')).statusCode, 200);
    b.clock.advance(2 * REMOVE_GRACE_MS);
    assert.equal(await deleteExpiredDocuments(b.deps, { limit: 100 }), 1);
    assert.equal((await b.app.inject({ method: 'GET', url, headers: b.auth })).json().code, 'NO_DOCUMENT');
    assert.deepEqual(await keys('p/documents/'), [], 'the index and every chunk are gone');
  });
});
