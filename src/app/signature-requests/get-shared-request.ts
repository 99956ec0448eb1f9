/**
 * A signature request as its sharing link shows it (docs/pages.md, "The sharing page"): anyone holding
 * `/share/{id}/{token}` follows the state, the signers and their proofs. No signer secret, no e-mail (the
 * requester's neither), phone, watcher or callback URL: names, dates and public proof facts only.
 */
import { fail } from '../../core/errors.js';
import { isSharingToken } from '../../core/signature-requests/sharing-token.js';
import type { SignatureRequestState } from '../../core/signature-requests/states.js';
import type { AnchorStatus } from '../anchoring/anchor.port.js';
import type { AppDeps } from '../shared/deps.js';
import type { SignatureRequest } from './signature-request.port.js';

/** Who asked for the signatures: the `requesterName`/`requesterEmail` vars, else the owner account. */
export interface Requester {
  readonly name: string;
  readonly email?: string;
}

export interface SharedSigner {
  readonly commonName: string;
  readonly signedOn?: number;
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

/** The requester as the pages show it. */
export async function requesterOf(deps: Pick<AppDeps, 'store'>, request: SignatureRequest): Promise<Requester> {
  const vars = request.vars ?? {};
  const account = await deps.store.accounts.findById(request.accountId);
  const accountName = account ? `${account.firstName} ${account.lastName}`.trim() || account.email : '';
  const name = typeof vars.requesterName === 'string' ? vars.requesterName : accountName;
  const email = typeof vars.requesterEmail === 'string' ? vars.requesterEmail : account?.email;
  return { name, ...(email !== undefined && { email }) };
}

/**
 * The public view of a shared request.
 * @throws DomainError NOT_FOUND for an unknown request or a wrong token
 */
export async function getSharedRequest(
  deps: Pick<AppDeps, 'store' | 'secretKey'>,
  input: { id: string; token: string },
): Promise<SharedRequestView> {
  const request = await findSharedRequest(deps, input);
  const signers = await Promise.all(request.signees.map((s) => sharedSigner(deps, s)));
  return {
    id: request.id,
    name: request.name,
    state: request.state,
    hashToSign: request.hashToSign,
    created: request.created,
    lastModified: request.lastModified,
    ...(request.fileName !== null && { fileName: request.fileName }),
    ...(request.deadline !== null && { deadline: request.deadline }),
    requester: await sharedRequester(deps, request),
    signers,
    ...(request.auditTrailAnchorId !== null && { auditTrailAnchorId: request.auditTrailAnchorId }),
    proofBundleComplete: request.proofBundleComplete,
    branding: brandingOf(request),
    hasLogo: typeof request.vars?.serviceLogoURL === 'string' && request.vars.serviceLogoURL.trim() !== '',
  };
}

/** The requester by name only: a link anyone may forward shows no e-mail (nor the account's, as a fallback name). */
async function sharedRequester(deps: Pick<AppDeps, 'store'>, request: SignatureRequest): Promise<Requester> {
  const { name, email } = await requesterOf(deps, request);
  const account = await deps.store.accounts.findById(request.accountId);
  return { name: name === email || name === account?.email ? '' : name };
}

async function sharedSigner(
  deps: Pick<AppDeps, 'store'>,
  s: SignatureRequest['signees'][number],
): Promise<SharedSigner> {
  if (s.signedOn === null || s.anchorId === null) return { commonName: s.commonName };
  const anchor = await deps.store.anchors.findById(s.anchorId);
  return {
    commonName: s.commonName,
    signedOn: s.signedOn,
    anchorId: s.anchorId,
    ...(anchor && { proofStatus: anchor.status }),
  };
}
