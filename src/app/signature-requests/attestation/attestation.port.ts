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
}

/** Draws the attestation PDF from its model; pure of any store or network. */
export interface AttestationRenderer {
  render(model: AttestationModel): Promise<Uint8Array>;
}

/** Branding images by URL: null when the URL cannot be fetched, is refused, or is not a PNG or JPEG. */
export interface BrandImages {
  get(url: string): Promise<BrandImage | null>;
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
  /**
   * The RFC 3161 authorities (TSA_URLS): each Merkle root of a completed bundle is time-stamped by them too, the
   * tokens kept beside the Bitcoin receipts (`rfc3161Timestamps`); absent, bundles carry none.
   */
  readonly timestamps?: TimestampAuthority;
}

/** An RFC 3161 time-stamping authority (or several, tried in order). */
export interface TimestampAuthority {
  /** The DER TimeStampToken over the SHA-256 of `message`, checked (imprint, nonce, signature). @throws when none answers */
  timestamp(message: Uint8Array): Promise<Uint8Array>;
}
