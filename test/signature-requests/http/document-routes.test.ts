// tier: slow (measured: 15.3 s in a full CI run, over the 10 s bound of the fast tier)
/** Uploading and downloading the file to sign over HTTP, hostile uploads included, on both stores. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import {
  deleteExpiredDocuments,
  REMOVE_GRACE_MS,
} from '../../../src/app/signature-requests/document/delete-expired-documents.js';
import { objectNameOf } from '../../../src/core/crypto/chunk-box.js';
import { openDocumentBench } from '../../support/document-bench.js';
import { TEST_SECRET_KEY } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, requestBody, type Bench } from '../fixture.js';

const kinds = await storeKinds();
const LIMIT = 600 * 1024;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n<</JS (app.alert(1))>>\n'), randomBytes(300 * 1024)]);

function multipart(name: string, fileName: string, type: string, content: Buffer) {
  const boundary = '----proofseal' + randomBytes(8).toString('hex');
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const kind of kinds) {
  describe(`the file to sign on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openDocumentBench(kind, { DOCUMENT_MAX_BYTES: String(LIMIT) });
    });
    after(async () => b?.close());

    const draft = (content: Buffer, extra: Record<string, unknown> = {}) =>
      createRequest(b, requestBody({ state: 'DRAFT', hashToSign: sha256(content), ...extra }));
    const upload = (id: string, content: Buffer, type = 'application/pdf', query = '', auth = b.auth) =>
      b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/file${query}`,
        headers: { ...auth, 'content-type': type },
        payload: content,
      });
    const chunkRows = async () =>
      (await b.s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM document_chunk'))[0]!.n;

    it('takes a multipart upload whose hash is hashToSign, and serves it back to the owner with safe headers', async () => {
      const { id } = await draft(PDF);
      const form = multipart('file', 'Contrat été.pdf', 'application/pdf', PDF);
      const res = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/file`,
        headers: { ...b.auth, ...form.headers },
        payload: form.payload,
      });
      assert.equal(res.statusCode, 200, res.body);
      const view = res.json();
      assert.equal(view.isUploaded, true);
      assert.equal(view.fileName, 'Contrat été.pdf');
      assert.equal(view.fileURL, `http://localhost:3000/v1/signatureRequest/${id}/file`);
      const got = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file`, headers: b.auth });
      assert.equal(got.statusCode, 200);
      assert.ok(got.rawPayload.equals(PDF));
      assert.equal(got.headers['content-type'], 'application/pdf');
      assert.equal(got.headers.etag, `"${sha256(PDF)}"`);
      assert.equal(got.headers['x-content-type-options'], 'nosniff');
      assert.match(String(got.headers['content-security-policy']), /^sandbox; default-src 'none'/);
      assert.equal(
        got.headers['content-disposition'],
        `inline; filename="Contrat _t_.pdf"; filename*=UTF-8''Contrat%20%C3%A9t%C3%A9.pdf`,
      );
      const stored = await b.s.db.query<{ data: Uint8Array }>('SELECT data FROM document_chunk LIMIT 1');
      assert.ok(!Buffer.from(stored[0]!.data).includes(Buffer.from('%PDF')), 'chunks are stored sealed');
    });

    it('serves a raw upload of another type as an attachment, with a hostile name made harmless', async () => {
      const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
      const { id, signeeIds } = await draft(html);
      const name = encodeURIComponent('../x"; filename=evil.pdf\r\nX: y.html');
      const res = await upload(id, html, 'text/html; charset=utf-8', `?fileName=${name}`);
      assert.equal(res.statusCode, 200, res.body);
      await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"PENDING"',
      });
      const got = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}/file?signeeId=${signeeIds[0]}`,
      });
      assert.equal(got.statusCode, 200, got.body);
      assert.equal(got.headers['content-type'], 'text/html');
      // The quote and semicolon become `_`, the line break is dropped: one filename, one filename*, nothing else.
      assert.equal(
        got.headers['content-disposition'],
        `attachment; filename="x__ filename=evil.pdfX: y.html"; filename*=UTF-8''x%22%3B%20filename%3Devil.pdfX%3A%20y.html`,
      );
    });

    it('answers ranges with 206 and an unsatisfiable one with 416', async () => {
      const { id } = await draft(PDF);
      assert.equal((await upload(id, PDF)).statusCode, 200);
      const get = (range: string) =>
        b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file`, headers: { ...b.auth, range } });
      const mid = await get('bytes=262000-262999');
      assert.equal(mid.statusCode, 206);
      assert.equal(mid.headers['content-range'], `bytes 262000-262999/${PDF.length}`);
      assert.ok(mid.rawPayload.equals(PDF.subarray(262000, 263000)), 'a range across two chunks');
      const tail = await get('bytes=-10');
      assert.ok(tail.rawPayload.equals(PDF.subarray(PDF.length - 10)));
      const past = await get(`bytes=${PDF.length}-`);
      assert.equal(past.statusCode, 416);
      assert.equal(past.headers['content-range'], `bytes */${PDF.length}`);
    });

    it('refuses an upload over the limit with 413 and keeps nothing', async () => {
      const big = randomBytes(LIMIT + 1);
      const { id } = await draft(big);
      const before = await chunkRows();
      const raw = await upload(id, big, 'application/octet-stream');
      assert.equal(raw.statusCode, 413, raw.body);
      assert.equal(raw.json().code, 'PAYLOAD_TOO_LARGE');
      const form = multipart('file', 'big.bin', 'application/octet-stream', big);
      const res = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/file`,
        headers: { ...b.auth, ...form.headers, 'transfer-encoding': 'chunked' },
        payload: form.payload,
      });
      assert.equal(res.statusCode, 413, res.body);
      assert.equal(await chunkRows(), before);
      assert.equal((await b.deps.store.signatureRequests.findById(id))?.uploaded, false);
    });

    it('refuses a multipart form whose file is not in a part named "file", or that has no file', async () => {
      const { id } = await draft(PDF);
      for (const form of [
        multipart('document', 'a.pdf', 'application/pdf', PDF),
        {
          payload: Buffer.from('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--\r\n'),
          headers: { 'content-type': 'multipart/form-data; boundary=b' },
        },
      ]) {
        const res = await b.app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/file`,
          headers: { ...b.auth, ...form.headers },
          payload: form.payload,
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'VALIDATION_FAILED');
      }
    });

    it('keeps the file across a PUT of the same hash, and detaches it when the PUT changes hashToSign', async () => {
      const { id, body: created } = await draft(PDF);
      const body = Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'state')); // not a PUT field
      assert.equal((await upload(id, PDF)).statusCode, 200);
      const put = (hashToSign: string) =>
        b.app.inject({
          method: 'PUT',
          url: `/v1/signatureRequest/${id}`,
          headers: b.auth,
          payload: { ...body, hashToSign },
        });
      const sameRes = await put(sha256(PDF));
      assert.equal(sameRes.statusCode, 200, sameRes.body);
      const same = sameRes.json();
      assert.equal(same.isUploaded, true);
      assert.equal(same.fileURL, `http://localhost:3000/v1/signatureRequest/${id}/file`);
      const other = (await put(sha256(Buffer.from('another document')))).json();
      assert.equal(other.isUploaded, false);
      assert.equal(other.fileURL, undefined);
      const got = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file`, headers: b.auth });
      assert.equal(got.json().code, 'NO_DOCUMENT');
    });

    it('refuses a file of another hash (naming both) and an empty file, keeping nothing', async () => {
      const { id } = await draft(PDF);
      const before = await chunkRows();
      const other = Buffer.concat([PDF, Buffer.from('x')]);
      const res = await upload(id, other);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'HASH_MISMATCH');
      assert.ok(res.json().message.includes(sha256(other)) && res.json().message.includes(sha256(PDF)));
      const empty = await upload(id, Buffer.alloc(0));
      assert.equal(empty.statusCode, 400);
      assert.equal(empty.json().code, 'EMPTY_DOCUMENT');
      assert.equal(await chunkRows(), before);
    });

    it('takes a first upload on a request activated at creation, refuses a replacement and any upload once closed', async () => {
      const content = randomBytes(1000);
      const { id } = await createRequest(b, requestBody({ hashToSign: sha256(content) }));
      assert.equal((await upload(id, content)).statusCode, 200);
      const again = await upload(id, content);
      assert.equal(again.statusCode, 403);
      assert.equal(again.json().code, 'NOT_EDITABLE');
      const other = randomBytes(10);
      const closed = await createRequest(b, requestBody({ hashToSign: sha256(other) }));
      await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${closed.id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"CANCELED"',
      });
      assert.equal((await upload(closed.id, other)).statusCode, 403);
    });

    it('hides a request from another account (404) and from a wrong signeeId (404)', async () => {
      const { id, signeeIds } = await draft(PDF);
      assert.equal((await upload(id, PDF)).statusCode, 200);
      const account = await createAccount(b.deps, { email: 'stranger@example.com', password: 'correct horse battery' });
      const stranger = { authorization: `Bearer ${(await createApiToken(b.deps, { accountId: account.id })).token}` };
      const foreign = await upload(id, PDF, 'application/pdf', '', stranger);
      assert.equal(foreign.statusCode, 404);
      const read = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file`, headers: stranger });
      assert.equal(read.statusCode, 404);
      const wrong = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}/file?signeeId=${signeeIds[0]!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      });
      assert.equal(wrong.statusCode, 404);
      assert.equal(wrong.json().code, 'NOT_FOUND');
    });

    it('serves the sharing link once the request left DRAFT, and answers amended=true with 409', async () => {
      const content = randomBytes(5000);
      const { id } = await createRequest(b, requestBody({ hashToSign: sha256(content) }));
      assert.equal((await upload(id, content, 'application/pdf')).statusCode, 200);
      const token = deriveSharingToken('test-secret-key-of-at-least-32-characters', id);
      const shared = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/shared/${token}/file` });
      assert.equal(shared.statusCode, 200);
      assert.ok(shared.rawPayload.equals(content));
      const badToken = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/shared/x${token}/file` });
      assert.equal(badToken.statusCode, 404);
      const amended = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}/file?amended=true`,
        headers: b.auth,
      });
      assert.equal(amended.statusCode, 409);
      assert.equal(amended.json().code, 'SIGNED_COPY_NOT_AVAILABLE');
    });

    it('retention: deletes files of canceled and long-completed requests, keeps an object a live request uses', async () => {
      const content = randomBytes(3000);
      const old = randomBytes(2000);
      const recentFile = randomBytes(1000);
      const canceled = await createRequest(b, requestBody({ hashToSign: sha256(content) }));
      const live = await createRequest(b, requestBody({ hashToSign: sha256(content) }));
      const done = await createRequest(b, requestBody({ hashToSign: sha256(old) }));
      const recent = await createRequest(b, requestBody({ hashToSign: sha256(recentFile) }));
      for (const [id, file] of [
        [canceled.id, content],
        [live.id, content],
        [done.id, old],
        [recent.id, recentFile],
      ] as const)
        assert.equal((await upload(id, file)).statusCode, 200);
      const json = { ...b.auth, 'content-type': 'application/json' };
      const cancel = `/v1/signatureRequest/${canceled.id}/transition`;
      assert.equal(
        (await b.app.inject({ method: 'POST', url: cancel, headers: json, payload: '"CANCELED"' })).statusCode,
        200,
      );
      // Completed 100 and 10 days ago, around the default 90 days (the workflow's path to COMPLETED is tested elsewhere).
      const completed = (id: string, daysAgo: number) =>
        b.s.db.query(`UPDATE signature_request SET state = 'COMPLETED', last_modified = $2 WHERE id = $1`, [
          id,
          b.clock.now() - daysAgo * 86_400_000,
        ]);
      await completed(done.id, 100);
      await completed(recent.id, 10);
      const file = (id: string) =>
        b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file`, headers: b.auth });
      const objectLeft = async (f: Buffer) =>
        (
          await b.s.db.query('SELECT 1 FROM document_object WHERE name = $1', [
            objectNameOf(TEST_SECRET_KEY, sha256(f)),
          ])
        ).length === 1;
      b.clock.advance(2 * REMOVE_GRACE_MS);
      assert.ok((await deleteExpiredDocuments(b.deps, { limit: 100 })) >= 2);
      assert.equal((await file(canceled.id)).json().code, 'NO_DOCUMENT');
      assert.equal((await file(done.id)).json().code, 'NO_DOCUMENT');
      assert.equal(await objectLeft(old), false, "the long-completed request's object is removed");
      assert.ok((await file(live.id)).rawPayload.equals(content), 'the shared object stays for the live request');
      assert.equal(await objectLeft(content), true);
      assert.ok((await file(recent.id)).rawPayload.equals(recentFile), 'completed 10 days ago: kept');
      assert.equal(await deleteExpiredDocuments(b.deps, { limit: 100 }), 0, 'a second run finds nothing');
    });

    it('stops a streamed body of unknown length at the limit on a real socket: 413, connection closed, nothing kept', async () => {
      const big = randomBytes(3 * LIMIT);
      const { id } = await draft(big);
      const before = await chunkRows();
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = b.app.server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; sent: number; connection: string | undefined }>(
        (resolve, reject) => {
          let sent = 0;
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: `/v1/signatureRequest/${id}/file`,
              headers: { ...b.auth, 'content-type': 'application/octet-stream' },
            },
            (res) => {
              res.resume();
              resolve({ status: res.statusCode!, sent, connection: res.headers.connection });
            },
          );
          req.on('error', reject);
          const pump = () => {
            while (sent < big.length) {
              const piece = big.subarray(sent, sent + 16_384);
              sent += piece.length;
              if (!req.write(piece)) return void req.once('drain', pump);
            }
            req.end();
          };
          pump();
        },
      );
      assert.equal(answer.status, 413);
      assert.equal(answer.connection, 'close');
      assert.equal(await chunkRows(), before);
    });
  });
}
