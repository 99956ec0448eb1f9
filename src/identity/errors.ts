/**
 * The identity server's error shape: the same `{statusCode, code, error, message}` as the API
 * (docs/errors.md). The identity server may not import `src/http/`, so the few codes it can meet are
 * mapped here again; any other error is a 500 that shows nothing of its cause.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, type ErrorCode } from '../core/errors.js';

const STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400, VALIDATION_FAILED: 400, INVALID_HASH: 400, INVALID_PUBKEY: 400, INVALID_URL: 400,
  UNAUTHORIZED: 401, FORBIDDEN: 403, KEY_REVOKED: 403, KEY_EXPIRED: 403, NOT_FOUND: 404, RATE_LIMITED: 429,
};
const REASON: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error',
};

export function errorBody(statusCode: number, code: string, message: string) {
  return { statusCode, code, error: REASON[statusCode] ?? 'Error', message };
}

function classify(err: FastifyError): [number, string, string] {
  const status = err instanceof DomainError ? STATUS[err.code] : undefined;
  if (err instanceof DomainError && status !== undefined) return [status, err.code, err.message];
  if (err.validation) return [400, 'VALIDATION_FAILED', err.message];
  if (err.statusCode === 429) return [429, 'RATE_LIMITED', err.message];
  if (!(err instanceof DomainError) && err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return [err.statusCode, 'BAD_REQUEST', err.message];
  return [500, 'INTERNAL', 'Internal error; the request id identifies it in the logs'];
}

export function registerIdentityErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const [status, code, message] = classify(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code, status }, message);
    void reply.status(status).send(errorBody(status, code, message));
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send(errorBody(404, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
}
