/**
 * Minimal parser of a raw Bitcoin transaction: enough to find an output script and to get the
 * non-witness serialization that the txid commits to (BIP-144: a segwit tx is
 * version ‖ 0x00 0x01 ‖ inputs ‖ outputs ‖ witnesses ‖ locktime; its txid hashes it without the
 * marker, flag and witnesses).
 */
import { DomainError } from '../errors.js';
import { hexToBytes } from '../hash/hex.js';
import { doubleSha256 } from '../hash/sha256.js';
import { readCompactSize } from './compact-size.js';

/** An output and where its script starts in the non-witness serialization. */
export interface TxOutput {
  readonly value: bigint;
  readonly script: Buffer;
  readonly scriptOffset: number;
}

/** A parsed transaction. */
export interface ParsedTransaction {
  /** Serialization without marker, flag and witnesses (what the txid hashes). */
  readonly nonWitness: Buffer;
  /** txid in display (RPC) byte order. */
  readonly txid: string;
  readonly hasWitness: boolean;
  readonly outputs: readonly TxOutput[];
}

/**
 * Parse a raw transaction (with or without witness data).
 * @param rawTxHex - lowercase hex, as `getrawtransaction` returns it
 * @throws DomainError BAD_REQUEST when the bytes are not a complete transaction
 */
export function parseRawTransaction(rawTxHex: string): ParsedTransaction {
  const raw = hexToBytes(rawTxHex, 'rawTxHex', undefined, 'BAD_REQUEST');
  const { tx, next } = readTransactionAt(raw, 0);
  if (next !== raw.length) throw new DomainError('BAD_REQUEST', `"rawTxHex" expected ${next} bytes, got ${raw.length}`);
  return tx;
}

/**
 * Reads the transaction that starts at `start` in `raw` (a block holds them one after another).
 * @returns the transaction and the offset right after it (which may lie beyond `raw` when it is cut short)
 * @throws DomainError BAD_REQUEST when the bytes end before the outputs or witnesses do
 */
export function readTransactionAt(raw: Buffer, start: number): { tx: ParsedTransaction; next: number } {
  const hasWitness = raw.length > start + 6 && raw[start + 4] === 0x00 && raw[start + 5] !== 0x00;
  const bodyStart = start + (hasWitness ? 6 : 4);
  const { inputCount, outputs, bodyEnd } = readBody(raw, bodyStart);
  const end = hasWitness ? skipWitnesses(raw, bodyEnd, inputCount) : bodyEnd;
  const shift = bodyStart - 4;
  const nonWitness = Buffer.concat([
    raw.subarray(start, start + 4),
    raw.subarray(bodyStart, bodyEnd),
    raw.subarray(end, end + 4),
  ]);
  const tx: ParsedTransaction = {
    nonWitness,
    txid: Buffer.from(doubleSha256(nonWitness)).reverse().toString('hex'),
    hasWitness,
    outputs: outputs.map((o) => ({ ...o, scriptOffset: o.scriptOffset - shift })),
  };
  return { tx, next: end + 4 };
}

function readBody(raw: Buffer, start: number): { inputCount: number; outputs: TxOutput[]; bodyEnd: number } {
  const inputs = readCompactSize(raw, start);
  const inputCount = inputs.value;
  let at = inputs.next;
  for (let i = 0; i < inputCount; i++) {
    const script = readCompactSize(raw, need(raw, at, 36) + 36);
    at = need(raw, script.next, script.value + 4) + script.value + 4;
  }
  const count = readCompactSize(raw, at);
  at = count.next;
  const outputs: TxOutput[] = [];
  for (let i = 0; i < count.value; i++) {
    const value = raw.readBigUInt64LE(need(raw, at, 8));
    const len = readCompactSize(raw, at + 8);
    outputs.push({
      value,
      script: raw.subarray(len.next, need(raw, len.next, len.value) + len.value),
      scriptOffset: len.next,
    });
    at = len.next + len.value;
  }
  return { inputCount, outputs, bodyEnd: at };
}

function skipWitnesses(raw: Buffer, start: number, inputCount: number): number {
  let at = start;
  for (let i = 0; i < inputCount; i++) {
    const items = readCompactSize(raw, at);
    at = items.next;
    for (let j = 0; j < items.value; j++) {
      const item = readCompactSize(raw, at);
      at = need(raw, item.next, item.value) + item.value;
    }
  }
  return at;
}

function need(raw: Buffer, offset: number, length: number): number {
  if (offset + length > raw.length)
    throw new DomainError('BAD_REQUEST', `"rawTxHex" ends early: ${length} bytes needed at offset ${offset}`);
  return offset;
}
