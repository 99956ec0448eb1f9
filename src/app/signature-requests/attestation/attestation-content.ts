/** Gathers what the attestation shows: the request, its signers, the sealed trail, the proofs, the branding. */
import type { ChainpointReceipt } from '../../../core/chainpoint/receipt.js';
import { attestationLang } from '../../../core/signature-requests/attestation-text.js';
import { sharingPath } from '../../../core/signature-requests/sharing-token.js';
import type { Vars } from '../../../core/signature-requests/limits.js';
import type { AppDeps } from '../../shared/deps.js';
import { requesterOf } from '../get-shared-request.js';
import type { ProofBundle } from '../proof-bundle.js';
import type { SignatureRequest } from '../signature-request.port.js';
import type {
  AttestationBranding,
  AttestationEvent,
  AttestationModel,
  AttestationProof,
  AttestationSigner,
} from './attestation-model.js';
import type { AttestationService } from './attestation.port.js';

export type ContentDeps = Pick<AppDeps, 'store' | 'clock' | 'secretKey' | 'chain' | 'mail'> & {
  readonly attestation: AttestationService;
};

/** A string variable of the request, or null when absent or empty. */
function textVar(vars: Vars | null, name: string): string | null {
  const value = vars?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

async function brandingOf(deps: ContentDeps, vars: Vars | null): Promise<AttestationBranding> {
  const logoUrl = textVar(vars, 'serviceLogoURL');
  const illustrationUrl = textVar(vars, 'serviceIllustrationURL');
  const [logo, illustration] = await Promise.all([
    logoUrl === null ? null : deps.attestation.images.get(logoUrl),
    illustrationUrl === null ? null : deps.attestation.images.get(illustrationUrl),
  ]);
  return {
    serviceName: textVar(vars, 'serviceName') ?? deps.attestation.serviceName,
    serviceUrl: textVar(vars, 'serviceURL'),
    serviceAddress: textVar(vars, 'serviceAddress'),
    brandColor1: textVar(vars, 'brandColor1'),
    brandColor2: textVar(vars, 'brandColor2'),
    textColor1: textVar(vars, 'textColor1'),
    textColor2: textVar(vars, 'textColor2'),
    logo,
    logoWanted: logoUrl !== null,
    illustration,
  };
}

/**
 * The PDF is the evidence document, kept once and served to the owner, every signer and the sharing link alike
 * (docs/signature-requests.md, "Who sees what"): it names every signer by name and the e-mail they were reached
 * at, with their outcome (signed; declined, when and why; not signed); no phone, IP address, user agent or other
 * free text (the sealed trail commits to those: docs/attestation.md).
 */
function signersOf(request: SignatureRequest, bundle: ProofBundle): AttestationSigner[] {
  const events = bundle.auditTrailData?.auditEvents ?? [];
  return request.signers.map((s) => ({
    name: s.commonName,
    email: s.email,
    signedOn: s.signedOn,
    declinedOn: s.declinedOn,
    declineReason: s.declinedOn === null ? null : s.declineReason,
    method: s.method,
    otpUsed: events.some((e) => e.type === 'OTP_AUTH' && e.auditTrailId === s.auditTrailId),
    anchorId: s.anchorId,
  }));
}

/** The sealed events (format 2: plain comments only); an event without a plain actor is the requester's. */
function eventsOf(bundle: ProofBundle, requester: AttestationModel['requester']): AttestationEvent[] {
  return (bundle.auditTrailData?.auditEvents ?? []).map((e) => ({
    date: e.date,
    type: e.type,
    actor: e.actor ?? ('actorEmail' in e ? requester.name : null),
    comment: e.comment ?? null,
  }));
}

/** Block heights by txid, asked of the node once per transaction; null without a node or when it fails. */
function blockHeights(deps: ContentDeps): (txId: string) => Promise<number | null> {
  const known = new Map<string, Promise<number | null>>();
  const ask = async (txId: string): Promise<number | null> => {
    const tx = await deps.chain?.getRawTransaction(txId);
    if (!tx?.blockHash) return null;
    return (await deps.chain?.getBlockHeader(tx.blockHash))?.height ?? null;
  };
  return (txId) => {
    if (!known.has(txId))
      known.set(
        txId,
        ask(txId).catch(() => null),
      );
    return known.get(txId)!;
  };
}

async function proofsOf(
  deps: ContentDeps,
  request: SignatureRequest,
  bundle: ProofBundle,
): Promise<AttestationProof[]> {
  const receipts = [...bundle.signatureReceipts, ...(bundle.auditTrailReceipt ? [bundle.auditTrailReceipt] : [])];
  const heightOf = blockHeights(deps);
  const wanted = [
    ...request.signers.map((s) => ({ signer: s.commonName as string | null, anchorId: s.anchorId })),
    { signer: null, anchorId: request.auditTrailAnchorId },
  ];
  const proofs: AttestationProof[] = [];
  for (const { signer, anchorId } of wanted) {
    const anchor = anchorId === null ? null : await deps.store.anchors.findById(anchorId);
    if (!anchor) continue;
    const receipt = receipts.find((r: ChainpointReceipt) => r.targetHash === anchor.leaf.toString('hex'));
    proofs.push({
      signer,
      anchorId: anchor.id,
      txId: anchor.txId,
      blockHeight: anchor.txId === null ? null : await heightOf(anchor.txId),
      blockTime: anchor.timestamp,
      merkleRoot: receipt?.merkleRoot ?? null,
      confirmations: anchor.confirmations,
    });
  }
  return proofs;
}

/**
 * The attestation model of a sealed request and its (complete) proof bundle.
 * @param bundleJson - the bundle exactly as `GET …/proofbundle` serves it, attached to the PDF as is
 */
export async function attestationContent(
  deps: ContentDeps,
  request: SignatureRequest,
  bundle: ProofBundle,
  bundleJson: string,
): Promise<AttestationModel> {
  const { name, email } = await requesterOf(deps, request);
  const requester = { name, email: email ?? null };
  return {
    lang: attestationLang(textVar(request.vars, 'lang') ?? request.lang),
    requestId: request.id,
    state: request.state,
    producedAt: deps.clock.now(),
    document: { name: request.name, hash: request.hashToSign, fileName: request.fileName, fileUrl: request.fileUrl },
    requester,
    signers: signersOf(request, bundle),
    events: eventsOf(bundle, requester),
    proofs: await proofsOf(deps, request, bundle),
    branding: await brandingOf(deps, request.vars),
    sharingUrl: `${deps.attestation.publicUrl.replace(/\/+$/, '')}${sharingPath(deps.secretKey, request.id)}`,
    bundle: { fileName: `proof-bundle-${request.id}.json`, json: bundleJson },
  };
}
