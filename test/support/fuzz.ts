/** Shared pieces of the fuzz tests: text the stores cannot hold, and a count of requests per route. */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { basic } from './fixtures.js';
import { hostilePdfCorpus } from './hostile-pdfs.js';

/** U+0000 or a lone UTF-16 surrogate (0xD800–0xDFFF alone is never half of a pair here). */
const malformedChar = fc.oneof(
  fc.constant('\u0000'),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);

/** A string with U+0000 or a lone surrogate somewhere in it. */
export const malformedText = fc
  .tuple(fc.string({ maxLength: 20 }), malformedChar, fc.string({ maxLength: 20 }))
  .map(([a, c, b]) => a + c + b);

/**
 * Characters of more than one UTF-16 unit or code point, where a cut by `.slice` goes wrong: astral
 * emoji and letters (surrogate pairs), ZWJ sequences, flags, skin tones, letters with combining marks,
 * lone combining marks and joiners, a Thai cluster.
 */
export const GRAPHEME_PIECES = [
  '😀',
  '🎉',
  '𝒜',
  '𠀀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '👨🏽‍💻',
  '🇫🇷',
  '👍🏿',
  'x\u0301',
  'e\u0301\u0323',
  '\u0301',
  '\u0308',
  '\u20dd',
  '\u200d',
  '\ufe0f',
  'ก\u0e31\u0e49',
] as const;

const graphemePiece = fc.constantFrom(...GRAPHEME_PIECES);

/**
 * Well-formed text whose cuts are traps: pieces of {@link GRAPHEME_PIECES} among ASCII, or a run of one
 * piece (a lone combining mark repeated, a row of emoji) after 0–3 ASCII characters, so a cut at any fixed
 * length lands inside a pair or a sequence. At most `maxLength` code points (what the schemas count; the
 * last sequence may be cut short), so a URL built from it stays under the 16 KB the HTTP parser allows.
 */
export const graphemeText = (maxLength = 80) =>
  fc
    .oneof(
      fc
        .array(fc.oneof(graphemePiece, fc.string({ maxLength: 3 })), { maxLength: Math.max(1, maxLength >> 1) })
        .map((parts) => parts.join('')),
      fc
        .tuple(fc.string({ maxLength: 3 }), graphemePiece, fc.integer({ min: 1, max: Math.max(1, maxLength) }))
        .map(([prefix, piece, n]) => prefix + piece.repeat(n)),
    )
    .map((text) => Array.from(text).slice(0, maxLength).join(''));

/** Any text: printable ASCII, any code point, emoji and combining marks (long runs too), or malformed. */
export const anyText = (maxLength = 80) =>
  fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'binary', maxLength }), graphemeText(maxLength), malformedText);

/**
 * The template payloads of issue 21, items 1–4, verbatim: code execution through `$tools.eval`, another
 * tenant's signing link, a shared tool overwritten, and unbounded work and size.
 */
export const TEMPLATE_PAYLOADS = [
  '$tools.urlEncode("x")<p>$tools.eval(\'#set($g = $raw.__lookupGetter__("__proto__"))#set($fp = $g.call($tools.urlEncode))#set($F = $fp.constructor($raw.code))$F.call()\')</p>',
  "$tools.eval('$signatureRequestURL')",
  '#set($tools.urlEncode = "PWNED")',
  '#foreach($i in [1..10000])#foreach($j in [1..10000])#end#end',
  '#set($s="xxxxxxxxxx")#foreach($i in [1..20])#set($s="$s$s")#end$s',
] as const;

/** The `vars` fields that hold templates (subject and content of the mails sent first and most). */
const TEMPLATE_FIELDS = [
  'signatureRequestSigneeEmailSubjectTemplate',
  'signatureRequestSigneeEmailContentTemplate',
  'signatureRequestWatcherEmailSubjectTemplate',
  'signatureConfirmedSigneeEmailContentTemplate',
  'signatureReminderSigneeEmailSubjectTemplate',
] as const;

/** Well-formed hostile text of 1–`max` code points (what the schemas count). */
const hostileText = (max: number) =>
  fc
    .oneof({ arbitrary: graphemeText(max), weight: 3 }, fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }))
    .map((text) => Array.from(text).slice(0, max).join('') || 'x');

/**
 * A `vars` object: template fields holding the payloads above or hostile text, with the `code` variable
 * payload 1 reads, and other variables (the service name, a requester name) of hostile text.
 */
export const templateVars = fc
  .tuple(
    fc.dictionary(
      fc.constantFrom(...TEMPLATE_FIELDS),
      fc.oneof(fc.constantFrom(...TEMPLATE_PAYLOADS), hostileText(300)),
      { maxKeys: 2 },
    ),
    fc.dictionary(fc.constantFrom('serviceName', 'requesterName', 'contractRef'), hostileText(100), { maxKeys: 2 }),
  )
  .map(([templates, others]) => ({ code: 'return process.pid', ...others, ...templates }));

/**
 * A signature request the create route accepts (so its mails are rendered, and subjects, PDF cells and
 * audit events cut): names, file name and signer names of emoji and combining marks up to the schemas'
 * 256 code points, and `vars` with the template payloads.
 */
export const signatureRequestBody = fc
  .record(
    {
      name: hostileText(256),
      hashToSign: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
      fileName: hostileText(256),
      vars: templateVars,
      authorizedSignees: fc.uniqueArray(
        fc.record(
          { commonName: hostileText(256), email: fc.nat(999).map((n) => `signer${n}@example.com`), vars: templateVars },
          { requiredKeys: ['commonName', 'email'] },
        ),
        { minLength: 1, maxLength: 3, selector: (signer) => signer.email },
      ),
    },
    { requiredKeys: ['name', 'hashToSign', 'authorizedSignees'] },
  )
  .map((b) => JSON.stringify(b));

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
    // A wildcard route (`/log/tile/*`) is `{*}` in the OpenAPI document.
    const key = routeKey(req.method, path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}'));
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
  'vars',
  'fileName',
  'commonName',
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

/** A field value: any JSON, any text, a list of texts, a huge number (kept as JSON text), or template vars. */
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  anyText().map((s) => JSON.stringify(s)),
  fc.array(anyText(20), { maxLength: 3 }).map((v) => JSON.stringify(v)),
  hugeNumber,
  templateVars.map((v) => JSON.stringify(v)),
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

/**
 * Any body: JSON of any shape, objects as above, a valid signature request, malformed keys, plain text, the hostile
 * PDFs of issue 32 (hostile-pdfs.ts: an upload route takes them as the file), nothing.
 */
export const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  signatureRequestBody,
  jsonObjectBody,
  fc.dictionary(malformedText, fc.string()).map((v) => JSON.stringify(v)),
  hugeNumber,
  fc.string({ maxLength: 200 }),
  fc.constantFrom(...hostilePdfCorpus().map((pdf) => pdf.toString('latin1'))),
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
  // The create route gets mostly bodies it accepts, so the mails of hostile requests are rendered.
  const creates = route.method === 'POST' && route.url === '/v1/signatureRequest';
  const payloads = creates ? fc.oneof({ arbitrary: signatureRequestBody, weight: 3 }, body) : body;
  return fc
    .record({ seg: segment, payload: payloads, auth, q: query, ct: contentType })
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
