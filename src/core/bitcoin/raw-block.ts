/**
 * Minimal parser of a serialized block (`getblock <hash> 0`, which bitcoind and bcoin both answer):
 * the 80-byte header, a CompactSize transaction count, then the transactions one after another.
 * Enough to find the outputs paying a script.
 */
import { DomainError } from '../errors.js';
import { hexToBytes } from '../hash/hex.js';
import { readCompactSize } from './compact-size.js';
import { readTransactionAt, type ParsedTransaction } from './raw-tx.js';

const HEADER_BYTES = 80;

/**
 * Parse a raw block into its transactions, in block order.
 * @param rawBlockHex - lowercase hex, as `getblock <hash> 0` returns it
 * @throws DomainError BAD_REQUEST when the bytes are not a complete block
 */
export function parseRawBlock(rawBlockHex: string): ParsedTransaction[] {
  const raw = hexToBytes(rawBlockHex, 'rawBlockHex', undefined, 'BAD_REQUEST');
  if (raw.length < HEADER_BYTES + 1)
    throw new DomainError('BAD_REQUEST', `"rawBlockHex" expected at least 81 bytes, got ${raw.length}`);
  const count = readCompactSize(raw, HEADER_BYTES);
  const txs: ParsedTransaction[] = [];
  let at = count.next;
  for (let i = 0; i < count.value; i++) {
    const { tx, next } = readTransactionAt(raw, at);
    if (next > raw.length) throw new DomainError('BAD_REQUEST', `"rawBlockHex" ends inside transaction ${i}`);
    txs.push(tx);
    at = next;
  }
  if (at !== raw.length) throw new DomainError('BAD_REQUEST', `"rawBlockHex" expected ${at} bytes, got ${raw.length}`);
  return txs;
}

/** The outputs of `txs` whose scriptPubKey is `scriptHex`, as outpoints with their value in satoshis. */
export function outputsPaying(
  txs: readonly ParsedTransaction[],
  scriptHex: string,
): { txid: string; vout: number; valueSat: number }[] {
  const found: { txid: string; vout: number; valueSat: number }[] = [];
  for (const tx of txs) {
    tx.outputs.forEach((o, vout) => {
      if (o.script.toString('hex') === scriptHex) found.push({ txid: tx.txid, vout, valueSat: Number(o.value) });
    });
  }
  return found;
}
