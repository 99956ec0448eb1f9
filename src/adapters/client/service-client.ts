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
]);

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
    const url = new URL(this.opts.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const auth = this.opts.auth;
    if (auth?.kind === 'bearer') headers.authorization = `Bearer ${auth.token}`;
    if (auth?.kind === 'basic')
      headers.authorization = `Basic ${Buffer.from(`${auth.login}:${auth.password}`).toString('base64')}`;
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw this.unreachable(err);
    }
    const text = await res.text();
    const body = parseJson(text);
    if ((options.accept ?? [200, 201]).includes(res.status)) return { status: res.status, body: body as T };
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
