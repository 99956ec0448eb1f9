/**
 * A signed copy made as the service makes it (the assembler's incremental update with an attestation page and
 * the attached bundle, then the PAdES signature with the service's own certificate), for the verifiers' tests.
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createSafeFetch } from '../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../src/adapters/pdf/brand-images.js';
import { padesSigner, type PadesSignerOptions } from '../../src/adapters/pdf/pades-signer.js';
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

/**
 * The attestation and signed-copy parts of a service's deps, as `proofseal start` builds them (PDF renderer,
 * brand images fetched through the guarded fetch, PAdES signer with the service's certificate): for tests that
 * make attestations and signed copies through the routes. `signer` adds to the signer's options (a preparer in
 * a worker pool); `copies` replaces the in-process assembler.
 */
export async function pdfAttestation(
  opts: { signer?: Partial<PadesSignerOptions>; copies?: ReturnType<typeof pdfSignedCopyAssembler> } = {},
) {
  const identity = await serviceSigningIdentity('k'.repeat(40), 'proofseal');
  return {
    renderer: pdfAttestationRenderer(),
    images: cachedBrandImages(createSafeFetch({ allowPrivateUrls: false })),
    publicUrl: 'https://proofseal.example.com',
    serviceName: 'proofseal',
    signer: padesSigner({ identity: async () => identity, now: Date.now, ...opts.signer }),
    copies: opts.copies ?? pdfSignedCopyAssembler(),
  };
}
