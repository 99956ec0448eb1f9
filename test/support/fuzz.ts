/** Shared pieces of the fuzz tests: text the stores cannot hold, and a count of requests per route. */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { basic } from './fixtures.js';

/** U+0000 or a lone UTF-16 surrogate (0xD800–0xDFFF alone is never half of a pair here). */
const malformedChar = fc.oneof(
  fc.constant('\u0000'),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);

/** A string with U+0000 or a lone surrogate somewhere in it. */
export const malformedText = fc
  .tuple(fc.string({ maxLength: 20 }), malformedChar, fc.string({ maxLength: 20 }))
  .map(([a, c, b]) => a + c + b);

/** Any text: printable ASCII, any code point, or malformed. */
export const anyText = (maxLength = 80) =>
  fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'binary', maxLength }), malformedText);

/**
 * Percent-encoded bytes for URLs (URLSearchParams would turn a lone surrogate into U+FFFD): NUL,
 * CESU-8 surrogates, an overlong NUL, an invalid byte.
 */
export const rawEncoded = fc
  .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('%00', '%ED%A0%80', '%ED%B0%80', '%C0%80', '%FF', '%'))
  .map(([a, b]) => encodeURIComponent(a) + b);

/** `METHOD /path/{param}` for a route as the OpenAPI document writes it. */
export const routeKey = (method: string, openApiPath: string) => `${method.toUpperCase()} ${openApiPath}`;

/**
 * Counts the answers given by each route, keyed by {@link routeKey}, so a fuzz test can prove every
 * route was exercised (onSend: it also sees requests refused by an earlier hook). Call before the app
 * is ready.
 */
export function countRouteHits(app: FastifyInstance): Map<string, number> {
  const hits = new Map<string, number>();
  app.addHook('onSend', async (req) => {
    const path = req.routeOptions.url;
    if (path === undefined) return;
    const key = routeKey(req.method, path.replace(/:(\w+)/g, '{$1}'));
    hits.set(key, (hits.get(key) ?? 0) + 1);
  });
  return hits;
}

/** The bytes a lone surrogate would have in (CESU-8 style) UTF-8, percent-encoded. */
function percentSurrogate(c: string): string {
  const u = c.charCodeAt(0);
  return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]
    .map((b) => `%${b.toString(16).toUpperCase()}`)
    .join('');
}

/** encodeURIComponent for any string: it throws on a lone surrogate, which is sent here as its bytes. */
export function encodeAnyText(s: string): string {
  return s
    .split(/(\p{Cs})/u)
    .map((part, i) => (i % 2 === 1 ? percentSurrogate(part) : encodeURIComponent(part)))
    .join('');
}

/** A path parameter: a UUID, any text, a 64-hex string, or raw percent-encoded bytes. */
export const segment = fc.oneof(
  fc.uuid().map(encodeURIComponent),
  anyText().map(encodeAnyText),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
  rawEncoded,
);

/** Field names the routes read, so random bodies reach past "unknown property". */
export const fieldNames = fc.constantFrom(
  'name',
  'hash',
  'signedHash',
  'signature',
  'pubKey',
  'identityURL',
  'callbackURL',
  'public',
  'tags',
  'metadata',
  'firstName',
  'lastName',
  'password',
  'signeeId',
  'state',
  'email',
  'signees',
  'files',
  'title',
  'message',
  'phone',
  'code',
  'redirectURL',
  'deadline',
);

/** Numbers a JSON parser or a database column may choke on, written as JSON text. */
const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '9'.repeat(400),
  '1.7976931348623157e308',
  '9007199254740993',
  '-0',
  '4.9e-324',
  '123456789012345678901234567890',
);

/** A field value: any JSON, any text, a list of texts, or a huge number (kept as JSON text). */
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  anyText().map((s) => JSON.stringify(s)),
  fc.array(anyText(20), { maxLength: 3 }).map((v) => JSON.stringify(v)),
  hugeNumber,
);

/** JSON text of an object with the given fields (values already JSON text). */
const objectText = (fields: [string, string][]) => `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** Keys that would pollute a prototype if a handler merged them into an object. */
const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype');

/** A JSON object body with route field names, malformed keys or prototype keys. */
export const jsonObjectBody = fc.oneof(
  fc.array(fc.tuple(fieldNames, fieldValue), { maxLength: 6 }).map(objectText),
  fc
    .tuple(
      prototypeKey,
      fc.array(fc.tuple(fieldNames, fieldValue), { maxLength: 4 }),
      fc.constantFrom('{"admin":true,"polluted":1}', '{"prototype":{"polluted":1}}', 'null', '1'),
    )
    .map(([k, fields, v]) => objectText([...fields, [k, v]])),
);

/** Any body: JSON of any shape, objects as above, malformed keys, plain text, nothing. */
export const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  jsonObjectBody,
  fc.dictionary(malformedText, fc.string()).map((v) => JSON.stringify(v)),
  hugeNumber,
  fc.string({ maxLength: 200 }),
  fc.constant(''),
);

/** Query parameter names the routes read. */
const queryNames = fc.constantFrom(
  'hash',
  'signedHash',
  'page',
  'size',
  'token',
  'name',
  'signeeId',
  'sort',
  'direction',
  'tags',
  'state',
  'code',
);

/** A query string: texts of any kind, raw bytes, or huge numbers. */
export const query = fc.oneof(
  fc.dictionary(queryNames, anyText(70), { maxKeys: 3 }).map((q) => new URLSearchParams(q).toString()),
  fc.tuple(queryNames, rawEncoded).map(([k, v]) => `${k}=${v}`),
  fc.tuple(queryNames, hugeNumber).map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
);

/** Content types, JSON or not, or none. */
export const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/octet-stream',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  undefined,
);

/** Credentials of a fuzz account: its API token, and its e-mail and password. */
export interface FuzzCredentials {
  token: string;
  email: string;
  password: string;
}

/**
 * Authorization headers: none, valid ones, and wrong ones — unknown token, trailing text, U+0000 or a
 * lone surrogate in the e-mail, other schemes. A wrong password or an unknown e-mail costs the server
 * a password hash (tens of milliseconds): `costlyPercent` sets how many of the headers are such.
 */
export function authHeader(c: FuzzCredentials, costlyPercent = 10): fc.Arbitrary<string | undefined> {
  const cheap = fc.constantFrom<string | undefined>(
    undefined,
    `Bearer ${c.token}`,
    basic(c.email, c.password),
    `Bearer ${c.token} junk`,
    basic(`${c.email}\u0000`, c.password),
    basic('\ud800', 'x'),
    'Bearer nope',
    'Bearer ',
    'Basic !!!',
    'Digest x',
  );
  const costly = fc.constantFrom(basic(c.email, 'wrong password'), 'Basic Zm9vOmJhcg==');
  return fc.oneof({ arbitrary: cheap, weight: 100 - costlyPercent }, { arbitrary: costly, weight: costlyPercent });
}

/** One random request to a route of the OpenAPI document (`{param}` replaced by a segment). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: string | undefined;
}

/** Random requests to `route`: path parameters, query, body, content type and credentials all random. */
export function fuzzRequest(
  route: { method: string; url: string },
  credentials: FuzzCredentials,
  costlyAuthPercent?: number,
): fc.Arbitrary<FuzzRequest> {
  const auth = authHeader(credentials, costlyAuthPercent);
  return fc
    .record({ seg: segment, payload: body, auth, q: query, ct: contentType })
    .map(({ seg, payload, auth, q, ct }) => {
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers.authorization = auth;
      if (ct !== undefined) headers['content-type'] = ct;
      const withBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
      return {
        method: route.method,
        url: route.url.replace(/\{[^}]+\}/g, seg) + '?' + q,
        headers,
        payload: withBody ? payload : undefined,
      };
    });
}

/** The routes of an OpenAPI document, as `{ method, url }` with the document's `{param}` paths. */
export function openApiRoutes(doc: { paths: Record<string, Record<string, unknown>> }) {
  return Object.entries(doc.paths).flatMap(([url, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), url })),
  );
}
