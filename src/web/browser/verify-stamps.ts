/**
 * The bundle's RFC 3161 time stamps (`rfc3161Timestamps`) checked in the browser as the command line checks
 * them (app/signature-requests/verify-proof-bundle.ts), with the same core reader (core/pki/timestamp-token.ts):
 * the root stamped is one of the receipts', the imprint is SHA-256 of the root's 32 bytes, and the authority's
 * signature holds with the certificate the token carries. Whether to trust that authority is the reader's call.
 */
import { sha256Hex } from '../../core/hash/sha256.js';
import { readTimestampToken, SHA256_OID } from '../../core/pki/timestamp-token.js';
import type { Check } from './verify-checks.js';

/** One time stamp's checks, the authority's name and time when the token could be read. */
export interface StampResult {
  readonly checks: Check[];
  readonly tsa?: string;
  /** `genTime`, ms. */
  readonly time?: number;
}

const HEX64 = /^[0-9a-f]{64}$/i;
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Each entry of `rfc3161Timestamps` (not a list: none) checked against the receipts' Merkle roots. */
export async function stampResults(raw: unknown, roots: ReadonlySet<string>): Promise<StampResult[]> {
  if (!Array.isArray(raw)) return [];
  const results: StampResult[] = [];
  for (const entry of raw as unknown[]) results.push(await stampResult(entry, roots));
  return results;
}

async function stampResult(entry: unknown, roots: ReadonlySet<string>): Promise<StampResult> {
  const { merkleRoot, token } = (entry ?? {}) as { merkleRoot?: unknown; token?: unknown };
  if (typeof merkleRoot !== 'string' || !HEX64.test(merkleRoot) || typeof token !== 'string')
    return { checks: [{ state: 'fail', group: 'stamp', key: 'stampBadEntry' }] };
  const root = merkleRoot.toLowerCase();
  const checks: Check[] = [
    {
      state: roots.has(root) ? 'ok' : 'fail',
      group: 'stamp',
      key: roots.has(root) ? 'stampRoot' : 'stampOtherRoot',
      params: { root },
    },
  ];
  if (!globalThis.crypto?.subtle) return { checks: [...checks, { state: 'skip', group: 'stamp', key: 'stampNotRun' }] };
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(token);
  } catch {
    return {
      checks: [...checks, { state: 'fail', group: 'stamp', key: 'stampUnreadable', params: { reason: 'not base64' } }],
    };
  }
  const reading = await readTimestampToken(bytes, fromHex(root));
  if (!reading.readable)
    return {
      checks: [
        ...checks,
        { state: 'fail', group: 'stamp', key: 'stampUnreadable', params: { reason: reading.reason } },
      ],
    };
  const c = reading.content;
  const expected = sha256Hex(fromHex(root));
  const imprintOk = c.hashAlgorithm === SHA256_OID && c.imprint === expected;
  checks.push({
    state: imprintOk ? 'ok' : 'fail',
    group: 'stamp',
    key: imprintOk ? 'stampImprint' : 'stampImprintBad',
    params: { imprint: c.imprint, expected },
  });
  const tsa = c.tsaSubject ?? '?';
  const sig = reading.signature;
  checks.push(
    sig.valid === true
      ? { state: 'ok', group: 'stamp', key: 'stampSigned', params: { tsa, serial: c.serialNumber } }
      : {
          state: sig.valid === null ? 'skip' : 'fail',
          group: 'stamp',
          key: 'stampSigBad',
          params: { tsa, reason: sig.reason },
        },
  );
  return { checks, tsa, time: Date.parse(c.genTime) };
}
