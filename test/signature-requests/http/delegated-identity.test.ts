// tier: slow (measured: 11.5 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The identity of a delegated signature, checked as any receipt's is: the identity server named by the
 * receipt's identityURL proves it holds the platform key and answers for the signer it signed for.
 * A real identity server on a loopback port, the platform key under its public URL, both stores.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import { localSigner } from '../../../src/app/identity/sign-hash.js';
import type { Signer } from '../../../src/app/identity/signer.port.js';
import type { PlatformSigner } from '../../../src/app/signature-requests/platform-signer.port.js';
import { verifyIdentity } from '../../../src/app/identity/verify-identity.js';
import type { ReceiptSignature } from '../../../src/core/chainpoint/receipt.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { realRandom, TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`delegated signature: identity verification on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let identityApp: Awaited<ReturnType<typeof buildIdentityApp>>;
    const verifier = { httpClient: createSafeFetch({ allowPrivateUrls: true }), random: realRandom };

    before(async () => {
      // The platform key is made once the identity server has its port (its identity URL names it).
      const platform: {
        signer: Signer;
        issuerDomain: string;
        pubKey?: string;
        inProcess?: PlatformSigner['inProcess'];
      } = {
        signer: { sign: () => Promise.reject(new Error('no platform key yet')) },
        issuerDomain: 'localhost',
      };
      b = await openBench(kind, { platformSigner: platform });
      const deps = identityDeps(b);
      identityApp = await buildIdentityApp(deps, testConfig());
      await identityApp.listen({ port: 0, host: '127.0.0.1' });
      deps.identity.publicUrl = `http://localhost:${(identityApp.server.address() as AddressInfo).port}`;
      const key = await createIdentityKey(deps, { name: 'delegation', identity: { commonName: 'proofseal platform' } });
      // In process, as the default run gives it (src/runtime.ts): it reads its key on the signing transaction.
      const signer = localSigner(deps);
      Object.assign(platform, { signer, inProcess: signer.on, pubKey: key.pubKey });
    });
    after(async () => {
      await identityApp?.close();
      await b?.close();
    });

    /** The signature object of the signer's receipt (202 partial while the anchor waits for its batch). */
    async function delegatedReceiptSignature(): Promise<ReceiptSignature & { identityURL: string }> {
      const { id, signeeIds } = await createRequest(b);
      const res = await delegate(b, id, signeeIds[0]!);
      assert.equal(res.statusCode, 200, res.body);
      const receipt = await b.app.inject({ method: 'GET', url: `/v1/receipt/${res.json().anchorId as string}` });
      assert.equal(receipt.statusCode, 202, receipt.body);
      return receipt.json().signature;
    }

    it('a signer receipt verifies with the platform identity URL: the server answers for the signer', async () => {
      const signature = await delegatedReceiptSignature();
      // The e-mail is committed to (issue 21 item 9): the receipt names the signer, not their address.
      assert.match(signature.signedIdentity!, /^CN=Signer 1,EMAILADDRESS=sha256:[0-9a-f]{64}$/);
      assert.match(signature.identityURL, /^http:\/\/localhost:\d+\//);
      assert.equal(await verifyIdentity(verifier, signature), 'VERIFIED');
      const answer = await identityApp.inject({
        method: 'GET',
        url: `/identity?pubKey=${signature.pubKey}&signedIdentity=${encodeURIComponent(signature.signedIdentity!)}`,
      });
      assert.deepEqual(answer.json().identity, {
        commonName: 'Signer 1',
        emailAddress: signature.signedIdentity!.split('EMAILADDRESS=')[1],
      });
    });

    it('an identity the platform never signed for is a mismatch, and the key answers its own identity', async () => {
      const signature = await delegatedReceiptSignature();
      const forged = { ...signature, signedIdentity: 'CN=Somebody Else,EMAILADDRESS=else@example.com' };
      assert.equal(await verifyIdentity(verifier, forged), 'IDENTITY_MISMATCH');
      const answer = await identityApp.inject({
        method: 'GET',
        url: `/identity?pubKey=${signature.pubKey}&signedIdentity=${encodeURIComponent(forged.signedIdentity)}`,
      });
      assert.deepEqual(answer.json().identity, { commonName: 'proofseal platform' });
    });
  });
}

/** The identity server's deps; its public URL is set once it listens. */
function identityDeps(b: Bench) {
  return {
    store: b.deps.store,
    clock: b.deps.clock,
    random: realRandom,
    identity: { secretKey: TEST_SECRET_KEY, publicUrl: '' },
  };
}
