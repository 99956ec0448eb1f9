/**
 * The identity server: its own Fastify app and port (IDENTITY_PORT), sharing the code base and the store
 * (its own tables) with the API. `GET /sign`, `GET /identity`, `/health`, `/openapi.json`.
 */
import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../app/identity/identity-deps.js';
import { trustProxyOption, type IdentityServerConfig } from '../config.js';
import { errorBody } from '../http/error-codes.js';
import { accessLog, loggerOptions } from '../http/logging.js';
import { frameworkErrorOptions, registerErrorHandling } from '../http/plugins/errors.plugin.js';
import { ErrorSchema } from '../http/schemas.js';
import { registerTextGuard, typed, validatorOptions } from '../http/validation.js';
import { identityRoutes } from './routes.js';

export async function buildIdentityApp(deps: IdentityDeps, config: IdentityServerConfig): Promise<FastifyInstance> {
  const access = accessLog();
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    ...access.options,
    bodyLimit: 16 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: () => randomUUID(),
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ...validatorOptions(),
    ...frameworkErrorOptions(),
  });
  access.attach(app.log);
  app.addSchema(ErrorSchema);
  registerErrorHandling(app);
  registerTextGuard(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) =>
      errorBody(429, 'RATE_LIMITED', `rate limit of ${ctx.max} per minute reached; retry in ${ctx.after}`),
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'proofseal identity server',
        version: '1',
        description: 'Signs hashes with the identity keys of this server and proves their identity.',
      },
      servers: [{ url: config.identityPublicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/health', { schema: { tags: ['operations'] } }, async () => ({ status: 'ok' }));
  identityRoutes(typed(app), deps, {
    publicPerMinute: config.rateLimitPublicPerMinute,
    authFailuresPerMinute: config.rateLimitAuthPerMinute,
  });
  return app;
}

/** Builds the identity server and listens on IDENTITY_PORT. */
export async function startIdentityServer(deps: IdentityDeps, config: IdentityServerConfig): Promise<FastifyInstance> {
  const app = await buildIdentityApp(deps, config);
  await app.listen({ port: config.identityPort, host: config.host });
  return app;
}
