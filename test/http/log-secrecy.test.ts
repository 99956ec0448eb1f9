/** Logs never contain passwords, tokens or signer secrets, whatever route carries them. */
import assert from 'node:assert/strict';
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
