/**
 * The URL redaction of the logs (src/http/logging.ts) over secret-shaped values placed anywhere: the malformed
 * forms issue 32 found leaking (row 10) and a property over random placements, spellings and encodings. A
 * secret is 43 base64url characters (a signeeId, a sharing token); after redaction it is in no decoding of
 * the logged URL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redactUrl } from '../../../src/http/logging.js';

const newToken = () => randomBytes(32).toString('base64url');

/** Every percent-decoding of the text, down to where nothing changes (a malformed escape left as it is). */
function decodings(text: string): string[] {
  const seen = [text];
  for (let i = 0; i < 10; i += 1) {
    const next = seen[seen.length - 1]!.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.replace(/%[0-7][0-9a-f]/gi, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));
      }
    });
    if (next === seen[seen.length - 1]) break;
    seen.push(next.replace(/\+/g, ' '), next);
  }
  return seen;
}

function assertHidden(url: string, token: string): void {
  const logged = redactUrl(url);
  for (const form of decodings(logged))
    assert.ok(!form.includes(token), `the secret is in the log line: ${url} → ${logged}`);
  assert.ok(logged.includes('redacted'), `the secret is shown masked: ${logged}`);
}

const MALFORMED: [form: string, url: (t: string) => string][] = [
  ['sharing page, doubled slash', (t) => `/share/0f0e0d//${t}`],
  ['sharing page, doubled slashes on both sides', (t) => `//share//0f0e0d//${t}/`],
  ['OTP path, doubled slash', (t) => `/v1/signatureRequest/0f0e0d/otp//${t}`],
  ['shared path, doubled slash', (t) => `/v1/signatureRequest/0f0e0d/shared//${t}/file`],
  ['encoded equals sign', (t) => `/v1/signatureRequest/0f0e0d?signeeId%3D${t}`],
  ['encoded equals sign after another pair', (t) => `/v1/signatureRequest/0f0e0d?lang=en&signeeId%3d${t}`],
  ['bracketed name', (t) => `/v1/signatureRequest/0f0e0d?signeeId[]=${t}`],
  ['encoded brackets', (t) => `/v1/signatureRequest/0f0e0d?signeeId%5B%5D=${t}`],
  ['indexed name', (t) => `/v1/signatureRequest/0f0e0d?signeeId[0]=${t}`],
  ['nested name', (t) => `/v1/signatureRequest/0f0e0d?a[signeeId]=${t}`],
  ['repeated name', (t) => `/v1/signatureRequest/0f0e0d?signeeId=x&signeeId=${t}`],
  ['escaped letter in the name', (t) => `/v1/signatureRequest/0f0e0d?signee%49d=${t}`],
  ['unknown name', (t) => `/v1/signatureRequest/0f0e0d?s=${t}`],
  ['bare value', (t) => `/v1/signatureRequest/0f0e0d?${t}`],
  ['semicolon separator', (t) => `/v1/signatureRequest/0f0e0d?lang=en;signeeId=${t}`],
  ['token as an unlisted segment', (t) => `/v1/signatureRequest/0f0e0d/view/${t}`],
  ['token with escaped letters', (t) => `/share/0f0e0d/x/%${t.charCodeAt(0).toString(16)}${t.slice(1)}`],
  ['encoded slash before the token', (t) => `/v1/signatureRequest/0f0e0d/otp/%2F${t}`],
  ['fragment', (t) => `/sign#signeeId=${t}`],
  [
    'signing link, encoded equals sign',
    (t) => `/sign?signatureRequestURL=${encodeURIComponent(`https://x/v1/signatureRequest/1?signeeId%3D${t}`)}`,
  ],
];

describe('log redaction of malformed secret URLs (issue 32, row 10)', () => {
  for (const [form, url] of MALFORMED)
    it(`masks the secret: ${form}`, () => {
      const token = newToken();
      assertHidden(url(token), token);
    });

  it('keeps what is not secret-shaped: the route, a UUID, a 64-hex hash, a 42- or 44-character run', () => {
    const kept = [
      '/v1/anchor/0d9f0e6e-2c33-4a57-9d0e-5f3b1c9a7e21',
      `/v1/receipt/${'ab'.repeat(32)}`,
      `/v1/x/${'a'.repeat(42)}`,
      `/v1/x/${'a'.repeat(44)}`,
      '/sign?lang=fr',
    ];
    for (const url of kept) assert.equal(redactUrl(url), url);
  });
});

/** Path pieces around the secret; none glues base64url characters to it. */
const SEGMENTS = ['v1', 'signatureRequest', '0f0e0d', 'otp', 'OTP', 'share', 'shared', 'file', '', '.', '../..', 'x y'];
/** Parameter names, listed or not, in several spellings. */
const NAMES = ['signeeId', 'SIGNEEID', 'signee_id', 'signeeId[]', 'signeeId[0]', 'a[signeeId]', 'srURL', 'q', 'x.y'];

/** The text percent-encoded `times` times, each time either encodeURIComponent or every character escaped. */
const encoded = (text: string, times: number, full: boolean): string => {
  let out = text;
  for (let i = 0; i < times; i += 1)
    out = full
      ? [...Buffer.from(out, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
      : encodeURIComponent(out);
  return out;
};

/** Where the secret goes: a path segment, a parameter's value, a bare pair, a name, inside a nested link. */
const placement = fc.record({
  where: fc.constantFrom('segment', 'value', 'bare', 'name', 'nested', 'fragment'),
  before: fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 5 }),
  after: fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }),
  name: fc.constantFrom(...NAMES),
  separator: fc.constantFrom('=', '%3D', '%3d', '%253D'),
  params: fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('en', '1', '', 'a%20b')), { maxLength: 3 }),
  times: fc.integer({ min: 0, max: 3 }),
  full: fc.boolean(),
});

type Placement = typeof placement extends fc.Arbitrary<infer T> ? T : never;

function urlWith(token: string, p: Placement): string {
  const path = (middle: string) => `/${[...p.before, middle, ...p.after].join('/')}`;
  const others = p.params.map(([n, v]) => `${n}=${v}`);
  const query = (pair: string) => `?${[...others, pair].join('&')}`;
  const piece = encoded(token, p.times, p.full);
  switch (p.where) {
    case 'segment':
      return path(piece);
    case 'value':
      return path('x') + query(`${p.name}=${piece}`);
    case 'bare':
      return path('x') + query(encoded(`${p.name}${p.separator}${token}`, p.times, p.full));
    case 'name':
      return path('x') + query(`${piece}=1`);
    case 'nested':
      return `/sign${query(`${p.name}=${encoded(`https://h${path('x')}?${p.name}${p.separator}${token}`, p.times + 1, p.full)}`)}`;
    default:
      return `${path('x')}#${p.name}${p.separator}${piece}`;
  }
}

describe('log redaction, property: a secret-shaped value anywhere, any spelling and encoding', () => {
  it('is in no decoding of the logged URL', () => {
    fc.assert(
      fc.property(placement, fc.uint8Array({ minLength: 32, maxLength: 32 }), (p, bytes) => {
        const token = Buffer.from(bytes).toString('base64url');
        assertHidden(urlWith(token, p), token);
      }),
      { numRuns: 2000 },
    );
  });
});
