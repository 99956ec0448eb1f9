/**
 * Reading an RFC 3161 time-stamp token of a proof bundle (`rfc3161Timestamps`): what it says (imprint, time,
 * serial, the signer's certificate) and whether its CMS signature holds with the certificate it carries.
 * Read with PKI.js by core/pki/timestamp-token.ts (adapters/pdf wraps it); `verifyProofBundle` compares the imprint itself.
 */
import type { TimestampTokenReading } from '../../core/pki/timestamp-token.js';

export type {
  TimestampSignature,
  TimestampTokenContent,
  TimestampTokenReading,
} from '../../core/pki/timestamp-token.js';

export interface TimestampTokenReader {
  /**
   * Reads the DER token and checks its signature over `message` (the 32 bytes stamped), with the certificate
   * inside the token; no trust anchor is consulted (whose certificate it is, is the reader's to judge). Never
   * throws: an unreadable token is `readable: false` with the reason.
   */
  read(token: Uint8Array, message: Uint8Array): Promise<TimestampTokenReading>;
}
