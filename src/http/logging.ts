import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query parameters that carry secrets; their values never reach the logs. */
const SECRET_PARAMS = /([?&](?:token|signeeId|otp|password|apiKey)=)[^&]*/gi;

/** Path segments that carry secrets: the signeeId of `GET /v1/signatureRequest/{id}/otp/{signeeId}`. */
const SECRET_SEGMENTS = /(\/otp\/)[^/?#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(SECRET_SEGMENTS, '$1[redacted]');
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.signeeId', '*.otp', '*.token'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
        id: req.id,
      }),
    },
  };
}
