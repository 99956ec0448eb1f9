/** Signature requests as the use cases see them, and the repository that keeps them. */
import type { AuditEventType } from '../../core/signature-requests/audit-trail.js';
import type { Vars } from '../../core/signature-requests/limits.js';
import type { SignatureRequestState } from '../../core/signature-requests/states.js';
import type { PageOf } from '../anchoring/anchor.port.js';

export type SignMethod = 'delegated' | 'own-key';

/** A signer as given by the owner. */
export interface SignerInput {
  readonly commonName: string;
  readonly email?: string;
  readonly countryCallingCode?: string;
  readonly phone?: string;
  readonly requiresOTP?: boolean;
  readonly vars?: Vars;
  readonly lang?: string;
}

export interface Watcher {
  readonly email: string;
  readonly commonName?: string;
  readonly vars?: Vars;
  readonly lang?: string;
}

/** The owner's input of a signature request (creation and DRAFT `PUT`), before request-input.ts checks it. */
export interface SignatureRequestInput {
  readonly name: string;
  readonly hashToSign: string;
  readonly authorizedSignees?: readonly SignerInput[];
  readonly watchers?: readonly Watcher[];
  readonly vars?: Vars;
  readonly fileName?: string;
  readonly fileURL?: string;
  readonly deadline?: number;
  readonly activation?: number;
  readonly lang?: string;
  readonly ordered?: boolean;
  readonly public?: boolean;
  readonly callbackURL?: string;
  readonly identityURL?: string;
}

/** A signer as stored: never its secret, only the salt it derives from and its keyed lookup hash. */
export interface Signer {
  /** Internal, stable id (the `signerKey` of one-time passwords); never shown. */
  readonly id: string;
  readonly requestId: string;
  readonly position: number;
  readonly commonName: string;
  readonly email: string | null;
  readonly countryCallingCode: string | null;
  readonly phone: string | null;
  readonly requiresOtp: boolean;
  readonly vars: Vars | null;
  readonly lang: string | null;
  readonly secretSalt: Buffer;
  readonly auditTrailId: string;
  readonly viewedOn: number | null;
  readonly signedOn: number | null;
  readonly anchorId: string | null;
  readonly method: SignMethod | null;
  /** When the signer declined (its SIGN_REFUSED event), or null: a declined signer signs no more. */
  readonly declinedOn: number | null;
  /** The reason given with the decline, if any (shown wherever the decline is: "Who sees what"). */
  readonly declineReason: string | null;
  /** When the platform's 3-day reminder went to this signer, or null (it goes once). */
  readonly remindedOn: number | null;
}

/** What a new signer row holds (the lookup hash is written, never read back). */
export interface NewSigner extends Omit<
  Signer,
  'viewedOn' | 'signedOn' | 'anchorId' | 'method' | 'declinedOn' | 'declineReason' | 'remindedOn'
> {
  readonly secretHash: Buffer;
}

/** The owner-given fields of a request (what a DRAFT `PUT` may replace). */
export interface RequestFields {
  readonly name: string;
  readonly hashToSign: string;
  readonly fileName: string | null;
  readonly fileUrl: string | null;
  readonly deadline: number | null;
  readonly activation: number | null;
  readonly lang: string | null;
  readonly ordered: boolean;
  readonly public: boolean;
  readonly callbackUrl: string | null;
  readonly identityUrl: string | null;
  readonly vars: Vars | null;
}

export interface SignatureRequest extends RequestFields {
  readonly id: string;
  readonly accountId: string;
  readonly state: SignatureRequestState;
  readonly auditTrailAnchorId: string | null;
  readonly proofBundleComplete: boolean;
  /** The file to sign was uploaded (the spec's `isUploaded`); absent on requests made outside the store. */
  readonly uploaded?: boolean;
  readonly created: number;
  readonly lastModified: number;
  readonly signers: readonly Signer[];
  readonly watchers: readonly Watcher[];
}

/** One audit event as stored. */
export interface AuditEvent {
  readonly date: number;
  readonly type: AuditEventType;
  readonly actor: string | null;
  /** The signer it concerns (internal id), for the per-signer trail. */
  readonly signerId: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly comment: string | null;
}

export interface SignatureRequestSearch {
  readonly accountId: string;
  readonly name?: string;
  readonly state?: SignatureRequestState;
  readonly hashToSign?: string;
  readonly page: number;
  readonly size: number;
}

/** A request and one of its signers, as a signer's secret link finds them. */
export interface RequestAndSigner {
  readonly request: SignatureRequest;
  readonly signer: Signer;
}

export interface SignatureRequestRepository {
  insert(
    request: Omit<SignatureRequest, 'signers' | 'auditTrailAnchorId' | 'proofBundleComplete' | 'lastModified'>,
    signers: readonly NewSigner[],
  ): Promise<void>;
  /** The request with its signers (by position) and watchers; null when unknown or another account's. */
  findById(id: string, accountId?: string): Promise<SignatureRequest | null>;
  /** As findById, taking the request's row lock until the transaction ends (use inside `transaction`). */
  lockById(id: string, accountId?: string): Promise<SignatureRequest | null>;
  /** Replaces the owner's fields, signers and watchers of a DRAFT; false when it is not DRAFT any more. */
  replaceDraft(
    id: string,
    fields: RequestFields,
    signers: readonly NewSigner[],
    watchers: readonly Watcher[],
    now: number,
  ): Promise<boolean>;
  /**
   * Moves `from` → `to` at `event.date` and appends the event that records the move, in one statement;
   * false (and no event) when the request was not in `from` (someone else moved it first).
   */
  setState(id: string, from: SignatureRequestState, to: SignatureRequestState, event: AuditEvent): Promise<boolean>;
  setDeadline(id: string, deadline: number | null, now: number): Promise<void>;
  /**
   * The request and its signer whose lookup hash this is, read in one statement (with the request's row
   * lock when `lock`); null when the request is unknown or has no such signer.
   */
  findForSigner(id: string, lookupHash: Buffer, opts: { readonly lock: boolean }): Promise<RequestAndSigner | null>;
  /** {@link findForSigner} of several signers in one statement (locks taken in the order asked): one answer each. */
  findForSigners(
    asked: readonly { readonly id: string; readonly lookupHash: Buffer }[],
    opts: { readonly lock: boolean },
  ): Promise<(RequestAndSigner | null)[]>;
  /**
   * Records a signature at `event.date`, touches the request's lastModified and appends the event that
   * records it; with `move` (the last signature), moves the request from `move.from` to `move.to` and
   * appends `move.event` after the signature's event. The caller read the signer unsigned under the
   * request's row lock (nothing else can sign it meanwhile). Written with the transaction's next
   * statements, not waited for (the signatures sharing a transaction in one statement); a signer found
   * signed after all fails the transaction.
   */
  markSigned(
    signerId: string,
    requestId: string,
    signature: { anchorId: string; method: SignMethod },
    event: AuditEvent,
    move?: { from: SignatureRequestState; to: SignatureRequestState; event: AuditEvent },
  ): Promise<void>;
  /** Records the first view; false when it was viewed before. */
  markViewed(signerId: string, now: number): Promise<boolean>;
  /** Records a decline once; false when the signer had declined or signed already (nothing written). */
  markDeclined(signerId: string, decline: { readonly on: number; readonly reason: string | null }): Promise<boolean>;
  /** Records the platform's reminder once; false when it was reminded before. */
  markReminded(signerId: string, now: number): Promise<boolean>;
  addEvent(requestId: string, event: AuditEvent): Promise<void>;
  /** The audit events, oldest first. */
  events(requestId: string): Promise<AuditEvent[]>;
  search(query: SignatureRequestSearch): Promise<PageOf<SignatureRequest>>;
  /** Ids of PENDING requests whose activation date has come. */
  dueForActivation(now: number, limit: number): Promise<string[]>;
  /** Ids of IN_PROGRESS requests whose deadline has passed. */
  dueForExpiry(now: number, limit: number): Promise<string[]>;
  /** Ids of COMPLETED/CLOSED requests whose audit trail is not sealed yet. */
  awaitingSeal(limit: number): Promise<string[]>;
  /** Ids of sealed requests whose proof bundle is not complete yet. */
  awaitingBundle(limit: number): Promise<string[]>;
  /** Records the sealed trail (with the JSON of its openings) and its anchor once; false when it was sealed already. */
  setSealed(id: string, anchorId: string, canonicalJson: string, now: number, openingsJson: string): Promise<boolean>;
  /** The canonical JSON that was sealed; null before the seal. */
  sealedTrail(id: string): Promise<string | null>;
  /** The JSON of the sealed trail's openings (salt and value of each commitment); null before the seal or for a format-1 trail. */
  sealedOpenings(id: string): Promise<string | null>;
  /** Marks the proof bundle complete once; false when it was already. */
  setProofBundleComplete(id: string, now: number): Promise<boolean>;
  /** Keeps the JSON of the bundle's RFC 3161 tokens once (migration 029); false when some were kept already. */
  setTimestamps(id: string, json: string): Promise<boolean>;
  /** The JSON kept by {@link setTimestamps}; null when none (no TSA configured, or a bundle completed before). */
  timestamps(id: string): Promise<string | null>;
}
