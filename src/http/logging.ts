import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stdSerializers, type Logger, type LoggerOptions } from 'pino';

/**
 * Query parameter names (lower-cased, only letters and digits kept) whose values are secrets. A name is read
 * in its parts (`signeeId[]`, `a[signeeId]`, `a.signeeId`): any part that says secret makes the value one.
 */
const SECRET_PARAM = /^(?:.*(?:token|secret|password|passwd|apikey|signeeid|signerid)|otp|code|key)$/;

/**
 * Path segments followed by secrets: the signeeId of `…/otp/{signeeId}`, the sharing token of
 * `…/shared/{token}` (API) and of `/share/{id}/{token}` (the sharing page): how many segments on is the secret.
 * Empty segments are not counted (`/share/{id}//{token}` reaches the same route).
 */
const SECRET_AFTER_SEGMENT: Readonly<Record<string, number>> = { otp: 1, shared: 1, share: 2 };

/**
 * The shape of every secret the service issues in a URL: signeeIds, sharing tokens (43 base64url characters,
 * 256 bits). A run of exactly 43 such characters between two characters that are not, anywhere in a decoded
 * path segment, parameter name or value, is masked whatever surrounds it: a path shape or a parameter
 * spelling nobody listed still keeps its secret out of the logs.
 */
const TOKEN_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const HAS_TOKEN_RUN = new RegExp(TOKEN_RUN.source);

/**
 * A URL with no query, no fragment and no percent-escape, none of whose segments is one of
 * {@link SECRET_AFTER_SEGMENT} (in any case, as redactPath compares them) nor holds a secret-shaped run, is
 * logged as it is: redactAt would split it, find nothing to open and join it again (at LOG_LEVEL=info, ~2.5 %
 * of an anchor's CPU: the URL goes into two lines per request).
 */
const PLAIN_URL = /^[^?#%]*$/;
const SECRET_SEGMENT = new RegExp(`(?:^|/)(?:${Object.keys(SECRET_AFTER_SEGMENT).join('|')})(?:/|$)`, 'i');

/** How deep a value is opened (each level: percent-decoded once, read as a URL or a query). */
const MAX_NESTING = 6;

const REDACTED = '[redacted]';

/** The message of the one access line per request (see {@link AccessLogController}). */
const ACCESS = 'request completed';

/**
 * The URL as it goes into the logs: the secrets of the query and of the path replaced by `[redacted]`, at
 * any nesting. The URL is parsed, not searched: each parameter named as a secret is masked, and every
 * other parameter's value, whatever its name (`signatureRequestURL=`, a custom page's `srURL=`), is
 * percent-decoded and redacted as a URL in its own right, down to {@link MAX_NESTING} levels of encoding;
 * a pair without `=` (`signeeId%3D…`) is opened the same way. Whatever the structure, a secret-shaped run
 * ({@link TOKEN_RUN}) in a decoded segment, name or value is masked too. A value that held a secret is
 * written back encoded as it came; the others are kept byte for byte.
 */
export function redactUrl(url: string): string {
  return PLAIN_URL.test(url) && !SECRET_SEGMENT.test(url) && !HAS_TOKEN_RUN.test(url) ? url : redactAt(url, 0);
}

function redactAt(url: string, depth: number): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : `#${redactValue(url.slice(hashAt + 1), depth)}`;
  const queryAt = beforeHash.indexOf('?');
  if (queryAt < 0 && depth > 0 && !beforeHash.includes('/') && beforeHash.includes('='))
    return redactQuery(beforeHash, depth) + fragment;
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : `?${redactQuery(beforeHash.slice(queryAt + 1), depth)}`;
  return redactPath(path, depth) + query + fragment;
}

/**
 * The path with its secret segments masked (counted past empty segments); a segment that is itself encoded
 * is opened like a value, and any other has its secret-shaped runs masked.
 */
function redactPath(path: string, depth: number): string {
  const segments = path.split('/');
  const secret = new Set<number>();
  segments.forEach((segment, i) => {
    const ahead = SECRET_AFTER_SEGMENT[safeDecode(segment).toLowerCase()];
    if (ahead !== undefined) secret.add(nonEmptyAfter(segments, i, ahead));
  });
  return segments
    .map((segment, i) =>
      secret.has(i) ? REDACTED : isEncoded(segment) ? redactValue(segment, depth) : maskTokens(segment),
    )
    .join('/');
}

/** The index of the `ahead`-th non-empty segment after `i` (past the end when there is none). */
function nonEmptyAfter(segments: readonly string[], i: number, ahead: number): number {
  let seen = 0;
  for (let j = i + 1; j < segments.length; j += 1) if (segments[j] !== '' && ++seen === ahead) return j;
  return segments.length;
}

function redactQuery(query: string, depth: number): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return redactValue(pair, depth);
      const name = pair.slice(0, eq);
      const value = isSecretName(name) ? REDACTED : redactValue(pair.slice(eq + 1), depth);
      return `${redactValue(name, depth)}=${value}`;
    })
    .join('&');
}

/** True when a part of the parameter's decoded name (`signeeId`, `signee_id[]`, `a[signeeId]`) says secret. */
function isSecretName(name: string): boolean {
  return safeDecode(name.replace(/\+/g, ' '))
    .toLowerCase()
    .split(/[[\].]/)
    .some((part) => SECRET_PARAM.test(part.replace(/[^a-z0-9]/g, '')));
}

/** A parameter's raw value, decoded and redacted as a URL of its own; unchanged when it held no secret. */
function redactValue(raw: string, depth: number): string {
  if (depth >= MAX_NESTING) return isEncoded(raw) || /[/?=&]/.test(raw) ? REDACTED : maskTokens(raw);
  const decoded = safeDecode(raw.replace(/\+/g, ' '));
  const redacted = redactAt(decoded, depth + 1);
  return redacted === decoded ? raw : encodeURIComponent(redacted);
}

function maskTokens(text: string): string {
  return text.replace(TOKEN_RUN, REDACTED);
}

function isEncoded(text: string): boolean {
  return safeDecode(text) !== text;
}

/**
 * Percent-decoding that never throws: a run of escapes that is not UTF-8 has its ASCII escapes decoded
 * one by one (so `%3D`, `%26`, `%2F` still open the structure around a stray byte) and the rest left as is.
 */
function safeDecode(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    }
  });
}

/**
 * The transport module of a terminal (adapters/log/terminal-log.ts, loaded by pino's transport worker), beside this
 * file's own: `.js` in dist/, `.ts` when the sources run through tsx.
 */
const TERMINAL_LOG = fileURLToPath(
  new URL(`../adapters/log/terminal-log${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/**
 * Where the logs go: on a terminal, one readable line per entry (a request: `GET /health 200 1.3 ms`) through
 * pino-pretty, loaded only then, in pino's transport worker; elsewhere (a pipe, a file, a log collector, the
 * tests) one JSON object per line on stdout, every field kept.
 */
export function logTransport({ pretty = process.stdout.isTTY === true }: { readonly pretty?: boolean } = {}): Pick<
  LoggerOptions,
  'transport'
> {
  if (!pretty) return {};
  return {
    transport: { target: TERMINAL_LOG, options: { translateTime: 'SYS:HH:MM:ss.l', accessMessage: ACCESS } },
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

/**
 * One access line per request instead of Fastify's two: "request completed" carries the request (method,
 * URL redacted by the req serializer, remote address, id), the status and the response time; the
 * "incoming request" line is written at debug only (it shows a request whose answer never comes). The
 * request id stays in every line (`reqId`) and in the `x-request-id` header.
 *
 * The access line goes through a child of the app's logger without the redaction paths: every field of it
 * is already safe (the id is checked or generated, the URL redacted, no header, body or credential is
 * serialized), and the generic wildcard paths (`*.password`, …) cost ~7 µs a line. At info, the service's
 * default, the two lines through the redaction cost ~19 µs of CPU per request, this one line ~8.
 */
class AccessLogController extends LogController {
  #access: FastifyBaseLogger | undefined;

  /** Writes the access lines through `log` (the app's logger), its redaction left out. */
  attach(log: FastifyBaseLogger): void {
    this.#access = (log as Logger).child({}, { redact: { paths: [] } });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    else if (this.#access) this.#access.info({ reqId: request.id, req: request, res: reply, responseTime }, ACCESS);
    else reply.log.info({ req: request, res: reply, responseTime }, ACCESS);
  }
}

/**
 * One access line per request (see {@link AccessLogController}): `options` go to Fastify, `attach` is called
 * with the app's logger once the app exists.
 */
export function accessLog(): { options: { logController: LogController }; attach(log: FastifyBaseLogger): void } {
  const controller = new AccessLogController();
  return { options: { logController: controller }, attach: (log) => controller.attach(log) };
}

/** The options of every logger of the service; `pretty` as in `logTransport` (never with a given stream). */
export function loggerOptions(level: string, { pretty }: { readonly pretty?: boolean } = {}): LoggerOptions {
  return {
    level,
    ...logTransport(pretty === undefined ? {} : { pretty }),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.signeeId',
        '*.signerSecret',
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
