/**
 * A bundle's `transparencyLog` for receipts of a test bundle (docs/transparency-log.md "In the proof bundle"):
 * each receipt's anchor entry, as the service writes it, among filler entries of a log built with the core's
 * appender (test/tlog/memory-log.ts), proven in a checkpoint signed with a fresh Ed25519 key; with `events`, the
 * request's signing events too (a SIGNED event after each signature's anchor entry, COMPLETED after the trail's).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChainpointReceipt } from '../../src/core/chainpoint/receipt.js';
import type { BundleLogProofs, LogInclusion } from '../../src/core/tlog/bundle-proofs.js';
import { checkpointPublicKey, signCheckpoint, verifierKey } from '../../src/core/tlog/checkpoint.js';
import { encodeEntry } from '../../src/core/tlog/entry.js';
import { inclusionProof } from '../../src/core/tlog/rfc6962.js';
import { MemoryLog } from '../transparency-log/memory-log.js';

/** The anchor entry the service logs for a signature receipt. */
export function anchorEntryOf(receipt: ChainpointReceipt, id: string = randomUUID()): Buffer {
  const sig = receipt.signature!;
  return encodeEntry({
    type: 'anchor',
    id,
    kind: 'signature',
    created: 1_700_000_000_000,
    public: true,
    leaf: receipt.targetHash,
    signedHash: sig.signedHash,
    pubKey: sig.pubKey,
    signedIdentity: sig.signedIdentity ?? null,
    signedIssuerDomain: sig.signedIssuerDomain ?? null,
  });
}

export interface LogFixture {
  readonly transparencyLog: BundleLogProofs;
  /** The verifier key of the checkpoint's signer. */
  readonly vkey: string;
  /** With `events`: a SIGNED event of another request, soundly proven in the same checkpoint (not in the bundle). */
  readonly otherRequestEvent?: LogInclusion;
}

/** The SIGNED event the service logs for a signature of `request` whose anchor is `anchor`. */
export function signedEventOf(receipt: ChainpointReceipt, request: string, anchor: string, time: number): Buffer {
  const sig = receipt.signature!;
  return encodeEntry({
    type: 'signer-event',
    event: 'SIGNED',
    request,
    signer: randomUUID(),
    anchor,
    pubKey: sig.pubKey,
    signedIdentity: sig.signedIdentity ?? null,
    time,
  });
}

/** Five filler entries before each receipt's entry and after the last; the trail's proof last. */
export function logProofsFor(
  signatures: readonly ChainpointReceipt[],
  trail: ChainpointReceipt,
  origin = 'sign.example.com/log',
  opts: { events?: { request: string } } = {},
): LogFixture {
  const seed = randomBytes(32);
  const log = new MemoryLog();
  const filler = () => Array.from({ length: 5 }, () => randomBytes(40));
  const indexes: number[] = [];
  const events: number[] = [];
  let other = -1;
  for (const [i, r] of [...signatures, trail].entries()) {
    log.append(filler());
    indexes.push(log.size);
    const id = randomUUID();
    log.append([anchorEntryOf(r, id)]);
    if (opts.events === undefined) continue;
    if (i === 0) {
      other = log.size;
      log.append([signedEventOf(r, randomUUID(), id, 1_700_000_000_500)]);
    }
    events.push(log.size);
    if (i < signatures.length) log.append([signedEventOf(r, opts.events.request, id, 1_700_000_001_000 + i * 1000)]);
    else
      log.append([
        encodeEntry({
          type: 'signer-event',
          event: 'COMPLETED',
          request: opts.events.request,
          signer: null,
          anchor: null,
          pubKey: null,
          signedIdentity: null,
          time: 1_700_000_003_000,
        }),
      ]);
  }
  log.append(filler());
  const prove = (i: number): LogInclusion => ({
    index: i,
    entry: log.entries[i]!.toString('base64'),
    proof: inclusionProof(log.hashAt(), i, log.size).map((h) => h.toString('base64')),
  });
  return {
    transparencyLog: {
      checkpoint: signCheckpoint({ origin, size: log.size, root: log.root() }, origin, seed),
      signatures: indexes.slice(0, -1).map(prove),
      auditTrail: prove(indexes.at(-1)!),
      ...(events.length > 0 && { events: events.map(prove) }),
    },
    vkey: verifierKey(origin, checkpointPublicKey(seed)),
    ...(other >= 0 && { otherRequestEvent: prove(other) }),
  };
}
