/** The proof bundle of a request: every signer's receipt, the sealed audit trail and its receipt. */
import type { SpvProof } from '../../core/bitcoin/spv.js';
import type { ChainpointReceipt } from '../../core/chainpoint/receipt.js';
import {
  isCommittedTrail,
  type AuditOpening,
  type SealedAuditTrail,
} from '../../core/signature-requests/audit-commitment.js';
import { fail } from '../../core/errors.js';
import type { BundleLogProofs } from '../../core/tlog/bundle-proofs.js';
import { proveInclusions } from '../transparency/read-log.js';
import { getReceipt } from '../anchoring/get-receipt.js';
import { getSpvProof } from '../anchoring/get-spv-proof.js';
import type { AppDeps } from '../shared/deps.js';
import type { TrailReader } from './audit-trail.js';
import { signedEmailOpening } from './signer-secrets.js';
import { enqueueRequestCallback, PRODUCE_ATTESTATION } from './lifecycle.js';
import { queueRequestMails, type RequestMailDeps } from './request-mails.js';
import type { SignatureRequest } from './signature-request.port.js';
import type { TimestampAuthority } from './attestation/attestation.port.js';

export interface ProofBundle {
  /** The receipts of the signers' anchors that have one (SENT or CONFIRMED), in signer order. */
  readonly signatureReceipts: ChainpointReceipt[];
  readonly auditTrailReceipt?: ChainpointReceipt;
  /**
   * Once complete (and the server has a node): the SPV data of each Bitcoin transaction the receipts name
   * (`anchors[0].sourceId` = `txid`), once per transaction, beside the receipts, which stay Chainpoint v2 as is.
   */
  readonly bitcoinSpv?: SpvProof[];
  /**
   * The second witness of the same hashes, with TSA_URLS: one RFC 3161 token per Merkle root the receipts name
   * (the 32 bytes the Bitcoin transaction's OP_RETURN carries), made when the bundle completed.
   */
  readonly rfc3161Timestamps?: Rfc3161Timestamp[];
  /**
   * The audit trail exactly as sealed: its canonical JSON (RFC 8785) hashes to the receipt's signedHash. Format 2
   * (commitments, no personal value) for everyone; a format-1 trail (sealed before, in plain) to its owner only.
   */
  readonly auditTrailData?: SealedAuditTrail;
  /** The openings of the trail's commitments the reader may have: all for the owner, their own for a signer. */
  readonly auditTrailOpenings?: AuditOpening[];
  /**
   * The openings of the e-mails the delegated signatures' identities commit to (`EMAILADDRESS=sha256:…` =
   * `sha256:` SHA-256(salt ‖ value)), by signer: all for the owner, their own for a signer.
   */
  readonly signatureOpenings?: SignatureOpening[];
  /**
   * With the transparency log on: the inclusion proofs of the receipts' anchors (the signatures', in the order of
   * `signatureReceipts`, null where one is not logged yet; the audit trail's), of the request's signing events
   * (`events`, in log order; a SIGNED event only beside its signature's proof) and the signed checkpoint they
   * lead to, the oldest that holds them all. Left out when no anchor is logged yet (docs/transparency-log.md).
   */
  readonly transparencyLog?: BundleLogProofs;
  /** True once every receipt is CONFIRMED. */
  readonly complete: boolean;
}

/** An RFC 3161 token whose imprint is SHA-256 of the 32 bytes of `merkleRoot`. */
export interface Rfc3161Timestamp {
  /** The receipts' `merkleRoot` it stamps, hex. */
  readonly merkleRoot: string;
  /** The DER TimeStampToken (a CMS SignedData), base64. */
  readonly token: string;
}

export interface SignatureOpening {
  readonly auditTrailId: string;
  readonly salt: string;
  readonly value: string;
}

async function receiptOf(deps: Pick<AppDeps, 'store'>, anchorId: string | null): Promise<ChainpointReceipt | null> {
  if (anchorId === null) return null;
  const found = await getReceipt(deps, { id: anchorId });
  return found.complete ? found.receipt : null;
}

/** The SPV data of the anchors' transactions, each transaction once, in the order of the anchors. */
async function spvOf(deps: Pick<AppDeps, 'store' | 'chain'>, anchorIds: (string | null)[]): Promise<SpvProof[]> {
  const byTxid = new Map<string, SpvProof>();
  const headers = new Map<string, Promise<string | null>>();
  for (const id of anchorIds) {
    const spv = id === null ? null : await getSpvProof(deps, { id }, headers);
    if (spv !== null && !byTxid.has(spv.txid)) byTxid.set(spv.txid, spv);
  }
  return [...byTxid.values()];
}

/**
 * The bundle as JSON text: the one serialisation of a bundle, so that what the sharing link's `…/proofbundle`
 * serves and what the attestation PDF carries are the same bytes.
 */
export function proofBundleJson(bundle: ProofBundle): string {
  return JSON.stringify(bundle);
}

/**
 * The public proof bundle of a request as far as it exists now: what the sharing link serves and the attestation
 * PDF carries. No personal value: the sealed trail in format 2 (commitments), no openings; a format-1 trail
 * (sealed in plain before format 2) is left out, its receipt stays.
 */
export async function getProofBundle(
  deps: Pick<AppDeps, 'store' | 'chain' | 'transparency'>,
  request: SignatureRequest,
): Promise<ProofBundle> {
  const anchorIds = [...request.signers.map((s) => s.anchorId), request.auditTrailAnchorId];
  const receipts = await Promise.all(request.signers.map((s) => receiptOf(deps, s.anchorId)));
  const trailReceipt = await receiptOf(deps, request.auditTrailAnchorId);
  const withReceipt = request.signers.filter((_, i) => receipts[i] !== null).map((s) => s.anchorId);
  const log = deps.transparency
    ? await logProofs(deps, request.id, withReceipt, trailReceipt === null ? null : request.auditTrailAnchorId)
    : null;
  const spv = request.proofBundleComplete ? await spvOf(deps, anchorIds) : [];
  const sealed = await deps.store.signatureRequests.sealedTrail(request.id);
  const trail = sealed === null ? null : (JSON.parse(sealed) as SealedAuditTrail);
  const stamps = request.proofBundleComplete ? await deps.store.signatureRequests.timestamps(request.id) : null;
  return {
    signatureReceipts: receipts.filter((r): r is ChainpointReceipt => r !== null),
    ...(trailReceipt !== null && { auditTrailReceipt: trailReceipt }),
    ...(spv.length > 0 && { bitcoinSpv: spv }),
    ...(stamps !== null && { rfc3161Timestamps: JSON.parse(stamps) as Rfc3161Timestamp[] }),
    ...(trail !== null && isCommittedTrail(trail) && { auditTrailData: trail }),
    ...(log !== null && { transparencyLog: log }),
    complete: request.proofBundleComplete,
  };
}

/**
 * The log's proofs of the signatures' anchors (those with a receipt, in order), the trail's and the request's
 * signing events, in one checkpoint; null when no anchor is logged yet (or the log has no checkpoint), so the
 * bundle is as without a log.
 */
async function logProofs(
  deps: Pick<AppDeps, 'store'>,
  requestId: string,
  signatures: readonly (string | null)[],
  trail: string | null,
): Promise<BundleLogProofs | null> {
  const events = await deps.store.tlog.eventRefs(requestId);
  const proven = await proveInclusions(deps, { anchorIds: [...signatures, trail], entries: events });
  if (proven === null || proven.proofs.every((p) => p === null)) return null;
  const trailProof = proven.proofs[signatures.length] ?? null;
  return {
    checkpoint: proven.checkpoint,
    signatures: proven.proofs.slice(0, signatures.length),
    ...(trailProof !== null && { auditTrail: trailProof }),
    ...(proven.entries.length > 0 && { events: proven.entries }),
  };
}

/**
 * The public bundle of a complete request, for what is kept and never made again (the attestation, the signed
 * copy): every receipt confirmed and the SPV data of every transaction they name, so the file proves itself
 * with no server. Refused while a part is missing (a batch confirmed before headers were stored, until a worker
 * stores its header): kept now, it would be a weaker proof for ever.
 * @throws DomainError ATTESTATION_PENDING while the bundle is not complete or lacks a transaction's SPV data
 */
export async function keptProofBundle(
  deps: Pick<AppDeps, 'store' | 'chain' | 'transparency'>,
  request: SignatureRequest,
): Promise<ProofBundle> {
  if (!request.proofBundleComplete)
    fail('ATTESTATION_PENDING', `the proofs of ${request.id} are not all confirmed yet: the attestation follows them`);
  const bundle = await getProofBundle(deps, request);
  const missing = missingSpv(bundle);
  if (missing.length > 0)
    fail(
      'ATTESTATION_PENDING',
      `the SPV data of transaction ${missing.join(', ')} are not stored yet: ${request.id}'s attestation follows them`,
    );
  return bundle;
}

/** The transactions the bundle's receipts name that its `bitcoinSpv` does not carry. */
export function missingSpv(bundle: ProofBundle): string[] {
  const receipts = [...bundle.signatureReceipts, ...(bundle.auditTrailReceipt ? [bundle.auditTrailReceipt] : [])];
  const named = new Set(receipts.flatMap((r) => r.anchors.map((a) => a.sourceId)));
  const carried = new Set((bundle.bitcoinSpv ?? []).map((p) => p.txid));
  return [...named].filter((txid) => !carried.has(txid));
}

/**
 * The proof bundle for its owner or one of its signers: the public bundle with the openings that reader may
 * have (every one for the owner: their export to prove any value; a signer's own values for a signer), and
 * for the owner a format-1 trail as sealed.
 */
export async function getReaderProofBundle(
  deps: Pick<AppDeps, 'store' | 'chain' | 'secretKey' | 'transparency'>,
  request: SignatureRequest,
  reader: TrailReader,
): Promise<ProofBundle> {
  const bundle = await getProofBundle(deps, request);
  const mine = (auditTrailId: string | undefined) => reader.kind === 'owner' || auditTrailId === reader.auditTrailId;
  const signatureOpenings = request.signers.flatMap((s) => {
    const opening = s.anchorId !== null && mine(s.auditTrailId) ? signedEmailOpening(deps, s) : null;
    return opening === null ? [] : [{ auditTrailId: s.auditTrailId, salt: opening.salt, value: opening.value }];
  });
  if (bundle.auditTrailData === undefined) {
    const sealed = reader.kind === 'owner' ? await deps.store.signatureRequests.sealedTrail(request.id) : null;
    const trail = sealed === null ? {} : { auditTrailData: JSON.parse(sealed) as SealedAuditTrail };
    return { ...bundle, ...trail, signatureOpenings };
  }
  const kept = await deps.store.signatureRequests.sealedOpenings(request.id);
  const all = kept === null ? [] : (JSON.parse(kept) as AuditOpening[]);
  return { ...bundle, auditTrailOpenings: all.filter((o) => mine(o.auditTrailId)), signatureOpenings };
}

/**
 * Marks the bundles of sealed requests complete when every anchor (signers' and audit trail's) is
 * CONFIRMED, with a callback, the job that makes the attestation and the attestation mail (its PDF can be
 * made from then on: it is attached when the mail is sent). Idempotent.
 * With TSA_URLS, each Merkle root is time-stamped first and the tokens kept in the same transaction; when no
 * authority answers, the bundle is not completed now and the next run tries again (as the B-T attestation does:
 * a deployment configured for two witnesses never keeps a bundle with one).
 * @returns how many bundles became complete
 */
export async function completeProofBundles(
  deps: Pick<AppDeps, 'store' | 'attestation'> & RequestMailDeps,
  input: { limit: number },
): Promise<number> {
  let completed = 0;
  for (const id of await deps.store.signatureRequests.awaitingBundle(input.limit)) {
    const request = await deps.store.signatureRequests.findById(id);
    if (!request || !(await allConfirmed(deps, request))) continue;
    const tsa = deps.attestation?.timestamps;
    const stamps = tsa ? await rootTimestamps(deps, tsa, request).catch(() => null) : undefined;
    if (stamps === null) continue;
    const now = deps.clock.now();
    const done = await deps.store.transaction(async (tx) => {
      if (stamps !== undefined) await tx.signatureRequests.setTimestamps(id, JSON.stringify(stamps));
      if (!(await tx.signatureRequests.setProofBundleComplete(id, now))) return false;
      await enqueueRequestCallback(tx, { ...request, proofBundleComplete: true, lastModified: now }, 'proofBundle');
      await tx.jobs.send(PRODUCE_ATTESTATION, { requestId: id }, { singletonKey: id });
      await queueRequestMails(tx, deps, { ...request, proofBundleComplete: true }, { kind: 'attestation' });
      return true;
    });
    if (done) completed += 1;
  }
  return completed;
}

/** One token per distinct Merkle root of the request's receipts, in the order of the anchors. */
async function rootTimestamps(
  deps: Pick<AppDeps, 'store'>,
  tsa: TimestampAuthority,
  request: SignatureRequest,
): Promise<Rfc3161Timestamp[]> {
  const roots = new Set<string>();
  for (const id of [...request.signers.map((s) => s.anchorId), request.auditTrailAnchorId]) {
    const receipt = await receiptOf(deps, id);
    if (receipt !== null) roots.add(receipt.merkleRoot);
  }
  const stamps: Rfc3161Timestamp[] = [];
  for (const merkleRoot of roots) {
    const token = await tsa.timestamp(Buffer.from(merkleRoot, 'hex'));
    stamps.push({ merkleRoot, token: Buffer.from(token).toString('base64') });
  }
  return stamps;
}

/** Every anchor CONFIRMED with its SPV data stored (the header too: a batch confirmed before it was stored waits for a worker to read it). */
async function allConfirmed(deps: Pick<AppDeps, 'store'>, request: SignatureRequest): Promise<boolean> {
  const ids = [...request.signers.map((s) => s.anchorId), request.auditTrailAnchorId];
  for (const id of ids) {
    if (id === null) continue;
    const anchor = await deps.store.anchors.findById(id);
    if (anchor?.status !== 'CONFIRMED' || anchor.batchId === null) return false;
    const proof = await deps.store.batches.confirmationProof(anchor.batchId);
    if (proof?.blockHeader == null) return false;
  }
  return true;
}
