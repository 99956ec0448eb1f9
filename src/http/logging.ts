import type { FastifyRequest } from 'fastify';
import { stdSerializers, type LoggerOptions } from 'pino';

/** Query parameters that carry secrets; their values never reach the logs. */
const SECRET_PARAMS = /([?&](?:token|signeeId|otp|password|apiKey)=)[^&]*/gi;

/** Path segments that carry secrets: the signeeId of `GET /v1/signatureRequest/{id}/otp/{signeeId}`. */
const SECRET_SEGMENTS = /(\/otp\/)[^/?#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(SECRET_SEGMENTS, '$1[redacted]');
}

/**
 * Where the logs go: on a terminal, readable lines through pino-pretty (loaded only then, in pino's transport
 * worker); elsewhere (a pipe, a file, a log collector, the tests) one JSON object per line on stdout.
 */
export function logTransport(pretty = process.stdout.isTTY === true): Pick<LoggerOptions, 'transport'> {
  if (!pretty) return {};
  return {
    transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
  };
}

/**
 * Errors as pino writes them, minus `rawPacket`: Node's HTTP parser attaches the bytes it refused
 * (headers, Authorization included) to client errors such as a 431, which Fastify logs at trace.
 */
function errorWithoutRawPacket(err: Error): object {
  const serialized = { ...stdSerializers.err(err) };
  delete serialized.rawPacket;
  return serialized;
}

/** The options of every logger of the service; `pretty` as in `logTransport` (never with a given stream). */
export function loggerOptions(level: string, pretty?: boolean): LoggerOptions {
  return {
    level,
    ...logTransport(pretty),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.signeeId',
        '*.otp',
        '*.token',
        '*.rawPacket',
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: errorWithoutRawPacket,
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
        id: req.id,
      }),
    },
  };
}
