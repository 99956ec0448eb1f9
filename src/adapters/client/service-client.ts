/**
 * JSON over HTTP to a proofseal service (the API or an identity server), with the global fetch. Turns
 * the service's error shape into a DomainError with the same code, and an unreachable service into a
 * NOT_READY error that says how to start it.
 */
import type { ServiceApi, ServiceApiOptions, ServiceResponse } from '../../app/shared/service-api.port.js';
import { DomainError, type ErrorCode } from '../../core/errors.js';

export type { ClientAuth, ServiceResponse } from '../../app/shared/service-api.port.js';

export interface ServiceClientOptions extends ServiceApiOptions {
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

const REMOTE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'INVALID_HASH',
  'INVALID_SIGNATURE',
  'INVALID_PUBKEY',
  'INVALID_RECEIPT',
  'INVALID_URL',
  'FORBIDDEN_URL',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'KEY_REVOKED',
  'KEY_EXPIRED',
  'NOT_FOUND',
  'CONFLICT',
  'ALREADY_EXISTS',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'NOT_READY',
  'CHAIN_UNAVAILABLE',
  'TRANSITION_NOT_ALLOWED',
  'INVALID_PHONE',
  'OTP_REQUIRED',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_TOO_MANY_TRIES',
  'OTP_TOO_SOON',
  'OTP_LIMIT_REACHED',
  'NOT_EDITABLE',
  'HASH_MISMATCH',
  'EMPTY_DOCUMENT',
  'NO_DOCUMENT',
  'SIGNED_COPY_NOT_AVAILABLE',
  'NO_SIGNATURES',
  'ATTESTATION_NOT_AVAILABLE',
]);

/** Time allowed to send or fetch a file (25 MB over a slow line). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

function codeOf(status: number, remote: unknown): ErrorCode {
  if (typeof remote === 'string' && REMOTE_CODES.has(remote)) return remote as ErrorCode;
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  return status >= 500 ? 'NOT_READY' : 'BAD_REQUEST';
}

export class ServiceClient implements ServiceApi {
  constructor(private readonly opts: ServiceClientOptions) {}

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /**
   * One request. Statuses in `accept` (default: 200 and 201) resolve; any other status throws.
   * @throws DomainError with the service's code; NOT_READY when the service cannot be reached
   */
  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: { query?: Record<string, string | undefined>; body?: unknown; accept?: number[] } = {},
  ): Promise<ServiceResponse<T>> {
    const headers = this.headers();
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const res = await this.fetch(method, this.url(path, options.query), { headers, body }, this.opts.timeoutMs);
    return this.json<T>(res, options.accept ?? [200, 201]);
  }

  async upload<T>(
    path: string,
    file: { body: AsyncIterable<Uint8Array>; size: number; contentType: string },
    options: { query?: Record<string, string | undefined>; accept?: number[] } = {},
  ): Promise<ServiceResponse<T>> {
    const headers = { ...this.headers(), 'content-type': file.contentType, 'content-length': String(file.size) };
    // A stream body: fetch sends it as it is read (undici takes an async iterable with duplex 'half').
    const init = { headers, body: file.body, duplex: 'half' } as unknown as RequestInit;
    const res = await this.fetch('POST', this.url(path, options.query), init, this.opts.timeoutMs ?? UPLOAD_TIMEOUT_MS);
    return this.json<T>(res, options.accept ?? [200, 201]);
  }

  async download(
    path: string,
    options: { query?: Record<string, string | undefined>; accept?: number[] } = {},
  ): Promise<{ status: number; headers: Headers; body: AsyncIterable<Uint8Array> }> {
    const headers = { ...this.headers(), accept: '*/*' };
    const url = this.url(path, options.query);
    const res = await this.fetch('GET', url, { headers }, this.opts.timeoutMs ?? UPLOAD_TIMEOUT_MS);
    if (!(options.accept ?? [200]).includes(res.status) || res.body === null) await this.json(res, []);
    return { status: res.status, headers: res.headers, body: res.body as unknown as AsyncIterable<Uint8Array> };
  }

  private url(path: string, query: Record<string, string | undefined> = {}): URL {
    const url = new URL(this.opts.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = this.opts.auth;
    if (auth?.kind === 'bearer') headers.authorization = `Bearer ${auth.token}`;
    if (auth?.kind === 'basic')
      headers.authorization = `Basic ${Buffer.from(`${auth.login}:${auth.password}`).toString('base64')}`;
    return headers;
  }

  private async fetch(method: string, url: URL, init: RequestInit, timeoutMs = 30_000): Promise<Response> {
    try {
      return await (this.opts.fetch ?? fetch)(url, { ...init, method, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  /** The JSON body of an accepted status; any other status throws the service's error. */
  private async json<T>(res: Response, accept: number[]): Promise<ServiceResponse<T>> {
    const text = await res.text();
    const body = parseJson(text);
    if (accept.includes(res.status)) return { status: res.status, body: body as T };
    const remote = (body ?? {}) as { code?: unknown; message?: unknown };
    const message = typeof remote.message === 'string' ? remote.message : `HTTP ${res.status}`;
    throw new DomainError(
      codeOf(res.status, remote.code),
      `${this.opts.label}: ${message}${res.status === 401 ? this.authHint() : ''}`,
    );
  }

  private unreachable(err: unknown): DomainError {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    const why = cause === 'TimeoutError' ? 'did not answer in time' : `cannot be reached (${cause})`;
    return new DomainError(
      'NOT_READY',
      `the ${this.opts.label} at ${this.opts.baseUrl} ${why}${this.opts.startHint ? `; ${this.opts.startHint}` : ''}`,
    );
  }

  private authHint(): string {
    return this.opts.auth ? ' (check the credentials given)' : ' (no credentials were given: see proofseal help)';
  }
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
