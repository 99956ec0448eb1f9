/**
 * One wording of time for every verifier (issue 31): each signer's proof is the block (height, hash) that holds
 * its transaction, and that block's time; the request as a whole is proven "no later than" the latest block it
 * needs, since it is complete only once its last proof is mined. The command line, the verification pages and the
 * sharing page take the latest block and the count of transactions from here.
 */

/** A block as a verdict names it: height and time (seconds or milliseconds, as the caller keeps them). */
export interface TimedBlock {
  readonly height: number;
  readonly time: number;
}

/** The latest block (highest time, then height) of those a request needs; null when there is none. */
export function latestBlock<B extends TimedBlock>(blocks: readonly B[]): B | null {
  return blocks.reduce<B | null>(
    (m, b) => (m === null || b.time > m.time || (b.time === m.time && b.height > m.height) ? b : m),
    null,
  );
}

/** "1 Bitcoin transaction", "2 Bitcoin transactions". */
export function transactionsText(count: number): string {
  return `${count} Bitcoin transaction${count === 1 ? '' : 's'}`;
}

/** The distinct transactions a proof bundle's receipts are anchored in (their first anchor's `sourceId`). */
export function transactionsOf(bundle: unknown): string[] {
  if (bundle === null || typeof bundle !== 'object') return [];
  const b = bundle as { signatureReceipts?: unknown; auditTrailReceipt?: unknown };
  const receipts = [...(Array.isArray(b.signatureReceipts) ? b.signatureReceipts : []), b.auditTrailReceipt];
  const ids = receipts.map((r) => (r as { anchors?: { sourceId?: unknown }[] } | null)?.anchors?.[0]?.sourceId);
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
}
