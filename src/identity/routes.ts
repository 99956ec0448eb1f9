import type { FastifyReply, FastifyRequest } from 'fastify';
import { limitAttempts } from '../app/accounts/limit-attempts.js';
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
      onRequest: requireToken,
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
    async (req) => getIdentity(deps, req.query),
  );
}

/**
 * An onRequest hook (it runs before the query is validated) that admits a live identity token. Failed
 * checks are counted in the store per client address, before the check, so every process shares the
 * limit and concurrent guesses cannot pass it.
 */
function bearerGuard(deps: IdentityDeps, failuresPerMinute: number) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const match = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(req.headers.authorization ?? '');
    const token = match?.[1];
    const found =
      token !== undefined &&
      (await limitAttempts(deps, {
        limits: [{ key: `identity-auth|${req.ip}`, max: failuresPerMinute }],
        windowMs: 60_000,
        attempt: () => authenticateIdentityToken(deps, token),
      }));
    if (found) return;
    void reply.header('www-authenticate', 'Bearer realm="proofseal-identity"');
    throw new DomainError(
      'UNAUTHORIZED',
      match ? 'bad identity API token' : 'an identity API token is required: Authorization: Bearer <token>',
    );
  };
}
