import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, RetryLaterError } from '../../core/errors.js';
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

function classify(err: FastifyError): [number, string, string] {
  if (err instanceof DomainError) return [STATUS_OF[err.code], err.code, err.message];
  const known = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (known) return [known[0], known[1], err.message];
  if (err.validation) return [400, 'VALIDATION_FAILED', err.message];
  if (err instanceof SyntaxError || err.statusCode === 400) return [400, 'BAD_REQUEST', err.message];
  if (err.statusCode === 429) return [429, 'RATE_LIMITED', err.message];
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    return [err.statusCode, 'BAD_REQUEST', err.message];
  return [500, 'INTERNAL', 'Internal error; the request id identifies it in the logs'];
}

/** The one error shape for every failure; a 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const [status, code, message] = classify(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code, status }, message);
    if (err instanceof RetryLaterError) void reply.header('retry-after', String(err.retryAfterSeconds));
    void reply.status(status).send(errorBody(status, code, message));
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send(errorBody(404, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
}
