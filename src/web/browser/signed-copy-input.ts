/**
 * The verification page given a signed copy alone (docs/attestation.md): the document is the signed copy's
 * earliest revision whose SHA-256 is the one its attached proof bundle names (core/documents/signed-copy.ts),
 * and the receipt file is the signed copy itself, whose bundle the page reads as it reads an attestation's.
 * So the page checks the signed copy with no second file, and its own checks stay the ones it runs on any pair;
 * the signed copy's own bytes (its PDF signatures, verify-copy.ts) are checked besides.
 */
import { documentHashesOf, searchOriginal, type OriginalSearch } from '../../core/documents/signed-copy.js';
import { bundleInPdf, looksLikePdf } from './pdf-attachment.js';

/** A signed copy chosen alone: its bytes, the search for its original, the hashes its bundle names. */
export interface SignedCopyFound {
  readonly bytes: Uint8Array;
  readonly search: OriginalSearch;
  readonly documentHashes: readonly string[];
}

export interface ChosenFiles {
  readonly file: File | undefined;
  readonly receipt: File | undefined;
  readonly copy?: SignedCopyFound;
}

/**
 * The document and receipt files to check, from what the user chose. When exactly one file was chosen and it is
 * a PDF that carries a proof bundle, it is taken for a signed copy: the document is its original revision (its
 * first bytes) and the receipt is the file itself. When no revision has the bundle's hash, the document is the
 * whole file, so the checks say that it is not the document the receipts prove. Otherwise, the choice as made.
 */
export async function withSignedCopy(file: File | undefined, receipt: File | undefined): Promise<ChosenFiles> {
  const only = file && receipt ? undefined : (file ?? receipt);
  if (!only) return { file, receipt };
  const bytes = new Uint8Array(await only.arrayBuffer());
  if (!looksLikePdf(bytes)) return { file, receipt };
  const bundle = await bundleInPdf(bytes).catch(() => null);
  if (bundle === null) return { file, receipt };
  const documentHashes = documentHashesOf(bundle);
  const search = searchOriginal(bytes, documentHashes);
  const name = only.name.replace(/-signed(\.pdf)$/i, '$1');
  const length = search.original?.length ?? bytes.length;
  const document = new File([only.slice(0, length)], name, { type: 'application/pdf' });
  return { file: document, receipt: only, copy: { bytes, search, documentHashes } };
}
