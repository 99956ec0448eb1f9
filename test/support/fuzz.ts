/** Shared pieces of the fuzz tests: text the stores cannot hold, and a count of requests per route. */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';

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
