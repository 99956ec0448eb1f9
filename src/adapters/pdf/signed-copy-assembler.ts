/**
 * The signed copy's middle revision: the uploaded PDF, not rewritten, plus one incremental update that
 * appends the attestation's pages and attaches the proof bundle as an associated file (`/AF`, relationship
 * `Data`, listed in `EmbeddedFiles`). The PAdES signature is a further update, made by the `PdfSigner`.
 *
 * @cantoo/pdf-lib (the maintained pdf-lib fork the signer uses) loads the document `forIncrementalUpdate`
 * and writes only the objects changed or added (`commit`): the page tree's root, the catalog (its `/AF` and
 * `/Names`), the new pages and their resources, the attachment. Nothing else of the original is touched.
 */
import { AFRelationship, PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import type {
  SignedCopyAssembler,
  SignedCopyAttachment,
} from '../../app/signature-requests/attestation/attestation.port.js';
import { DomainError } from '../../core/errors.js';
import { PDF_BOUNDS, updateRefusal, type PdfBounds } from './pdf-bounds.js';

/** The assembler in this thread: for tests and benchmarks; the service runs {@link assembleSignedCopy} in a PDF worker. */
export function pdfSignedCopyAssembler(bounds: PdfBounds = PDF_BOUNDS): SignedCopyAssembler {
  return {
    assemble: (original, attestation, attachment) => assembleSignedCopy(original, attestation, attachment, bounds),
  };
}

/**
 * The update appended to `original` (see above), its structure checked against `bounds` first.
 * @throws DomainError SIGNED_COPY_NOT_AVAILABLE when the PDF breaks a bound, cannot be read, is encrypted or has no page
 */
export async function assembleSignedCopy(
  original: Uint8Array,
  attestation: Uint8Array,
  attachment: SignedCopyAttachment,
  bounds: PdfBounds,
): Promise<Uint8Array> {
  const doc = await loadOriginal(original, bounds);
  const pages = await PDFDocument.load(attestation, { updateMetadata: false });
  const copied = await doc.copyPages(pages, pages.getPageIndices());
  for (const page of copied) {
    // The attestation's pages carry no field of their own; a widget copied here would be an orphan.
    page.node.delete(PDFName.of('Annots'));
    doc.addPage(page);
  }
  const date = new Date(attachment.date);
  await doc.attach(attachment.bytes, attachment.fileName, {
    mimeType: 'application/json',
    description: 'proof bundle (Chainpoint v2 receipts, sealed audit trail)',
    creationDate: date,
    modificationDate: date,
    afRelationship: AFRelationship.Data,
  });
  const update = await doc.commit({ useObjectStreams: false });
  if (!Buffer.from(update.subarray(0, original.length)).equals(Buffer.from(original)))
    throw new Error('the signed copy altered the original bytes');
  return update;
}

/**
 * The uploaded PDF, loaded for an update. A file pdf-lib cannot read, an encrypted one (new objects would
 * have to be encrypted with a key we do not hold) or one without pages gets no signed copy.
 */
async function loadOriginal(original: Uint8Array, bounds: PdfBounds): Promise<PDFDocument> {
  const refusal = updateRefusal(original, bounds);
  if (refusal !== null) throw new DomainError('SIGNED_COPY_NOT_AVAILABLE', refusal);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(original, {
      forIncrementalUpdate: true,
      updateMetadata: false,
      throwOnInvalidObject: true,
    });
  } catch (err) {
    throw new DomainError('SIGNED_COPY_NOT_AVAILABLE', `the uploaded PDF cannot be read: ${(err as Error).message}`);
  }
  if (doc.isEncrypted || doc.context.trailerInfo.Encrypt !== undefined)
    throw new DomainError('SIGNED_COPY_NOT_AVAILABLE', 'the uploaded PDF is encrypted');
  if (!(doc.catalog.lookupMaybe(PDFName.of('Pages'), PDFDict) && doc.getPageCount() > 0))
    throw new DomainError('SIGNED_COPY_NOT_AVAILABLE', 'the uploaded PDF has no page');
  return doc;
}
