/**
 * `proofseal request create <file>` (the file uploaded, then activated), `request download`,
 * `request attestation` and `request signed-copy` of a request nobody signed, in process against the real API on a socket (embedded store).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { savedNameOf } from '../../../src/cli/document-commands.js';
import { requestCommand } from '../../../src/cli/request-commands.js';
import type { Bench } from '../fixture.js';
import { testClientContext } from '../../support/client-context.js';
import { openDocumentBench } from '../../support/document-bench.js';
import { storeKinds } from '../../support/stores.js';

const [embedded] = await storeKinds();

describe('proofseal request: the file to sign', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-docs-'));
  const doc = path.join(dir, 'source', 'contrat été.pdf');
  const cwd = process.cwd();
  const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(700_000)]);
  let b: Bench;
  let url: string;
  let token: string;

  before(async () => {
    mkdirSync(path.dirname(doc));
    writeFileSync(doc, content);
    process.chdir(dir); // a download without -o lands in the working directory
    b = await openDocumentBench(embedded!);
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    token = b.auth.authorization.replace(/^Bearer /, '');
  });
  after(async () => {
    process.chdir(cwd);
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  const run = async (...args: string[]) => {
    const lines: string[] = [];
    await requestCommand(
      [...args, '--api-url', url, '--token', token],
      testClientContext(dir, (l) => lines.push(l)),
    );
    return lines;
  };

  it('create uploads the file then sends the invitations; download saves it back, checked; attestation waits', async () => {
    const created = JSON.parse((await run('create', doc, '--signer', 'Ann Lee <ann@example.com>', '--json'))[0]!);
    assert.equal(created.isUploaded, true);
    assert.equal(created.state, 'IN_PROGRESS');
    assert.equal(created.fileName, 'contrat été.pdf');
    const stored = await b.deps.store.requestDocuments.find(created.id);
    assert.equal(stored?.contentType, 'application/pdf');

    const lines = await run('download', created.id);
    const saved = path.join(dir, 'contrat été.pdf');
    assert.match(lines[0]!, /equals the request's hashToSign/);
    assert.ok(readFileSync(saved).equals(content));
    await assert.rejects(run('download', created.id), /exists already/);
    const out = path.join(dir, 'copy.pdf');
    await run('download', created.id, '-o', out);
    assert.equal(createHash('sha256').update(readFileSync(out)).digest('hex'), created.hashToSign);

    const attestation = path.join(dir, 'a.pdf');
    await assert.rejects(run('attestation', created.id, '-o', attestation), { code: 'ATTESTATION_NOT_AVAILABLE' });
    const request = await b.deps.store.signatureRequests.findById(created.id);
    await run('delegate', created.id, '--signee-id', signerSecretOf(b.deps, request!.signers[0]!));
    assert.deepEqual(await run('attestation', created.id, '-o', attestation), [
      'the proofs are not all confirmed yet: try again later',
    ]);
    assert.equal(process.exitCode, 1);
  });

  it('--hash-only sends the hash alone, activated at once; its download is NO_DOCUMENT', async () => {
    const created = JSON.parse(
      (await run('create', doc, '--signer', 'Bob <bob@example.com>', '--hash-only', '--json'))[0]!,
    );
    assert.equal(created.isUploaded, false);
    assert.equal(created.state, 'IN_PROGRESS');
    await assert.rejects(run('download', created.id), { code: 'NO_DOCUMENT' });
  });

  it('signed-copy of a request closed with no signature: NO_SIGNATURES, said plainly, and nothing written', async () => {
    const created = JSON.parse((await run('create', doc, '--signer', 'Cy <cy@example.com>', '--json'))[0]!);
    await run('transition', created.id, 'CLOSED');
    assert.equal((await b.deps.store.signatureRequests.findById(created.id))?.state, 'CLOSED');
    const out = path.join(dir, 'nobody-signed.pdf');
    await assert.rejects(run('signed-copy', created.id, '-o', out), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'NO_SIGNATURES');
      assert.equal(
        err.message,
        `request ${created.id} ended with no signature, so it has no signed copy (nothing was signed); its attestation says what happened: proofseal request attestation ${created.id}`,
      );
      return true;
    });
    assert.throws(() => readFileSync(out), { code: 'ENOENT' });
  });

  it('saves under the served name only when it is a plain name', () => {
    assert.equal(savedNameOf(`inline; filename="a"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`, 'x.bin'), 'passwd');
    assert.equal(savedNameOf(`attachment; filename*=UTF-8''.bashrc`, 'x.bin'), 'x.bin');
    assert.equal(savedNameOf(null, 'x.bin'), 'x.bin');
    assert.equal(savedNameOf(`attachment; filename*=UTF-8''%E0%A4%A`, 'x.bin'), 'x.bin');
  });
});
