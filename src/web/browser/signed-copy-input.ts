/**
 * The verification page given a signed copy alone (docs/attestation.md): the document is the signed copy's
 * earliest revision whose SHA-256 is the one its attached proof bundle names (core/documents/signed-copy.ts),
 * and the receipt file is the signed copy itself, whose bundle the page reads as it reads an attestation's.
 * So the page checks the signed copy with no second file, and its own checks stay the ones it runs on any pair.
 */
import { originalInSignedCopy } from '../../core/documents/signed-copy.js';
import { bundleInPdf, looksLikePdf } from './pdf-attachment.js';

/**
 * The document and receipt files to check, from what the user chose. When exactly one file was chosen and it is
 * a PDF that carries a proof bundle, it is taken for a signed copy: the document is its original revision (its
 * first bytes) and the receipt is the file itself. When no revision has the bundle's hash, the document is the
 * whole file, so the checks say that it is not the document the receipts prove. Otherwise, the choice as made.
 */
export async function withSignedCopy(
  file: File | undefined,
  receipt: File | undefined,
): Promise<[File | undefined, File | undefined]> {
  const only = file && receipt ? undefined : (file ?? receipt);
  if (!only) return [file, receipt];
  const bytes = new Uint8Array(await only.arrayBuffer());
  if (!looksLikePdf(bytes)) return [file, receipt];
  const bundle = await bundleInPdf(bytes).catch(() => null);
  if (bundle === null) return [file, receipt];
  const original = originalInSignedCopy(bytes, bundle);
  const name = only.name.replace(/-signed(\.pdf)$/i, '$1');
  const document = new File([only.slice(0, original?.length ?? bytes.length)], name, { type: 'application/pdf' });
  return [document, only];
}
