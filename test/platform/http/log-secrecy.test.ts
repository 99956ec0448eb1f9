// tier: slow (over 10 s of tests)
/** Logs never contain passwords, tokens or signer secrets, whatever route carries them. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { buildApp } from '../../../src/http/app.js';
import type { WebAssets } from '../../../src/http/routes/web/web.route.js';
import { basic, testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const [embedded] = await storeKinds();

describe('log secrecy', () => {
  it('no credential appears in the logs at trace level', async () => {
    const s = await embedded!.open();
    const lines: string[] = [];
    const deps = testDeps(s.store);
    const app = await buildApp({ ...deps, readiness: {} }, testConfig({ LOG_LEVEL: 'trace' }), [], {
      logStream: {
        write: (l) => {
          lines.push(l);
        },
      },
    });
    const password = 'secret-password-123';
    const account = await createAccount(deps, { email: 'log@example.com', password });
    const { token } = await createApiToken(deps, { accountId: account.id });
    await app.inject({
      method: 'GET',
      url: '/v1/tokens',
      headers: { authorization: basic('log@example.com', password) },
    });
    await app.inject({
      method: 'GET',
      url: '/v1/tokens',
      headers: { authorization: basic('log@example.com', 'wrong-password-456') },
    });
    await app.inject({
      method: 'DELETE',
      url: `/v1/token?token=${token}`,
      headers: { authorization: `Bearer ${token}` },
    });
    await app.inject({ method: 'GET', url: '/v1/signatureRequest/x?signeeId=signee-secret-789' });
    await app.inject({
      method: 'PUT',
      url: '/v1/user',
      headers: { authorization: `Bearer ${token}` },
      payload: { password: { current: password, next: 'next-password-000' } },
    });
    await app.close();
    await s.destroy();
    const all = lines.join('');
    assert.ok(lines.length > 5, 'something was logged');
    assert.ok(all.includes('/v1/token?token=[redacted]'), 'the URL is logged with the secret masked');
    for (const secret of [
      password,
      'wrong-password-456',
      token,
      'signee-secret-789',
      'next-password-000',
      Buffer.from(`log@example.com:${password}`).toString('base64'),
    ]) {
      assert.ok(!all.includes(secret), `a secret leaked into the logs: ${secret.slice(0, 6)}…`);
    }
  });
});

/** Pages without a built bundle: enough for `/sign` and `/share/{id}/{token}` to be routes that answer. */
const PAGES: WebAssets = {
  script: '/assets/page.js',
  style: '/assets/page.css',
  scripts: new Map([
    ['sign-page.js', '/assets/sign.js'],
    ['share-page.js', '/assets/share.js'],
  ]),
  files: new Map(),
};

/** A signer's link as invitations carry it, its secret `secret`. */
const signerLink = (secret: string) => `https://proofseal.example/v1/signatureRequest/0f0e0d?signeeId=${secret}`;
const once = encodeURIComponent;
const twice = (text: string) => once(once(text));

/** Each form a signer secret takes in a request URL, with the path the log must still show. */
const SECRET_FORMS: [form: string, url: (secret: string) => string, logged: string][] = [
  ['plain query', (s) => `/v1/signatureRequest/0f0e0d?signeeId=${s}`, '/v1/signatureRequest/0f0e0d?signeeId='],
  ['encoded link', (s) => `/sign?signatureRequestURL=${once(signerLink(s))}`, '/sign?signatureRequestURL=https%3A'],
  ['double-encoded link', (s) => `/sign?signatureRequestURL=${twice(signerLink(s))}`, '/sign?signatureRequestURL='],
  ['custom parameter', (s) => `/sign?lang=en&srURL=${once(signerLink(s))}`, '/sign?lang=en&srURL=https%3A'],
  [
    'custom parameter, sharing link',
    (s) => `/sign?srURL=${once(`https://proofseal.example/v1/signatureRequest/0f0e0d/shared/${s}`)}`,
    '/sign?srURL=https%3A',
  ],
  ['OTP path', (s) => `/v1/signatureRequest/0f0e0d/otp/${s}`, '/v1/signatureRequest/0f0e0d/otp/'],
  ['sharing path', (s) => `/v1/signatureRequest/0f0e0d/shared/${s}/file`, '/v1/signatureRequest/0f0e0d/shared/'],
  ['sharing page', (s) => `/share/0f0e0d/${s}`, '/share/0f0e0d/'],
  // Plain paths (no query, no escape) are logged without being parsed unless a segment names a secret, in any case.
  ['OTP path, upper case', (s) => `/v1/signatureRequest/0f0e0d/OTP/${s}`, '/v1/signatureRequest/0f0e0d/OTP/'],
  ['sharing page, mixed case', (s) => `/Share/0f0e0d/${s}`, '/Share/0f0e0d/'],
  [
    'sharing path, last segment',
    (s) => `/v1/signatureRequest/0f0e0d/sHaReD/${s}`,
    '/v1/signatureRequest/0f0e0d/sHaReD/',
  ],
];

describe('log secrecy of signer secrets inside URLs, in every form', () => {
  for (const level of ['info', 'trace']) {
    it(`at ${level} level (info is the default) no form of a signer secret reaches the logs`, async () => {
      const s = await embedded!.open();
      const lines: string[] = [];
      const app = await buildApp({ ...testDeps(s.store), readiness: {} }, testConfig({ LOG_LEVEL: level }), [], {
        logStream: { write: (l) => void lines.push(l) },
        webAssets: PAGES,
      });
      try {
        for (const [form, url, logged] of SECRET_FORMS) {
          const secret = randomBytes(16).toString('hex');
          const before = lines.length;
          await app.inject({ method: 'GET', url: url(secret) });
          const written = lines.slice(before).join('');
          assert.ok(written.includes(`"url":"${logged}`), `${form}: the route is logged (${written.slice(0, 300)})`);
          assert.ok(written.includes('redacted'), `${form}: the secret is shown masked`);
          for (const leak of [secret, secret.slice(0, 12), secret.slice(-12)])
            assert.ok(!written.includes(leak), `${form}: the secret leaked into the logs: ${written}`);
        }
      } finally {
        await app.close();
        await s.destroy();
      }
    });
  }
});

/** The malformed forms of issue 32 (row 10), each with a secret of the real shape (43 base64url characters). */
const MALFORMED_FORMS: [form: string, url: (secret: string) => string, logged: string][] = [
  ['sharing page, doubled slash', (s) => `/share/0f0e0d//${s}`, '/share/0f0e0d//'],
  ['OTP path, doubled slash', (s) => `/v1/signatureRequest/0f0e0d/otp//${s}`, '/v1/signatureRequest/0f0e0d/otp//'],
  ['encoded equals sign', (s) => `/v1/signatureRequest/0f0e0d?signeeId%3D${s}`, '/v1/signatureRequest/0f0e0d?'],
  ['bracketed name', (s) => `/v1/signatureRequest/0f0e0d?signeeId[]=${s}`, '/v1/signatureRequest/0f0e0d?signeeId[]='],
];

describe('log secrecy of malformed secret URLs (issue 32)', () => {
  for (const level of ['info', 'debug']) {
    it(`at ${level} level the secret of a malformed URL reaches no log line`, async () => {
      const s = await embedded!.open();
      const lines: string[] = [];
      const app = await buildApp({ ...testDeps(s.store), readiness: {} }, testConfig({ LOG_LEVEL: level }), [], {
        logStream: { write: (l) => void lines.push(l) },
        webAssets: PAGES,
      });
      try {
        for (const [form, url, logged] of MALFORMED_FORMS) {
          const secret = randomBytes(32).toString('base64url');
          const before = lines.length;
          await app.inject({ method: 'GET', url: url(secret) });
          const written = lines.slice(before).join('');
          assert.ok(written.includes(`"url":"${logged}`), `${form}: the route is logged (${written.slice(0, 300)})`);
          for (const leak of [secret, secret.slice(0, 12), secret.slice(-12)])
            assert.ok(!written.includes(leak), `${form}: the secret leaked into the logs: ${written}`);
        }
      } finally {
        await app.close();
        await s.destroy();
      }
    });
  }
});

/** Writes a raw HTTP request to the server and resolves with the first line of its answer. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('log secrecy of requests the HTTP parser refuses', () => {
  it('a request with over 16 KB of headers (431) leaves no header in the logs at trace level', async () => {
    const s = await embedded!.open();
    const lines: string[] = [];
    const app = await buildApp({ ...testDeps(s.store), readiness: {} }, testConfig({ LOG_LEVEL: 'trace' }), [], {
      logStream: { write: (l) => void lines.push(l) },
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      const secret = 'bearer-secret-in-a-huge-request';
      const status = await rawRequest(
        port,
        `GET /v1/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`,
      );
      assert.match(status, /^HTTP\/1\.1 431/);
      const all = lines.join('');
      assert.ok(all.includes('client header_overflow'), 'the refusal is logged at trace level');
      // pino writes a Buffer as {"type":"Buffer","data":[71,69,84,…]}: look for the bytes too.
      for (const leak of [secret, [...Buffer.from(secret)].join(','), 'p'.repeat(100), '112,'.repeat(100)])
        assert.ok(!all.includes(leak), `the request's bytes leaked into the logs: ${leak.slice(0, 12)}…`);
      assert.ok(!all.includes('rawPacket'), 'a raw packet reached the logs');
    } finally {
      await app.close();
      await s.destroy();
    }
  });
});
