/**
 * A bundle's `transparencyLog` for receipts of a test bundle (docs/transparency-log.md "In the proof bundle"):
 * each receipt's anchor entry, as the service writes it, among filler entries of a log built with the core's
 * appender (test/tlog/memory-log.ts), proven in a checkpoint signed with a fresh Ed25519 key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChainpointReceipt } from '../../src/core/chainpoint/receipt.js';
import type { BundleLogProofs, LogInclusion } from '../../src/core/tlog/bundle-proofs.js';
import { checkpointPublicKey, signCheckpoint, verifierKey } from '../../src/core/tlog/checkpoint.js';
import { encodeEntry } from '../../src/core/tlog/entry.js';
import { inclusionProof } from '../../src/core/tlog/rfc6962.js';
import { MemoryLog } from '../transparency-log/memory-log.js';

/** The anchor entry the service logs for a signature receipt. */
export function anchorEntryOf(receipt: ChainpointReceipt): Buffer {
  const sig = receipt.signature!;
  return encodeEntry({
    type: 'anchor',
    id: randomUUID(),
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
}

/** Five filler entries before each receipt's entry and after the last; the trail's proof last. */
export function logProofsFor(
  signatures: readonly ChainpointReceipt[],
  trail: ChainpointReceipt,
  origin = 'sign.example.com/log',
): LogFixture {
  const seed = randomBytes(32);
  const log = new MemoryLog();
  const filler = () => Array.from({ length: 5 }, () => randomBytes(40));
  const indexes: number[] = [];
  for (const r of [...signatures, trail]) {
    log.append(filler());
    indexes.push(log.size);
    log.append([anchorEntryOf(r)]);
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
    },
    vkey: verifierKey(origin, checkpointPublicKey(seed)),
  };
}
