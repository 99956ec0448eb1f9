/** Everything the attestation PDF shows, resolved and in one place, so that drawing it needs no store or network. */
import type { AttestationLang } from '../../../core/signature-requests/attestation-text.js';
import type { AuditEventType } from '../../../core/signature-requests/audit-trail.js';
import type { SignMethod } from '../signature-request.port.js';

/** A PNG or JPEG image, checked by its first bytes. */
export interface BrandImage {
  readonly type: 'png' | 'jpeg';
  readonly bytes: Uint8Array;
}

/** The branding variables of the request (docs/pages.md, "Branding the pages"), defaults filled in. */
export interface AttestationBranding {
  readonly serviceName: string;
  readonly serviceUrl: string | null;
  readonly serviceAddress: string | null;
  /** CSS colour strings as given; the renderer falls back to its own colours when one cannot be read. */
  readonly brandColor1: string | null;
  readonly brandColor2: string | null;
  readonly textColor1: string | null;
  readonly textColor2: string | null;
  /** The logo when a `serviceLogoURL` was given and could be had; `logoWanted` says one was given. */
  readonly logo: BrandImage | null;
  readonly logoWanted: boolean;
  readonly illustration: BrandImage | null;
}

export interface AttestationSigner {
  readonly name: string;
  /** The address the signer was reached at (null for a signer reached by phone only). */
  readonly email: string | null;
  readonly signedOn: number | null;
  /** When the signer declined, and the reason given: the signer's outcome when not signed. */
  readonly declinedOn: number | null;
  readonly declineReason: string | null;
  readonly method: SignMethod | null;
  readonly otpUsed: boolean;
  readonly anchorId: string | null;
}

export interface AttestationEvent {
  readonly date: number;
  readonly type: AuditEventType;
  readonly actor: string | null;
  readonly comment: string | null;
}

/** One anchor of the bundle: a signer's signature or the sealed audit trail. */
export interface AttestationProof {
  /** The signer's name, or null for the audit trail. */
  readonly signer: string | null;
  readonly anchorId: string;
  readonly txId: string | null;
  readonly blockHeight: number | null;
  readonly blockTime: number | null;
  readonly merkleRoot: string | null;
  readonly confirmations: number;
}

export interface AttestationModel {
  readonly lang: AttestationLang;
  readonly requestId: string;
  readonly state: string;
  readonly producedAt: number;
  readonly document: {
    readonly name: string;
    readonly hash: string;
    readonly fileName: string | null;
    readonly fileUrl: string | null;
  };
  /** As every view names the requester (`requesterOf`); no e-mail when the account's is internal. */
  readonly requester: { readonly name: string; readonly email: string | null };
  readonly signers: readonly AttestationSigner[];
  readonly events: readonly AttestationEvent[];
  readonly proofs: readonly AttestationProof[];
  readonly branding: AttestationBranding;
  /** The sharing page, encoded in the QR code. */
  readonly sharingUrl: string;
  /** The proof bundle attached to the PDF: exactly the bytes `GET …/proofbundle` serves. */
  readonly bundle: { readonly fileName: string; readonly json: string };
}
