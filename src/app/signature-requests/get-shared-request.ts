/**
 * A signature request as its sharing link shows it (docs/pages.md, "The sharing page"): anyone holding
 * `/share/{id}/{token}` follows the state, the signers and their proofs. It shows what the attestation shows
 * (docs/signature-requests.md, "Who sees what"): the requester's and every signer's name and e-mail, each
 * signer's outcome (signed, declined with its reason, not yet), and public proof facts; never a signer secret,
 * phone, IP address, user agent, other free text, watcher or callback URL.
 */
import { fail } from '../../core/errors.js';
import { isSharingToken } from '../../core/signature-requests/sharing-token.js';
import { requesterEmail, requesterName, requesterVar } from '../../core/signature-requests/requester.js';
import type { SignatureRequestState } from '../../core/signature-requests/states.js';
import type { AnchorStatus } from '../anchoring/anchor.port.js';
import type { AppDeps } from '../shared/deps.js';
import type { SignatureRequest } from './signature-request.port.js';

/** Who asked for the signatures: the `requesterName`/`requesterEmail` vars, else the owner account. */
export interface Requester {
  /** Never empty: the account's name, else its address, else the service's name (src/core/signature-requests/requester.ts). */
  readonly name: string;
  /** Absent when the only address is internal (the default run's unnamed account). */
  readonly email?: string;
}

export interface SharedSigner {
  readonly commonName: string;
  /** The address the signer was reached at (absent for a signer reached by phone only). */
  readonly email?: string;
  readonly signedOn?: number;
  /** When the signer declined, and the reason given (the one free text the attestation shows). */
  readonly declinedOn?: number;
  readonly declineReason?: string;
  readonly anchorId?: string;
  /** Status of the signer's anchor (WAIT, SENT, CONFIRMED) once signed. */
  readonly proofStatus?: AnchorStatus;
}

export interface SharedRequestView {
  readonly id: string;
  readonly name: string;
  readonly state: SignatureRequestState;
  readonly hashToSign: string;
  readonly created: number;
  readonly lastModified: number;
  readonly fileName?: string;
  readonly deadline?: number;
  readonly requester: Requester;
  readonly signers: SharedSigner[];
  readonly auditTrailAnchorId?: string;
  readonly proofBundleComplete: boolean;
  /** The branding variables the page applies (colours and service name), as the signature page does. */
  readonly branding: Branding;
  /** Whether the request names a logo (`serviceLogoURL`): without one the page asks for none. */
  readonly hasLogo: boolean;
}

/** The branding variables a sharing page may show: no other var leaves through the sharing link. */
export const BRANDING_VARS = ['brandColor1', 'textColor1', 'textColor2', 'serviceName'] as const;
export type Branding = Partial<Record<(typeof BRANDING_VARS)[number], string>>;

function brandingOf(request: SignatureRequest): Branding {
  const vars = request.vars ?? {};
  return Object.fromEntries(BRANDING_VARS.flatMap((k) => (typeof vars[k] === 'string' ? [[k, vars[k]]] : [])));
}

/** The one answer for an unknown request or a wrong token: no hint of which. */
export const UNKNOWN_SHARED_MESSAGE = 'no such shared signature request';

/**
 * The request behind a sharing link; the token is compared in constant time.
 * @throws DomainError NOT_FOUND for an unknown request or a wrong token (one answer)
 */
export async function findSharedRequest(
  deps: Pick<AppDeps, 'store' | 'secretKey'>,
  input: { id: string; token: string },
): Promise<SignatureRequest> {
  const request = isSharingToken(deps.secretKey, input.id, input.token)
    ? await deps.store.signatureRequests.findById(input.id)
    : null;
  if (!request || request.state === 'DRAFT') fail('NOT_FOUND', UNKNOWN_SHARED_MESSAGE);
  return request;
}

export type RequesterDeps = Pick<AppDeps, 'store' | 'mail' | 'attestation'>;

/** The requester as the pages, the attestation and the views show it: one rule for all of them. */
export async function requesterOf(deps: RequesterDeps, request: SignatureRequest): Promise<Requester> {
  const source = {
    varName: requesterVar(request.vars, 'requesterName'),
    varEmail: requesterVar(request.vars, 'requesterEmail'),
    account: await deps.store.accounts.findById(request.accountId),
    serviceName:
      requesterVar(request.vars, 'serviceName') ??
      deps.mail?.serviceName ??
      deps.attestation?.serviceName ??
      'proofseal',
  };
  const email = requesterEmail(source);
  return { name: requesterName(source), ...(email !== null && { email }) };
}

/**
 * The public view of a shared request.
 * @throws DomainError NOT_FOUND for an unknown request or a wrong token
 */
export async function getSharedRequest(
  deps: Pick<AppDeps, 'secretKey'> & RequesterDeps,
  input: { id: string; token: string },
): Promise<SharedRequestView> {
  const request = await findSharedRequest(deps, input);
  const signers = await Promise.all(request.signers.map((s) => sharedSigner(deps, s)));
  return {
    id: request.id,
    name: request.name,
    state: request.state,
    hashToSign: request.hashToSign,
    created: request.created,
    lastModified: request.lastModified,
    ...(request.fileName !== null && { fileName: request.fileName }),
    ...(request.deadline !== null && { deadline: request.deadline }),
    requester: await requesterOf(deps, request),
    signers,
    ...(request.auditTrailAnchorId !== null && { auditTrailAnchorId: request.auditTrailAnchorId }),
    proofBundleComplete: request.proofBundleComplete,
    branding: brandingOf(request),
    hasLogo: typeof request.vars?.serviceLogoURL === 'string' && request.vars.serviceLogoURL.trim() !== '',
  };
}

async function sharedSigner(
  deps: Pick<AppDeps, 'store'>,
  s: SignatureRequest['signers'][number],
): Promise<SharedSigner> {
  const who = { commonName: s.commonName, ...(s.email !== null && { email: s.email }) };
  if (s.declinedOn !== null)
    return { ...who, declinedOn: s.declinedOn, ...(s.declineReason !== null && { declineReason: s.declineReason }) };
  if (s.signedOn === null || s.anchorId === null) return who;
  const anchor = await deps.store.anchors.findById(s.anchorId);
  return {
    ...who,
    signedOn: s.signedOn,
    anchorId: s.anchorId,
    ...(anchor && { proofStatus: anchor.status }),
  };
}
