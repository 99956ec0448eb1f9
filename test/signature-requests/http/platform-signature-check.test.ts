/**
 * The platform key signing in process: its signatures by delegation are not verified again one by one,
 * but the first of each key in a process is, so a key whose stored address is not that of its private
 * key never signs an anchor. Both stores.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifySignedMessage } from '../../../src/core/bitcoin/signed-message.js';
import { newSigner } from '../../support/anchors.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, getRequest, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`signature requests: the in-process platform key's signatures on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    /** The keys of the signatures the service's verifier was asked to verify. */
    const verified: string[] = [];
    const signatureVerifier = {
      verify: async (message: string, signature: string, pubKey: string) => {
        verified.push(pubKey);
        return verifySignedMessage(message, signature, pubKey);
      },
      close: async () => undefined,
    };
    benchPerSuite(kind, (opened) => (b = opened), { signatureVerifier });

    it('a consistent key: its first signature in the process is verified, the next ones are not verified again', async () => {
      const before = verified.length;
      for (let i = 0; i < 3; i++) {
        const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [signer(1)] }));
        const res = await delegate(b, id, signeeIds[0]!);
        assert.equal(res.statusCode, 200, res.body);
      }
      const key = b.deps.platformSigner!.pubKey ?? (await b.deps.store.identityKeys.list())[0]!.pubKey;
      assert.deepEqual(verified.slice(before), [key], 'one verification, of the first signature');
    });

    it('a key whose stored address is not its own is refused at its first signature, and at the next', async () => {
      const [key] = await b.deps.store.identityKeys.list();
      assert.ok(key);
      // The row names another address than its sealed private key's (a bad restore, say).
      const other = newSigner().address;
      await b.s.db.query('UPDATE identity_key SET pub_key = $2 WHERE pub_key = $1', [key.pubKey, other]);
      Object.assign(b.deps.platformSigner!, { pubKey: other });
      for (let i = 0; i < 2; i++) {
        const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [signer(1)] }));
        const res = await delegate(b, id, signeeIds[0]!);
        assert.equal(res.json().code, 'INVALID_SIGNATURE', res.body);
        assert.deepEqual((await getRequest(b, id)).anchors, [], 'no anchor of a signature that does not verify');
      }
    });
  });
}
