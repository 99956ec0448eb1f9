/** Logs never contain passwords, tokens or signer secrets, whatever route carries them. */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { createAccount } from '../../src/app/accounts/create-account.js';
import { createApiToken } from '../../src/app/accounts/manage-api-tokens.js';
import { buildApp } from '../../src/http/app.js';
import { basic, testConfig, testDeps } from '../support/fixtures.js';
import { storeKinds } from '../support/stores.js';

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
