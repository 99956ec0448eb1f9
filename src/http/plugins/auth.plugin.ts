import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { authenticateBasic, authenticateBearer } from '../../app/accounts/authenticate.js';
import { limitAttempts, type AttemptLimit } from '../../app/accounts/limit-attempts.js';
import type { AppDeps } from '../../app/shared/deps.js';
import type { Account } from '../../app/accounts/account.port.js';
import { DomainError } from '../../core/errors.js';
import { sha256Utf8Base64 } from '../../core/hash/sha256.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Drops remembered logins in this process (after a revocation or a password change). */
    forgetCredentials(): void;
  }
  interface FastifyRequest {
    account: Account | null;
  }
  interface FastifyContextConfig {
    auth?: 'account' | 'optional';
  }
}

/**
 * Successful logins are remembered for a short time, keyed by a hash of the Authorization header, so a
 * client sending its password on every call does not pay a full scrypt each time, and a busy token does
 * not cost a database read per request. In this process a revocation or password change forgets them at
 * once; other API processes see it within the TTL.
 */
const CACHE_TTL_MS = { basic: 60_000, bearer: 5_000 } as const;
const CACHE_MAX = 10_000;
const FAILURE_WINDOW_MS = 60_000;

export interface AuthOptions {
  readonly deps: Pick<AppDeps, 'store' | 'clock'>;
  /** Failed authentications allowed per client address and login per minute before 429. */
  readonly failuresPerMinute: number;
  /** Failed authentications allowed per client address per minute, whatever the login, before 429. */
  readonly failuresPerAddressPerMinute: number;
}

export type Credentials =
  | { readonly scheme: 'basic'; readonly email: string; readonly password: string }
  | { readonly scheme: 'bearer'; readonly token: string };

/** `<scheme> <token68>` and nothing after it (RFC 7235); anything else is not a credential. */
const AUTHORIZATION = /^(basic|bearer) +([A-Za-z0-9._~+/-]+=*) *$/i;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The credentials of an Authorization header, or null when it is malformed (trailing text included). */
export function parseAuthorization(header: string): Credentials | null {
  const match = AUTHORIZATION.exec(header);
  if (!match) return null;
  const value = match[2]!;
  if (match[1]!.toLowerCase() === 'bearer') return { scheme: 'bearer', token: value };
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(value, 'base64'));
  } catch {
    return null;
  }
  const i = decoded.indexOf(':');
  const email = decoded.slice(0, i);
  if (i <= 0 || CONTROL_CHARS.test(email)) return null;
  return { scheme: 'basic', email, password: decoded.slice(i + 1) };
}

/** The UNAUTHORIZED error of a refused request, its reply carrying the challenge header. */
function challenge(reply: FastifyReply, message: string): DomainError {
  void reply.header('www-authenticate', 'Basic realm="proofseal", Bearer');
  return new DomainError('UNAUTHORIZED', message);
}

/**
 * Authentication runs in `onRequest` of the routes that ask for it (`config: { auth: 'account' | 'optional' }`),
 * before the body is read or any input validated: a caller without
 * good credentials learns nothing about what it sent. Failed checks are counted in the store (shared by
 * every API process) per client address and login, and per client address, before the expensive check.
 * The hook answers UNAUTHORIZED (401) for missing, malformed or bad credentials, RATE_LIMITED (429) when a
 * counter is full.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions): void {
  const cache = new Map<string, { account: Account; until: number }>();
  const inFlight = new Map<string, Promise<Account | null>>();
  app.decorateRequest('account', null);
  app.decorate('forgetCredentials', () => cache.clear());

  /** A token has no login: each token is its own key, so distinct tokens behind one address do not collide. */
  function limitsFor(ip: string, creds: Credentials): AttemptLimit[] {
    const login = creds.scheme === 'basic' ? creds.email.toLowerCase() : `bearer:${creds.token}`;
    return [
      { key: `api-auth|${ip}|${login}`, max: opts.failuresPerMinute },
      { key: `api-auth|${ip}`, max: opts.failuresPerAddressPerMinute },
    ];
  }

  function check(creds: Credentials): Promise<Account | null> {
    return creds.scheme === 'bearer'
      ? authenticateBearer(opts.deps, creds.token)
      : authenticateBasic(opts.deps, creds.email, creds.password);
  }

  async function checkLimited(ip: string, key: string, creds: Credentials): Promise<Account | null> {
    const now = opts.deps.clock.now();
    const account = await limitAttempts(opts.deps, {
      limits: limitsFor(ip, creds),
      windowMs: FAILURE_WINDOW_MS,
      attempt: () => check(creds),
    });
    if (account) {
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(key, { account, until: now + CACHE_TTL_MS[creds.scheme] });
    }
    return account;
  }

  /**
   * Concurrent requests with the same Authorization header share one check (one reservation, one
   * scrypt): a client's burst on a cold cache is not refused for holding more reservations than the limit.
   */
  function identify(ip: string, key: string, creds: Credentials): Promise<Account | null> {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = checkLimited(ip, key, creds).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  }

  /** A remembered login of this header from this address, checked within its TTL. */
  function remembered(key: string): Account | undefined {
    const hit = cache.get(key);
    return hit && hit.until > opts.deps.clock.now() ? hit.account : undefined;
  }

  /**
   * The hook of a route declared with `config: { auth }`. A remembered login answers at once, without
   * parsing the header again or a promise; otherwise the header is parsed and checked.
   */
  function authenticate(mode: 'account' | 'optional'): onRequestHookHandler {
    return (req, reply, done) => {
      const header = req.headers.authorization;
      if (!header) {
        if (mode === 'optional') return done();
        return done(challenge(reply, 'credentials required: HTTP Basic (e-mail:password) or Bearer API token'));
      }
      const key = sha256Utf8Base64(`${req.ip}\n${header}`);
      const account = remembered(key);
      if (account) {
        req.account = account;
        return done();
      }
      const creds = parseAuthorization(header);
      if (!creds)
        return done(challenge(reply, 'malformed Authorization header: expected "Basic <base64>" or "Bearer <token>"'));
      identify(req.ip, key, creds).then((found) => {
        req.account = found;
        done(found ? undefined : challenge(reply, 'bad credentials'));
      }, done);
    };
  }

  // Only the routes that ask for it get the hook (so the others pay nothing), after the app's own
  // onRequest hooks (the text guard) and before the route's others (rate limits).
  // A HEAD route copied from a GET one comes with the hook already.
  const hooks = new WeakSet<onRequestHookHandler>();
  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === undefined) return;
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    if (own.some((h) => hooks.has(h as onRequestHookHandler))) return;
    const hook = authenticate(mode);
    hooks.add(hook);
    route.onRequest = [hook, ...own];
  });
}

/**
 * The authenticated account of a route declared with `config: { auth: 'account' }`.
 *
 * @throws DomainError UNAUTHORIZED when the request carries no authenticated account.
 */
export function accountOf(req: FastifyRequest): Account {
  if (!req.account) throw new DomainError('UNAUTHORIZED', 'credentials required');
  return req.account;
}
