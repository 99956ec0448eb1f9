/**
 * What the attestation use case needs from outside: where finished PDFs are kept, the PDF drawing, and the
 * branding images (fetched through the SSRF-guarded HTTP client, cached).
 */
import type { AttestationModel, BrandImage } from './attestation-model.js';
import type { PdfSigner } from './pdf-signer.port.js';

/** Kept attestation PDFs, one per request, written once. */
export interface AttestationRepository {
  /** The kept PDF of a request; null when none was made yet. */
  find(requestId: string): Promise<Uint8Array | null>;
  /** Keeps the PDF unless one is kept already; false when one was (the first one stays). */
  save(requestId: string, pdf: Uint8Array, now: number): Promise<boolean>;
  /** The requests with a kept PDF, by id, after `afterId` (null: from the first), at most `limit`. */
  keptIds(afterId: string | null, limit: number): Promise<string[]>;
  /** Forgets the kept PDF (to make it again: `proofseal attestations repair`); false when none was kept. */
  remove(requestId: string): Promise<boolean>;
}

/** Draws the attestation PDF from its model; pure of any store or network. */
export interface AttestationRenderer {
  render(model: AttestationModel): Promise<Uint8Array>;
}

/** What a branding URL gives: a PNG or JPEG and its size, one whose size is refused (and why), or nothing. */
export type BrandImageCheck =
  | { readonly kind: 'image'; readonly width: number; readonly height: number }
  | { readonly kind: 'too-large'; readonly refusal: string }
  | { readonly kind: 'unavailable' };

/**
 * Branding images by URL: null when the URL cannot be fetched, is refused, is not a PNG or JPEG, or says a size
 * over the bound in its header (core/images/image-size.ts: never decoded). `check` gives the reason, for the
 * request's input check.
 */
export interface BrandImages {
  get(url: string): Promise<BrandImage | null>;
  check(url: string): Promise<BrandImageCheck>;
}

/** The service-wide parts of attestations, built by the composition root. */
export interface AttestationService {
  readonly renderer: AttestationRenderer;
  readonly images: BrandImages;
  /** PUBLIC_URL of the service, for the sharing link of the QR code. */
  readonly publicUrl: string;
  /** `serviceName` when the request's vars give none. */
  readonly serviceName: string;
  /** Signs each rendered PDF (PAdES) before it is kept; absent, attestations are kept unsigned. */
  readonly signer?: PdfSigner;
  /** Appends an attestation to an uploaded PDF (the signed copy); absent, no signed copy is made. */
  readonly copies?: SignedCopyAssembler;
  /**
   * The RFC 3161 authorities (TSA_URLS): each Merkle root of a completed bundle is time-stamped by them too, the
   * tokens kept beside the Bitcoin receipts (`rfc3161Timestamps`); absent, bundles carry none.
   */
  readonly timestamps?: TimestampAuthority;
}

/** What a signed copy attaches: the proof bundle file, dated. */
export interface SignedCopyAttachment {
  readonly fileName: string;
  readonly bytes: Uint8Array;
  /** Milliseconds since the epoch: the attachment's creation and modification date. */
  readonly date: number;
}

/**
 * Appends to an uploaded PDF, as one incremental update (its bytes stay the exact prefix), the pages of an
 * unsigned attestation and the proof bundle as an associated file. Signing is the `PdfSigner`'s, after.
 * @throws DomainError SIGNED_COPY_NOT_AVAILABLE when the PDF cannot take an update (unreadable, encrypted, no page)
 */
export interface SignedCopyAssembler {
  assemble(original: Uint8Array, attestation: Uint8Array, attachment: SignedCopyAttachment): Promise<Uint8Array>;
}

/**
 * A request's signed copy as kept: the bytes that follow the original's (the update appending the attestation
 * and the proof bundle, then the PAdES signature), or why none could be made. The original's bytes stay in the
 * document store; the signed copy is the two read one after the other (docs/attestation.md).
 */
export type KeptSignedCopy =
  | {
      /** SHA-256 of the original it extends (hex). */
      readonly originalSha256: string;
      readonly suffix: Uint8Array;
      /** SHA-256 (hex) and size of the whole signed copy. */
      readonly sha256: string;
      readonly size: number;
    }
  | { readonly originalSha256: string; readonly refusal: string };

/** Kept signed copies, one per request, written once. */
export interface SignedCopyRepository {
  find(requestId: string): Promise<KeptSignedCopy | null>;
  /** Keeps it unless one is kept already; false when one was (the first one stays). */
  save(requestId: string, copy: KeptSignedCopy, now: number): Promise<boolean>;
  /** Forgets the kept copy (to make it again: `proofseal attestations repair`); false when none was kept. */
  remove(requestId: string): Promise<boolean>;
}

/** An RFC 3161 time-stamping authority (or several, tried in order). */
export interface TimestampAuthority {
  /** The DER TimeStampToken over the SHA-256 of `message`, checked (imprint, nonce, signature). @throws when none answers */
  timestamp(message: Uint8Array): Promise<Uint8Array>;
}
