// tier: slow (poppler, qpdf)
/**
 * The signed copy of an uploaded PDF, over HTTP on both stores, checked with tools we did not write: the
 * original is a PDF that already carries a PAdES signature of its own (made by our signer under another
 * name, with object streams: a cross-reference stream); the signed copy must pass `qpdf --check`, show the
 * original's pages plus the attestation's in `pdfinfo`, carry the bundle for `pdfdetach`, and `pdfsig` must
 * find both signatures valid, the last one covering the whole file. The original revision, cut by byte range
 * at a `%%EOF`, hashes to hashToSign (found by the pure core function the verification page uses).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { padesSigner } from '../../../src/adapters/pdf/pades-signer.js';
import { serviceSigningIdentity } from '../../../src/adapters/pdf/signing-identity.js';
import { requestAttachments } from '../../../src/app/signature-requests/request-attachments.js';
import { signedCopyForMail } from '../../../src/app/signature-requests/attestation/signed-copy.js';
import { originalInSignedCopy, originalRevision, revisionEnds } from '../../../src/core/documents/signed-copy.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { bundleInPdf } from '../../../src/web/browser/pdf-attachment.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { insertBatch } from '../../support/anchors.js';
import { TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { startSmtp, type TestSmtp } from '../../support/smtp.js';
import { deliverQueued, MAIL, sent } from '../../support/workflow-mail.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, requestBody, type Bench } from '../fixture.js';
import { pdfAttestation } from '../../support/signed-copy-fixture.js';

const kinds = await storeKinds();
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-signed-copy-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;

function tool(cmd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: dir });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function file(name: string, bytes: Uint8Array): string {
  const p = path.join(dir, `${(seq += 1)}-${name}`);
  writeFileSync(p, bytes);
  return p;
}

/** A two-page PDF with object streams, signed by "Contoso Legal" before it is uploaded. */
async function presignedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) doc.addPage().drawText(`Lease contract, page ${n}`, { x: 60, y: 760, font, size: 18 });
  const plain = await doc.save({ useObjectStreams: true });
  const identity = await serviceSigningIdentity('o'.repeat(40), 'Contoso Legal');
  return Buffer.from(await padesSigner({ identity: async () => identity, now: Date.now }).sign(plain));
}

for (const kind of kinds) {
  describe(`the signed copy on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    let original: Buffer;
    before(async () => {
      original = await presignedPdf();
      smtp = await startSmtp();
      b = await openBench(
        kind,
        {
          attestation: await pdfAttestation(),
          mail: MAIL,
        },
        { config: testConfig({}) },
      );
    });
    after(async () => {
      await smtp?.stop();
      await b?.close();
    });

    const get = (url: string, headers: Record<string, string> = {}) => b.app.inject({ method: 'GET', url, headers });
    const amendedOf = (id: string) => get(`/v1/signatureRequest/${id}/file?amended=true`, b.auth);

    /** A request for `content`, uploaded, signed by both signers (COMPLETED). */
    async function signedRequest(content: Buffer, type = 'application/pdf') {
      const made = await createRequest(b, requestBody({ state: 'DRAFT', hashToSign: sha256(content) }));
      const up = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${made.id}/file?fileName=lease.pdf`,
        headers: { ...b.auth, 'content-type': type },
        payload: content,
      });
      assert.equal(up.statusCode, 200, up.body);
      const go = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${made.id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"PENDING"',
      });
      assert.equal(go.statusCode, 200, go.body);
      for (const signeeId of made.signeeIds) assert.equal((await delegate(b, made.id, signeeId)).statusCode, 200);
      return made;
    }

    /**
     * The proofs confirmed as the service gets there: the trail sealed, every anchor in a CONFIRMED batch, then
     * the bundle marked complete (which queues the attestation mails).
     */
    async function confirmProofs(id: string): Promise<void> {
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const anchors = [...request.signers.map((s) => s.anchorId!), request.auditTrailAnchorId!];
      await insertBatch(b.s.db, anchors, { status: 'CONFIRMED', confirmations: 6 });
      assert.ok((await completeProofBundles(b.deps, { limit: 100 })) >= 1);
      assert.equal((await b.deps.store.signatureRequests.findById(id))?.proofBundleComplete, true);
    }

    it('appends the attestation and the bundle to the original bytes, signed; every tool agrees', async () => {
      const { id, signeeIds } = await signedRequest(original);
      const pending = await amendedOf(id);
      assert.equal(pending.statusCode, 202, pending.body);
      assert.equal(pending.json().code, 'ATTESTATION_PENDING');
      await confirmProofs(id);

      const res = await amendedOf(id);
      assert.equal(res.statusCode, 200, res.body);
      const copy = res.rawPayload;
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers.etag, `"${sha256(copy)}"`);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.match(String(res.headers['content-security-policy']), /^sandbox; default-src 'none'/);
      assert.match(String(res.headers['content-disposition']), /^inline; filename="lease-signed\.pdf"/);
      assert.ok(copy.subarray(0, original.length).equals(original), 'the original bytes come first, unchanged');

      const p = file('lease-signed.pdf', copy);
      const qpdf = tool('qpdf', ['--check', p]);
      assert.equal(qpdf.status, 0, qpdf.out);
      assert.match(qpdf.out, /No syntax or stream encoding errors found/);
      const info = tool('pdfinfo', [p]).out;
      const attestationPages = (await PDFDocument.load(await pdfAttestationPages(b, id))).getPageCount();
      assert.match(info, new RegExp(`Pages:\\s+${2 + attestationPages}\\n`));
      assert.match(info, /Encrypted:\s+no/);
      const list = tool('pdfdetach', ['-list', p]).out;
      assert.match(list, new RegExp(`1 embedded files\\n1: proof-bundle-${id}\\.json`));
      const saved = path.join(dir, `${seq}-bundle.json`);
      assert.equal(tool('pdfdetach', ['-save', '1', '-o', saved, p]).status, 0);
      const bundle = JSON.parse(readFileSync(saved, 'utf8')) as unknown;
      const bundleRes = await get(`/v1/signatureRequest/${id}/proofbundle`, b.auth);
      assert.equal(bundleRes.statusCode, 200);

      const sig = tool('pdfsig', [p]).out;
      const signatures = sig.split(/Signature #\d+:/).slice(1);
      assert.equal(signatures.length, 2, sig);
      assert.match(
        signatures[0]!,
        /Common Name: Contoso Legal[\s\S]*Not total document signed[\s\S]*Signature is Valid\./,
      );
      assert.match(signatures[1]!, /Common Name: proofseal[\s\S]*Total document signed[\s\S]*Signature is Valid\./);
      const ranges = [...sig.matchAll(/Signed Ranges: \[0 - (\d+)\], \[(\d+) - (\d+)\]/g)];
      assert.equal(Number(ranges[0]![3]), original.length, "the original's signature covers the original");
      assert.equal(Number(ranges[1]![3]), copy.length, 'ours covers the whole signed copy');

      // The original revision, cut by byte range, hashes to hashToSign (independently of our code: sha256sum).
      const found = originalRevision(copy, [sha256(original)]);
      assert.deepEqual(found, { length: original.length, sha256: sha256(original) });
      const cut = file('original.pdf', copy.subarray(0, found!.length));
      assert.equal(tool('sha256sum', [cut]).out.split(' ')[0], sha256(original));
      const sigOfCut = tool('pdfsig', [cut]).out;
      assert.match(sigOfCut, /Contoso Legal[\s\S]*Total document signed[\s\S]*Signature is Valid\./);
      assert.ok(revisionEnds(copy).length >= 4, 'original, its signature, our update, our signature');

      // The bundle taken out in the browser's way is the one attached (the pages' verification reads it so).
      assert.deepEqual(await bundleInPdf(copy), bundle);

      // The same bytes for each signer and the sharing link; a range across the boundary of the two parts.
      const bySigner = await get(`/v1/signatureRequest/${id}/file?amended=true&signeeId=${signeeIds[1]}`);
      assert.equal(bySigner.statusCode, 200);
      assert.ok(bySigner.rawPayload.equals(copy));
      const token = deriveSharingToken(TEST_SECRET_KEY, id);
      const shared = await get(`/v1/signatureRequest/${id}/shared/${token}/file?amended=true`);
      assert.equal(shared.statusCode, 200, shared.body);
      assert.ok(shared.rawPayload.equals(copy));
      const from = original.length - 100;
      const range = await get(`/v1/signatureRequest/${id}/file?amended=true`, {
        ...b.auth,
        range: `bytes=${from}-${from + 199}`,
      });
      assert.equal(range.statusCode, 206);
      assert.equal(range.headers['content-range'], `bytes ${from}-${from + 199}/${copy.length}`);
      assert.ok(range.rawPayload.equals(copy.subarray(from, from + 200)));

      // Kept: asked again, the same bytes (not a new signature).
      const again = await amendedOf(id);
      assert.ok(again.rawPayload.equals(copy));

      // The bundle the copy carries names the original: found from the copy and its own attachment alone.
      assert.deepEqual(originalInSignedCopy(copy, bundle), { length: original.length, sha256: sha256(original) });

      // The attestation mails, through a real SMTP server: the signed copy instead of the attestation.
      const signedCopy = (rid: string) => signedCopyForMail(b.deps, rid, 10 * 1024 * 1024);
      const delivered = await deliverQueued(b, smtp, { attestation: async () => new Uint8Array([1]), signedCopy });
      const mails = delivered.filter((m) => m.type === 'signatureAttestationEmail');
      assert.deepEqual(sent(mails), [
        'signatureAttestationEmail → owner@example.com',
        'signatureAttestationEmail → signer1@example.com',
        'signatureAttestationEmail → signer2@example.com',
      ]);
      for (const m of mails) {
        assert.equal(m.mail.attachments.length, 1);
        assert.equal(m.mail.attachments[0]!.filename, 'lease-signed.pdf');
        assert.equal(m.mail.attachments[0]!.contentType, 'application/pdf');
        assert.ok(Buffer.from(m.mail.attachments[0]!.content).equals(copy));
      }
      const small = requestAttachments(b.deps, {
        attestation: async () => new Uint8Array([1]),
        signedCopy: (rid) => signedCopyForMail(b.deps, rid, 1000),
      });
      const tooBig = await small({ kind: 'attestation', requestId: id } as Parameters<typeof small>[0]);
      assert.equal(tooBig.filename, 'attestation.pdf', 'too large to mail: the attestation alone');
    });

    it('one byte of the original changed in the signed copy: no revision hashes to hashToSign, pdfsig sees it', async () => {
      const { id } = await signedRequest(original);
      await confirmProofs(id);
      const copy = Buffer.from((await amendedOf(id)).rawPayload);
      copy[200] ^= 0x01; // inside the original's first signed range, so inside every signature's
      assert.equal(originalRevision(copy, [sha256(original)]), null);
      assert.equal(
        originalInSignedCopy(copy, { auditTrailData: { auditContext: { hashToSign: sha256(original) } } }),
        null,
      );
      const report = tool('pdfsig', [file('tampered.pdf', copy)]).out;
      assert.equal(report.match(/Signature Validation: Digest Mismatch\./g)?.length, 2, report);
    });

    it('a file that is no PDF, a PDF that cannot take an update, and a request not completed: 409', async () => {
      const text = Buffer.from('just a text file, not a PDF\n');
      const t = await signedRequest(text, 'text/plain');
      await confirmProofs(t.id);
      const res = await amendedOf(t.id);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().code, 'SIGNED_COPY_NOT_AVAILABLE');
      assert.match(res.json().message, /not a PDF/);

      const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('1 0 obj << /Type /Catalog >>\n%%EOF\n')]);
      const br = await signedRequest(broken);
      await confirmProofs(br.id);
      const refused = await amendedOf(br.id);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().code, 'SIGNED_COPY_NOT_AVAILABLE');
      assert.equal((await amendedOf(br.id)).statusCode, 409, 'the refusal is kept');
      const plain = await get(`/v1/signatureRequest/${br.id}/file`, b.auth);
      assert.ok(plain.rawPayload.equals(broken), 'the file itself is still served');

      const open = await createRequest(b, requestBody({ hashToSign: sha256(original) }));
      const up = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${open.id}/file`,
        headers: { ...b.auth, 'content-type': 'application/pdf' },
        payload: original,
      });
      assert.equal(up.statusCode, 200, up.body);
      const early = await amendedOf(open.id);
      assert.equal(early.statusCode, 409);
      assert.match(early.json().message, /COMPLETED or CLOSED/);
    });
  });
}

/** The attestation's pages as the signed copy appends them (unsigned render of the same request). */
async function pdfAttestationPages(b: Bench, id: string): Promise<Uint8Array> {
  const res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/attestation`, headers: b.auth });
  assert.equal(res.statusCode, 200, res.body);
  return res.rawPayload;
}
