import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateBasic, authenticateBearer } from '../../app/accounts/authenticate.js';
import type { AppDeps } from '../../app/shared/deps.js';
import type { Account } from '../../app/accounts/account.port.js';
import { DomainError } from '../../core/errors.js';

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

export interface AuthOptions {
  readonly deps: Pick<AppDeps, 'store' | 'clock'>;
  /** Failed authentications allowed per client address per minute before 429. */
  readonly failuresPerMinute: number;
}

function parseBasic(value: string): { email: string; password: string } | null {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i > 0 ? { email: decoded.slice(0, i), password: decoded.slice(i + 1) } : null;
}

export function registerAuth(app: FastifyInstance, opts: AuthOptions): void {
  const cache = new Map<string, { account: Account; until: number }>();
  const failures = new Map<string, { count: number; windowStart: number }>();
  app.decorateRequest('account', null);
  app.decorate('forgetCredentials', () => cache.clear());

  async function check(header: string): Promise<Account | null> {
    const [scheme, value = ''] = header.split(' ', 2) as [string, string?];
    if (/^bearer$/i.test(scheme)) return authenticateBearer(opts.deps, value.trim());
    if (!/^basic$/i.test(scheme)) return null;
    const creds = parseBasic(value.trim());
    return creds ? authenticateBasic(opts.deps, creds.email, creds.password) : null;
  }

  async function identify(header: string): Promise<Account | null> {
    const key = createHash('sha256').update(header).digest('base64');
    const now = opts.deps.clock.now();
    const hit = cache.get(key);
    if (hit && hit.until > now) return hit.account;
    const account = await check(header);
    if (account) {
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(key, { account, until: now + (/^bearer /i.test(header) ? CACHE_TTL_MS.bearer : CACHE_TTL_MS.basic) });
    }
    return account;
  }

  function throttle(req: FastifyRequest, reply: FastifyReply): void {
    const now = opts.deps.clock.now();
    const f = failures.get(req.ip);
    if (f && now - f.windowStart < 60_000 && f.count >= opts.failuresPerMinute) {
      void reply.header('retry-after', Math.ceil((f.windowStart + 60_000 - now) / 1000));
      throw new DomainError('RATE_LIMITED', 'too many failed authentications; retry later');
    }
  }

  function recordFailure(ip: string): void {
    const now = opts.deps.clock.now();
    const f = failures.get(ip);
    if (!f || now - f.windowStart >= 60_000) failures.set(ip, { count: 1, windowStart: now });
    else f.count += 1;
    if (failures.size > 100_000) failures.clear();
  }

  app.addHook('preHandler', async (req, reply) => {
    const mode = req.routeOptions.config.auth;
    if (mode === undefined) return;
    const header = req.headers.authorization;
    if (!header) {
      if (mode === 'optional') return;
      void reply.header('www-authenticate', 'Basic realm="proofseal", Bearer');
      throw new DomainError('UNAUTHORIZED', 'credentials required: HTTP Basic (e-mail:password) or Bearer API token');
    }
    throttle(req, reply);
    req.account = await identify(header);
    if (!req.account) {
      recordFailure(req.ip);
      void reply.header('www-authenticate', 'Basic realm="proofseal", Bearer');
      throw new DomainError('UNAUTHORIZED', 'bad credentials');
    }
  });
}

/** The authenticated account of a route declared with `config: { auth: 'account' }`. */
export function accountOf(req: FastifyRequest): Account {
  if (!req.account) throw new DomainError('UNAUTHORIZED', 'credentials required');
  return req.account;
}
