import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { DomainError, RateLimitedError, RetryLaterError } from '../../core/errors.js';
import { errorBody, STATUS_OF } from '../error-codes.js';

/** Fastify's own error codes for bad input, mapped to our stable codes. */
const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'BAD_REQUEST'],
  FST_ERR_VALIDATION: [400, 'VALIDATION_FAILED'],
  FST_ERR_RATE_LIMIT: [429, 'RATE_LIMITED'],
};

/** Socket errors of a lost or refused database connection. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
/** PostgreSQL states of a server that is away: shutting down, starting, out of connections. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What `pg`'s pool and PGlite say when their connection is gone. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed)/;

/** Seconds a client is asked to wait when the store cannot be reached (a primary restarting, or being replaced). */
const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * True when the error says the store (or another server) cannot be reached, not that the request was
 * wrong: the answer is then 503 STORE_UNAVAILABLE with `Retry-After`, as `/ready` says, not a 500. Nothing
 * was acknowledged: the request's transaction did not commit, or its answer was never sent.
 */
export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code))) return true;
  if (typeof code === 'string' && code.startsWith('08')) return true;
  if (UNAVAILABLE_MESSAGE.test(err.message)) return true;
  return err instanceof AggregateError && err.errors.some(isUnavailable);
}

function classify(err: FastifyError): [number, string, string] {
  if (err instanceof DomainError) return [STATUS_OF[err.code], err.code, err.message];
  if (isUnavailable(err))
    return [503, 'STORE_UNAVAILABLE', 'the service cannot reach its database right now; retry later'];
  const known = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (known) return [known[0], known[1], err.message];
  if (err.validation) return [400, 'VALIDATION_FAILED', err.message];
  if (err instanceof SyntaxError || err.statusCode === 400) return [400, 'BAD_REQUEST', err.message];
  if (err.statusCode === 429) return [429, 'RATE_LIMITED', err.message];
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    return [err.statusCode, 'BAD_REQUEST', err.message];
  return [500, 'INTERNAL', 'Internal error; the request id identifies it in the logs'];
}

/**
 * Server options for errors Fastify raises before a route is found (a URL that is not valid
 * percent-encoded UTF-8, `FST_ERR_BAD_URL`): the one error shape there too, not Fastify's own code.
 */
export function frameworkErrorOptions(): Pick<FastifyServerOptions, 'frameworkErrors'> {
  return {
    frameworkErrors: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      const message = err.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid percent-encoded UTF-8' : err.message;
      req.log.info({ code: 'BAD_REQUEST', fastifyCode: err.code }, message);
      // No hook ran for it, so the request id is set here.
      void reply
        .header('x-request-id', req.id)
        .status(400)
        .send(errorBody(400, 'BAD_REQUEST', message));
    },
  };
}

/** The one error shape for every failure; a 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const [status, code, message] = classify(err);
    if (err instanceof RateLimitedError) void reply.header('retry-after', err.retryAfterSeconds);
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code, status }, message);
    if (err instanceof RetryLaterError) void reply.header('retry-after', String(err.retryAfterSeconds));
    if (code === 'STORE_UNAVAILABLE') void reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    void reply.status(status).send(errorBody(status, code, message));
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send(errorBody(404, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
}
