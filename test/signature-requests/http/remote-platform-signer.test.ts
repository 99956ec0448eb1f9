// tier: slow (measured: 14.7 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Signing by delegation with a remote identity server as the platform signer (PLATFORM_IDENTITY_URL): a
 * real identity server on a loopback port, called over HTTP, whose `/sign` the tests can hold. The server
 * is never called under the request's lock, and what may change while it signs is checked again under the
 * lock. Both stores.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { httpSigner } from '../../../src/adapters/identity/http-signer.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import { createIdentityToken } from '../../../src/app/identity/create-identity-token.js';
import type { PlatformSigner } from '../../../src/app/signature-requests/platform-signer.port.js';
import { listSmsOutbox } from '../../../src/app/sms/list-sms-outbox.js';
import { verifySignedMessage } from '../../../src/core/bitcoin/signed-message.js';
import { messageToSign } from '../../../src/core/identity/identity-message.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { realRandom, TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { storeKinds, type StoreKind } from '../../support/stores.js';
import { createRequest, delegate, getRequest, openBench, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();

const otpSigner = {
  commonName: 'Olga',
  email: 'olga@example.com',
  countryCallingCode: '33',
  phone: '612345678',
  requiresOTP: true,
};

for (const kind of kinds) {
  describe(`signature requests: a remote platform signer on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let identityApp: Awaited<ReturnType<typeof buildIdentityApp>>;
    /** Runs before the identity server answers a `/sign`, when set. */
    let duringSign: (() => Promise<void>) | undefined;
    let signCalls = 0;

    before(async () => {
      const platform: PlatformSigner = {
        signer: { sign: () => Promise.reject(new Error('no platform key yet')) },
        issuerDomain: 'localhost',
      };
      b = await openBench(kind, { platformSigner: platform });
      const deps = {
        store: b.deps.store,
        clock: b.clock,
        random: realRandom,
        identity: { secretKey: TEST_SECRET_KEY, publicUrl: '' },
      };
      identityApp = await buildIdentityApp(deps, testConfig());
      identityApp.addHook('onRequest', async (req) => {
        if (!req.url.startsWith('/sign')) return;
        signCalls += 1;
        await duringSign?.();
      });
      await identityApp.listen({ port: 0, host: '127.0.0.1' });
      const port = (identityApp.server.address() as AddressInfo).port;
      deps.identity.publicUrl = `http://localhost:${port}`;
      const key = await createIdentityKey(deps, { name: 'remote', identity: { commonName: 'proofseal platform' } });
      const { token } = await createIdentityToken(deps);
      // As src/runtime.ts builds it with PLATFORM_IDENTITY_URL: no in-process signer.
      Object.assign(platform, {
        signer: httpSigner({ baseUrl: `http://127.0.0.1:${port}`, token }),
        pubKey: key.pubKey,
      });
    });
    after(async () => {
      await identityApp?.close();
      await b?.close();
    });

    const oneSigner = () => createRequest(b, requestBody({ authorizedSignees: [signer(1)] }));
    const auditTypes = async (id: string): Promise<string[]> =>
      (await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth }))
        .json()
        .auditEvents.map((e: { type: string }) => e.type);

    it('the request is not locked while the identity server signs; the signature is recorded and verifies', async () => {
      const { id, signeeIds, body } = await oneSigner();
      let seen: string | undefined;
      duringSign = async () => {
        seen = await lockWithoutWaiting(b, kind, id);
      };
      const res = await delegate(b, id, signeeIds[0]!).finally(() => (duringSign = undefined));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(seen, 'locked by the test', 'the request row was free while the identity server signed');
      const anchor = (
        await b.app.inject({ method: 'GET', url: `/v1/anchor/${res.json().anchorId as string}`, headers: b.auth })
      ).json();
      const message = messageToSign({
        signedHash: body.hashToSign as string,
        signedIdentity: anchor.signedIdentity,
        signedIssuerDomain: 'localhost',
      });
      assert.ok(verifySignedMessage(message, anchor.signature, anchor.pubKey).ok);
      assert.match(anchor.identityURL, /^http:\/\/localhost:\d+\//);
      assert.equal((await getRequest(b, id)).state, 'COMPLETED');
    });

    it('two delegates of one signer both get a signature from the server; one records it, the other gets ALREADY_SIGNED', async () => {
      const { id, signeeIds } = await oneSigner();
      const arrived: (() => void)[] = [];
      // Each call waits at the server until both have been checked and sent there.
      duringSign = () =>
        new Promise<void>((resolve) => {
          arrived.push(resolve);
          if (arrived.length === 2) arrived.forEach((go) => go());
        });
      const answers = await Promise.all([delegate(b, id, signeeIds[0]!), delegate(b, id, signeeIds[0]!)]).finally(
        () => (duringSign = undefined),
      );
      assert.equal(arrived.length, 2, 'both delegates reached the identity server');
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 409]);
      assert.equal(answers.find((r) => r.statusCode === 409)!.json().code, 'ALREADY_SIGNED');
      const request = await getRequest(b, id);
      assert.equal(request.state, 'COMPLETED');
      assert.deepEqual(request.anchors, [answers.find((r) => r.statusCode === 200)!.json().anchorId]);
      assert.deepEqual(await auditTypes(id), ['CREATED', 'ACTIVATED', 'DELEGATE', 'COMPLETED']);
    });

    it('a request closed while the identity server signs: refused under the lock, nothing recorded', async () => {
      const { id, signeeIds } = await oneSigner();
      duringSign = async () => {
        const closed = await b.app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/transition`,
          headers: { ...b.auth, 'content-type': 'application/json' },
          payload: JSON.stringify('CLOSED'),
        });
        assert.equal(closed.statusCode, 200, closed.body);
      };
      const res = await delegate(b, id, signeeIds[0]!).finally(() => (duringSign = undefined));
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(res.json().code, 'SIGNING_CLOSED');
      const request = await getRequest(b, id);
      assert.deepEqual(request.anchors, []);
      assert.ok(!(await auditTypes(id)).includes('DELEGATE'));
    });

    it('one-time passwords: a wrong try is counted before the server is called; a code replaced meanwhile is refused', async () => {
      const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [otpSigner] }));
      const latestCode = async () => {
        const [sms] = await listSmsOutbox(b.deps, { limit: 1 });
        return /^(\d{6})/.exec(sms?.body ?? '')![1]!;
      };
      const sendCode = async () => {
        const sent = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${signeeIds[0]}` });
        assert.equal(sent.statusCode, 200, sent.body);
        return latestCode();
      };
      const first = await sendCode();
      const calls = signCalls;
      const wrong = await delegate(b, id, signeeIds[0]!, first === '000000' ? '111111' : '000000');
      assert.equal(wrong.json().code, 'OTP_INVALID');
      assert.match(wrong.json().message, /4 tries left/);
      assert.equal(signCalls, calls, 'a wrong code never reaches the identity server');
      // A new code is sent while the server signs with the first: the first is no longer the signer's.
      duringSign = async () => {
        b.clock.advance(61_000);
        await sendCode();
      };
      const replaced = await delegate(b, id, signeeIds[0]!, first).finally(() => (duringSign = undefined));
      assert.equal(replaced.statusCode, 403, replaced.body);
      assert.equal(replaced.json().code, 'OTP_INVALID');
      assert.equal((await getRequest(b, id)).state, 'IN_PROGRESS');
      const ok = await delegate(b, id, signeeIds[0]!, await latestCode());
      assert.equal(ok.statusCode, 200, ok.body);
      const types = await auditTypes(id);
      assert.deepEqual(types.slice(-3), ['OTP_AUTH', 'DELEGATE', 'COMPLETED']);
      assert.equal(types.filter((t) => t === 'DELEGATE').length, 1);
    });
  });
}

/**
 * Locks the request's row in a transaction of its own, from outside the service. On PostgreSQL without
 * waiting (NOWAIT: a row locked by the delegate answers at once); the embedded store has one connection,
 * so a transaction held across the call would keep this one waiting: after 10 s it answers so.
 */
async function lockWithoutWaiting(b: Bench, kind: StoreKind, id: string): Promise<string> {
  const lock = b.s.db
    .transaction((sql) =>
      sql.query(
        `SELECT id FROM signature_request WHERE id = $1 FOR UPDATE${kind.name === 'postgres' ? ' NOWAIT' : ''}`,
        [id],
      ),
    )
    .then(
      (rows) => (rows.length === 1 ? 'locked by the test' : 'not found'),
      (err: { code?: string }) => (err.code === '55P03' ? 'locked by the delegate' : `failed: ${String(err)}`),
    );
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('still waiting after 10 s: a transaction is open across the call'), 10_000);
  });
  return Promise.race([lock, stuck]).finally(() => clearTimeout(timer));
}
