/**
 * The `TimestampTokenReader` of the command line: core's PKI.js reading of an RFC 3161 token
 * (core/pki/timestamp-token.ts), which the verification pages run in the browser too.
 */
import type { TimestampTokenReader } from '../../app/signature-requests/timestamp-token.port.js';
import { readTimestampToken } from '../../core/pki/timestamp-token.js';

export function pkijsTimestampTokenReader(): TimestampTokenReader {
  return { read: readTimestampToken };
}
