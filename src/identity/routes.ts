import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateIdentityToken } from '../app/identity/create-identity-token.js';
import { getIdentity } from '../app/identity/get-identity.js';
import type { IdentityDeps } from '../app/identity/identity-deps.js';
import { signHash } from '../app/identity/sign-hash.js';
import { DomainError } from '../core/errors.js';
import type { TypedFastify } from '../http/validation.js';
import { errors, IdentityQuery, IdentityResult, SignQuery, SignResult } from './schemas.js';

export interface IdentityRouteOptions {
  /** Calls of the public `/identity` per client address per minute. */
  readonly publicPerMinute: number;
  /** Failed `/sign` authentications per client address per minute before 429. */
  readonly authFailuresPerMinute: number;
}

/** `GET /sign` (Bearer identity token) and `GET /identity` (public, rate limited). */
export function identityRoutes(app: TypedFastify, deps: IdentityDeps, opts: IdentityRouteOptions): void {
  const requireToken = bearerGuard(deps, opts.authFailuresPerMinute);

  app.get(
    '/sign',
    {
      preHandler: requireToken,
      schema: {
        tags: ['identity'],
        summary: 'Sign a hash with an identity key',
        security: [{ bearer: [] }],
        querystring: SignQuery,
        response: { 200: SignResult, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => signHash(deps, req.query),
  );

  app.get(
    '/identity',
    {
      config: { rateLimit: { max: opts.publicPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['identity'],
        summary: 'The identity and status of a key; with leftData, a proof that the server holds it',
        querystring: IdentityQuery,
        response: { 200: IdentityResult, ...errors(400, 404, 429) },
      },
    },
    async (req) => getIdentity(deps, { pubKey: req.query.pubKey, leftData: req.query.leftData }),
  );
}

/** A preHandler that admits a live identity token and slows down whoever keeps failing. */
function bearerGuard(deps: IdentityDeps, failuresPerMinute: number) {
  const failures = new Map<string, { count: number; windowStart: number }>();
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const now = deps.clock.now();
    const f = failures.get(req.ip);
    if (f && now - f.windowStart < 60_000 && f.count >= failuresPerMinute) {
      void reply.header('retry-after', Math.ceil((f.windowStart + 60_000 - now) / 1000));
      throw new DomainError('RATE_LIMITED', 'too many failed authentications; retry later');
    }
    const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (match && (await authenticateIdentityToken(deps, match[1]!))) return;
    if (!f || now - f.windowStart >= 60_000) failures.set(req.ip, { count: 1, windowStart: now });
    else f.count += 1;
    if (failures.size > 100_000) failures.clear();
    void reply.header('www-authenticate', 'Bearer realm="proofseal-identity"');
    throw new DomainError(
      'UNAUTHORIZED',
      match ? 'bad identity API token' : 'an identity API token is required: Authorization: Bearer <token>',
    );
  };
}
