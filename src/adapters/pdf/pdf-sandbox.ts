/**
 * The PDF ports of the service on the PDF worker pool (pdf-worker-pool.ts): the signed copy's assembler, the
 * signature field of the PAdES signer, and the check of uploads. A document that breaks a bound, that pdf-lib
 * cannot read or that breaks its thread's limits is refused (SIGNED_COPY_NOT_AVAILABLE, or a refused
 * inspection); only a fault of the pool itself is thrown as it is.
 */
import type { SignedCopyAssembler } from '../../app/signature-requests/attestation/attestation.port.js';
import type { DocumentInspection, DocumentInspector } from '../../app/signature-requests/document/document.port.js';
import { DomainError } from '../../core/errors.js';
import type { PrepareSignatureField } from './pades-signer.js';
import { PdfLimitError, type PdfAnswer, type PdfTask, type PdfWorkerPool } from './pdf-worker-pool.js';

/** The answer's result, or the document's refusal as `refused(reason)`. */
async function runOrRefuse<T>(pool: PdfWorkerPool, task: PdfTask, refused: (reason: string) => T): Promise<T> {
  let answer: PdfAnswer;
  try {
    answer = await pool.run(task);
  } catch (err) {
    if (err instanceof PdfLimitError) return refused(err.message);
    throw err;
  }
  if ('error' in answer) throw new Error(`the PDF worker failed: ${answer.error}`);
  if ('refusal' in answer) return refused(answer.refusal);
  return answer.ok as T;
}

/** The assembler's own refusals already say what the PDF is; the others say why it was stopped. */
const notAvailable = (reason: string): never => {
  const message = reason.startsWith('the uploaded PDF')
    ? reason
    : `the uploaded PDF cannot take the signed copy: ${reason}`;
  throw new DomainError('SIGNED_COPY_NOT_AVAILABLE', message);
};

export function workerSignedCopyAssembler(pool: PdfWorkerPool): SignedCopyAssembler {
  return {
    assemble: (original, attestation, attachment) =>
      runOrRefuse<Uint8Array>(pool, { op: 'assemble', original, attestation, attachment }, notAvailable),
  };
}

/** The PAdES signer's field step in a worker: its PDF may be the signed copy, a user's document. */
export function workerSignaturePreparer(pool: PdfWorkerPool): PrepareSignatureField {
  return (pdf, spec, room, dss) =>
    runOrRefuse<Uint8Array>(pool, { op: 'prepare-signature', pdf, spec, room, dss }, notAvailable);
}

export function workerDocumentInspector(pool: PdfWorkerPool): DocumentInspector {
  return {
    inspect: (pdf) =>
      runOrRefuse<DocumentInspection>(pool, { op: 'inspect', pdf }, (reason) => ({ kind: 'refused', reason })),
  };
}
