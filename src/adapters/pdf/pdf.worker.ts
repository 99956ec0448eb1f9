/**
 * A thread of the PDF pool (pdf-worker-pool.ts): one task at a time, one answer each. The structure check
 * (pdf-bounds.ts) runs before pdf-lib reads the bytes; anything pdf-lib throws on a user's PDF is a refusal
 * of that document, not a fault of the service.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { inspectPdf, PDF_BOUNDS, updateRefusal, type PdfBounds } from './pdf-bounds.js';
import type { PdfAnswer, PdfTask } from './pdf-worker-pool.js';

const bounds: PdfBounds = (workerData as { bounds: PdfBounds | null }).bounds ?? PDF_BOUNDS;

async function answer(task: PdfTask): Promise<PdfAnswer> {
  if (task.op === 'inspect') return { ok: inspectPdf(task.pdf, bounds) };
  if (task.op === 'assemble') {
    // Checked before pdf-lib is even loaded: a refused file costs the thread milliseconds.
    const refusal = updateRefusal(task.original, bounds);
    if (refusal !== null) return { refusal };
    const { assembleSignedCopy } = await import('./signed-copy-assembler.js');
    try {
      return { ok: await assembleSignedCopy(task.original, task.attestation, task.attachment, bounds) };
    } catch (err) {
      return { refusal: (err as Error).message };
    }
  }
  const { withSignatureField } = await import('./pades-signer.js');
  try {
    return { ok: await withSignatureField(task.pdf, task.spec, task.room, task.dss) };
  } catch (err) {
    return { refusal: (err as Error).message };
  }
}

parentPort!.on('message', (task: PdfTask) => {
  answer(task).then(
    (result) => parentPort!.postMessage(result),
    (err: unknown) => parentPort!.postMessage({ error: String(err) }),
  );
});
