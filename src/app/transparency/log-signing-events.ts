/**
 * The signing events the transparency log records (docs/transparency-log.md), each written by the use case
 * that makes the event, on its transaction's store: the event and its pending log entry commit together or
 * not at all. The sequencer gives them their index within seconds.
 */
import type { Store } from '../shared/store.port.js';

/** A signature, with its anchor (made in the same transaction). */
export async function logSignature(
  tx: Store,
  e: { requestId: string; signerId: string; anchorId: string; at: number },
): Promise<void> {
  await tx.tlog.addSignerEvent({ event: 'SIGNED', ...e });
}

/** A signer's decline. */
export async function logDecline(tx: Store, e: { requestId: string; signerId: string; at: number }): Promise<void> {
  await tx.tlog.addSignerEvent({ event: 'DECLINED', ...e, anchorId: null });
}

/** A request's move: COMPLETED and CANCELED are logged, the other moves are not signing events. */
export async function logRequestMove(
  tx: Store,
  moved: { id: string; state: string; lastModified: number },
): Promise<void> {
  if (moved.state !== 'COMPLETED' && moved.state !== 'CANCELED') return;
  await tx.tlog.addSignerEvent({
    event: moved.state,
    requestId: moved.id,
    signerId: null,
    anchorId: null,
    at: moved.lastModified,
  });
}
