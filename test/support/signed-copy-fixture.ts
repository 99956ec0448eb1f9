/**
 * A signed copy made as the service makes it (the assembler's incremental update with an attestation page and
 * the attached bundle, then the PAdES signature with the service's own certificate), for the verifiers' tests.
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { padesSigner } from '../../src/adapters/pdf/pades-signer.js';
import { pdfSignedCopyAssembler } from '../../src/adapters/pdf/signed-copy-assembler.js';
import { serviceSigningIdentity } from '../../src/adapters/pdf/signing-identity.js';

/** A one-page PDF with `text` on it. */
export async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 60, y: 760, font, size: 16 });
  return doc.save();
}

/** The signed copy of `original` carrying `bundle`. */
export async function signedCopyOf(original: Uint8Array, bundle: unknown): Promise<Buffer> {
  const update = await pdfSignedCopyAssembler().assemble(original, await onePagePdf('Attestation (test)'), {
    bytes: new TextEncoder().encode(JSON.stringify(bundle)),
    fileName: 'proof-bundle-test.json',
    date: Date.now(),
  });
  const identity = await serviceSigningIdentity('k'.repeat(40), 'proofseal');
  return Buffer.from(await padesSigner({ identity: async () => identity, now: Date.now }).sign(update));
}
