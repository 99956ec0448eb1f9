import { randomUUID } from 'node:crypto';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AppDeps } from '../app/shared/deps.js';
import { trustProxyOption, type ApiConfig } from '../config.js';
import { accessLog, loggerOptions } from './logging.js';
import { registerAuth } from './plugins/auth.plugin.js';
import { frameworkErrorOptions, registerErrorHandling } from './plugins/errors.plugin.js';
import { healthRoutes } from './routes/health.route.js';
import { accountRoutes } from './routes/accounts/account.route.js';
import { anchorRoutes } from './routes/anchoring/anchor.route.js';
import { otsRoutes } from './routes/anchoring/ots.route.js';
import { receiptRoutes } from './routes/anchoring/receipt.route.js';
import { tokenRoutes } from './routes/accounts/token.route.js';
import { userRoutes } from './routes/accounts/user.route.js';
import { signatureRequestRoutes } from './routes/signature-requests/signature-request.route.js';
import { signatureRequestProofRoutes } from './routes/signature-requests/signature-request-proofs.route.js';
import { logoRoutes } from './routes/signature-requests/logo.route.js';
import { sharedRequestRoutes } from './routes/signature-requests/shared.route.js';
import { signerRoutes } from './routes/signature-requests/signer.route.js';
import { attestationRoutes } from './routes/signature-requests/attestation.route.js';
import { documentRoutes } from './routes/signature-requests/document.route.js';
import { webRoutes } from './routes/web/web.route.js';
import { logRoutes } from './routes/transparency/log.route.js';
import { receiptLogRoutes } from './routes/transparency/receipt-log.route.js';
import { ErrorSchema } from './schemas.js';
import { registerTextGuard, typed, validatorOptions } from './validation.js';
import { routeConfigOf, type Readiness, type RouteDeps, type RouteModule, type WebAssets } from './route-module.js';

/** What the HTTP app is built from: the use cases' dependencies and the readiness checks of `/ready`. */
export interface HttpDeps extends AppDeps {
  readonly readiness: Readiness;
}

export type { RouteConfig, RouteModule } from './route-module.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface BuildOptions {
  /** Where logs go (default stdout); tests read them back. */
  readonly logStream?: { write(line: string): void };
  /** The pages' browser bundle; without it the pages (GET /verify, /assets/*) are not served. */
  readonly webAssets?: WebAssets | null;
}

export async function buildApp(
  deps: HttpDeps,
  config: ApiConfig,
  extraRoutes: RouteModule[] = [],
  opts: BuildOptions = {},
): Promise<FastifyInstance> {
  const access = accessLog();
  const app = Fastify({
    logger: opts.logStream
      ? { ...loggerOptions(config.logLevel, { pretty: false }), stream: opts.logStream }
      : loggerOptions(config.logLevel),
    ...access.options,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Fastify gives each request a child logger bound to its id, whose bindings go through the redaction on
    // every request; with logging off nothing would ever be written through it, so none is made.
    childLoggerFactory: (logger, bindings, childOpts) =>
      logger.level === 'silent' ? logger : logger.child(bindings, childOpts),
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ...validatorOptions(),
    ...frameworkErrorOptions(),
  });
  access.attach(app.log);
  app.addSchema(ErrorSchema);
  // Set when the request arrives (the first hook, so a request refused by a later one carries it too), not
  // in onSend: the only onSend hook made Fastify run its onSend hook chain for every reply.
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id);
    done();
  });
  registerErrorHandling(app);
  refuseNonJsonText(app);
  registerAuth(app, {
    deps,
    failuresPerMinute: config.rateLimitAuthPerMinute,
    failuresPerAddressPerMinute: config.rateLimitAuthPerAddressPerMinute,
  });
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimitPublicPerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      error: 'Too Many Requests',
      message: `rate limit of ${ctx.max} per minute reached; retry in ${ctx.after}`,
    }),
  });
  await registerOpenApi(app, config);
  const routeDeps: RouteDeps = { ...deps, webAssets: opts.webAssets ?? null };
  const routeConfig = routeConfigOf(config);
  const scoped = (modules: RouteModule[], { prefix, withCors = false }: { prefix?: string; withCors?: boolean }) =>
    app.register(
      async (scope) => {
        if (withCors) await scope.register(cors, { delegator: signerCors });
        for (const routes of modules) routes(typed(scope), routeDeps, routeConfig);
      },
      prefix === undefined ? {} : { prefix },
    );
  await scoped([healthRoutes], {});
  const v1 = (modules: RouteModule[], withCors: boolean) => scoped(modules, { prefix: '/v1', withCors });
  // CORS is decided per request (signerCors), at a cost on each: only the signature-request routes,
  // where a signer's routes live, pay it. The others never answer another origin.
  await v1([tokenRoutes, accountRoutes, anchorRoutes, receiptRoutes, otsRoutes, receiptLogRoutes, userRoutes], false);
  await v1(
    [
      signatureRequestRoutes,
      signatureRequestProofRoutes,
      attestationRoutes,
      documentRoutes,
      signerRoutes,
      sharedRequestRoutes,
      logoRoutes,
      ...extraRoutes,
    ],
    true,
  );
  await scoped([logRoutes], { prefix: '/log' });
  await scoped([webRoutes], {});
  return app;
}

/**
 * The routes a signature page calls with a signer's secret (or a sharing token) in the URL or the body:
 * readable from any origin, so a custom signature page can be hosted anywhere (docs/pages.md, "Hosting a
 * custom signature page"). No credentials are allowed cross-origin: the API has no cookies, and a browser
 * never sends its stored Basic credentials to a `*` origin.
 */
const SIGNER_ACTION =
  /^\/v1\/signatureRequest\/[^/?#]+\/(?:delegate|sign|feedback|otp\/[^/?#]+|shared\/[^?#]+)(?:\?|$)/;
const SIGNER_READ = /^\/v1\/signatureRequest\/[^/?#]+(?:\/audittrail|\/proofbundle|\/file)?\?(?:[^#]*&)?signeeId=/;

function signerCors(req: FastifyRequest, done: (err: Error | null, options?: FastifyCorsOptions) => void): void {
  const url = req.raw.url ?? '';
  const open = SIGNER_ACTION.test(url) || SIGNER_READ.test(url);
  done(null, open ? { origin: '*', methods: ['GET', 'POST'], maxAge: 600 } : { origin: false });
}

/**
 * Bodies are JSON only: Fastify's built-in text/plain parser would hand a string to the schema (a 400),
 * where an unsupported Content-Type is a 415. Text that PostgreSQL cannot hold is refused everywhere.
 */
function refuseNonJsonText(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  registerTextGuard(app);
}

async function registerOpenApi(app: FastifyInstance, config: Pick<ApiConfig, 'publicUrl'>): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'proofseal API',
        version: '1',
        description: 'Seals (signature anchors in Bitcoin, Chainpoint v2 receipts) and signature requests.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: { basic: { type: 'http', scheme: 'basic' }, bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
