/**
 * The sequencer's read of new anchors (`tlog.anchorsAfter`, src/adapters/store/tlog.repository.ts) gives the
 * same anchors read a row each or packed as one JSON value (what the embedded store uses): public and private,
 * data and signature anchors, identities with characters outside ASCII, an issuer domain, the log's own
 * account left out, the limit and the seq bounds kept. On both stores.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { tlogRepository } from '../../../src/adapters/store/tlog.repository.js';
import { createAnchor } from '../../../src/app/anchoring/create-anchor.js';
import { LOG_ACCOUNT_ID } from '../../../src/app/transparency/transparency.port.js';
import { newSigner, randomHash, signatureBody } from '../../support/anchors.js';
import { testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

for (const kind of await storeKinds()) {
  describe(`the log's read of new anchors on ${kind.name}`, { skip: kind.skip }, () => {
    it('is the same read a row each or packed as JSON', async () => {
      const s = await kind.open();
      try {
        const deps = testDeps(s.store);
        const accountId = randomUUID();
        await createAnchor(deps, { accountId, name: 'public data', hash: randomHash() });
        await createAnchor(deps, { accountId, name: 'private data', hash: randomHash(), public: false });
        await createAnchor(deps, { accountId: LOG_ACCOUNT_ID, name: 'a seal of the log', hash: randomHash() });
        const signer = newSigner();
        for (const [identity, isPublic] of [
          ['CN=Zoë Ångström,O=Café « Œuvre » 👩🏽‍💻,C=FR', true],
          ['CN=Ada', false],
        ] as const) {
          const body = signatureBody(signer, { signedIdentity: identity, signedIssuerDomain: 'example.com' });
          await createAnchor(deps, { accountId, ...(body as { name: string }), public: isPublic });
        }
        await createAnchor(deps, { accountId, name: randomBytes(4).toString('hex'), hash: randomHash() });
        const rows = tlogRepository(s.db);
        const packed = tlogRepository(s.db, { packedReads: true });
        const all = await rows.anchorsAfter(0, Number.MAX_SAFE_INTEGER, 100, LOG_ACCOUNT_ID);
        assert.equal(all.length, 5, 'the log account left out');
        assert.ok(all.some((a) => a.signedIdentity?.includes('👩🏽‍💻') && a.signedIssuerDomain === 'example.com'));
        assert.deepEqual(await packed.anchorsAfter(0, Number.MAX_SAFE_INTEGER, 100, LOG_ACCOUNT_ID), all);
        const [a, b] = [all[0]!.seq, all[3]!.seq];
        assert.deepEqual(
          await packed.anchorsAfter(a, b, 2, LOG_ACCOUNT_ID),
          await rows.anchorsAfter(a, b, 2, LOG_ACCOUNT_ID),
        );
        assert.equal((await packed.anchorsAfter(a, b, 2, LOG_ACCOUNT_ID)).length, 2);
        assert.deepEqual(await packed.anchorsAfter(all[4]!.seq, Number.MAX_SAFE_INTEGER, 100, LOG_ACCOUNT_ID), []);
      } finally {
        await s.destroy();
      }
    });
  });
}
