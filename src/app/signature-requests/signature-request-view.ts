/** The JSON forms of a signature request: the owner's, and one signer's. Absent optional fields are left out. */
import type { Vars } from '../../core/signature-requests/limits.js';
import { maskPhone } from '../../core/signature-requests/phone.js';
import type { SignatureRequestState } from '../../core/signature-requests/states.js';
import type { AppDeps } from '../shared/deps.js';
import { signerSecretOf } from './signer-secrets.js';
import type { SignatureRequest, Signer, Watcher } from './signature-request.port.js';

export interface SignerView {
  commonName: string;
  email?: string;
  countryCallingCode?: string;
  phone?: string;
  requiresOTP?: boolean;
  vars?: Vars;
  lang?: string;
  auditTrailId: string;
  signedOn?: number;
  anchorId?: string;
  /** Only in a signer's own view, for that signer. */
  signeeId?: string;
  /** In the owner's view, and in a signer's own view for that signer: when the signer declined (SIGN_REFUSED). */
  declinedOn?: number;
  /** With `declinedOn`: the reason the signer gave, if any. */
  declineReason?: string;
  /** Only in a signer's own view, instead of the number: where the SMS codes go (`+33 6 •• •• •• 78`). */
  maskedPhone?: string;
}

export interface SignatureRequestView {
  id: string;
  created: number;
  lastModified: number;
  name: string;
  hashToSign: string;
  state: SignatureRequestState;
  fileName?: string;
  fileURL?: string;
  deadline?: number;
  activation?: number;
  lang?: string;
  ordered: boolean;
  public: boolean;
  callbackURL?: string;
  identityURL?: string;
  vars?: Vars;
  watchers?: Watcher[];
  authorizedSignees: SignerView[];
  anchors: string[];
  auditTrailAnchorId?: string;
  proofBundleComplete: boolean;
  /** The file to sign was uploaded (served at fileURL). */
  isUploaded: boolean;
  /**
   * Only in a signer's own view: whether a logo is named for that signer (`serviceLogoURL`, the signer's own
   * var over the request's), so that the signing page asks `…/logo` only then.
   */
  hasLogo?: boolean;
}

function optional<T extends object>(pairs: [keyof T, unknown][]): Partial<T> {
  return Object.fromEntries(pairs.filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** A signer as its owner (full) or another signer (`public`: name and signature facts only, no contact) sees it. */
function signerView(s: Signer, form: 'full' | 'public'): SignerView {
  const facts = { commonName: s.commonName, auditTrailId: s.auditTrailId };
  const signed = optional<SignerView>([
    ['signedOn', s.signedOn],
    ['anchorId', s.anchorId],
  ]);
  if (form === 'public') return { ...facts, ...signed };
  return {
    ...facts,
    ...optional<SignerView>([
      ['email', s.email],
      ['countryCallingCode', s.countryCallingCode],
      ['phone', s.phone],
      ['vars', s.vars],
      ['lang', s.lang],
    ]),
    requiresOTP: s.requiresOtp,
    ...signed,
    ...optional<SignerView>([
      ['declinedOn', s.declinedOn],
      ['declineReason', s.declinedOn === null ? null : s.declineReason],
    ]),
  };
}

function baseView(r: SignatureRequest): Omit<SignatureRequestView, 'authorizedSignees'> {
  return {
    id: r.id,
    created: r.created,
    lastModified: r.lastModified,
    name: r.name,
    hashToSign: r.hashToSign,
    state: r.state,
    ...optional<SignatureRequestView>([
      ['fileName', r.fileName],
      ['fileURL', r.fileUrl],
      ['deadline', r.deadline],
      ['activation', r.activation],
      ['lang', r.lang],
      ['identityURL', r.identityUrl],
      ['vars', r.vars],
      ['auditTrailAnchorId', r.auditTrailAnchorId],
    ]),
    ordered: r.ordered,
    public: r.public,
    anchors: r.signers.flatMap((s) => (s.anchorId === null ? [] : [s.anchorId])),
    proofBundleComplete: r.proofBundleComplete,
    isUploaded: r.uploaded === true,
  };
}

/** The owner's view: every signer (without secrets: a signer's signeeId reaches that signer only), watchers, callbackURL. */
export function ownerView(r: SignatureRequest): SignatureRequestView {
  return {
    ...baseView(r),
    ...optional<SignatureRequestView>([['callbackURL', r.callbackUrl]]),
    watchers: r.watchers.map((w) => ({ ...w })),
    authorizedSignees: r.signers.map((s) => signerView(s, 'full')),
  };
}

/**
 * One signer's view: that signer first, with its own signeeId and contact details; the others with
 * name and whether they signed only. No watchers, no callbackURL, no other signer's secret, e-mail or phone.
 * The signer's own phone is given masked (`maskedPhone`): a link may be forwarded, and the page needs only
 * to say where the code goes.
 */
export function signerViewOf(deps: Pick<AppDeps, 'secretKey'>, r: SignatureRequest, me: Signer): SignatureRequestView {
  const full = signerView(me, 'full');
  delete full.phone;
  delete full.countryCallingCode;
  const own: SignerView = {
    ...full,
    ...(me.phone !== null && { maskedPhone: maskPhone(me.countryCallingCode ?? '', me.phone) }),
    signeeId: signerSecretOf(deps, me),
  };
  const others = r.signers.filter((s) => s.id !== me.id).map((s) => signerView(s, 'public'));
  const logo = { ...r.vars, ...me.vars }.serviceLogoURL;
  const hasLogo = typeof logo === 'string' && logo.trim() !== '';
  return { ...baseView(r), authorizedSignees: [own, ...others], hasLogo };
}
