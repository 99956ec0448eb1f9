/**
 * Outbound HTTP to addresses chosen by users (callback URLs, identity URLs). The adapter refuses
 * private and local targets (unless the operator allows them), pins the resolved address, follows no
 * redirect, and bounds time and size.
 */
export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string is sent as UTF-8; bytes as they are (an RFC 3161 query). */
  readonly body?: string | Uint8Array;
  /** Default 10 s. */
  readonly timeoutMs?: number;
  /** Largest response body read; default 1 MiB. */
  readonly maxResponseBytes?: number;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Why a request did not produce a response. */
export type OutboundFailure = 'FORBIDDEN_URL' | 'INVALID_URL' | 'DNS' | 'TIMEOUT' | 'NETWORK' | 'TOO_LARGE';

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface HttpClient {
  /** Resolves with any HTTP status (a redirect is returned, not followed); rejects with OutboundError. */
  request(req: OutboundRequest): Promise<OutboundResponse>;
  /** Throws OutboundError FORBIDDEN_URL / INVALID_URL when the URL could never be fetched (no DNS lookup). */
  checkUrl(url: string): void;
  /**
   * The same rule as {@link request} applies to the address, checked when a user gives the URL: the host is
   * resolved and every address must be public (a name that does not resolve is let through; the fetch
   * checks again). Rejects with OutboundError FORBIDDEN_URL / INVALID_URL.
   */
  checkTarget(url: string): Promise<void>;
}
