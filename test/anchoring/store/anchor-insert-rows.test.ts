// tier: slow (measured: 10.9 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The grouped anchor insert keeps every field as given, on both stores: on the embedded one the rows leave as
 * the literal of a prepared statement's EXECUTE (embedded-database.ts), so quotes, backslashes, escape-like
 * text and any Unicode in names, tags, metadata and URLs must come back unchanged; a group with a bad row fails
 * only that row's insert; the insert is prepared once, and used inside transactions too.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import type { NewAnchor } from '../../../src/app/anchoring/anchor.port.js';
import { testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

/** Texts that an escape string or JSON would get wrong if quoted carelessly. */
const AWKWARD = [
  "it's",
  "''",
  'back\\slash',
  "\\'",
  "E'\\x41'",
  '\\\\n and \\u0041',
  'line\nbreak\ttab',
  '"double" quotes',
  "'); DROP TABLE anchor; --",
  'émoji 🧾 and 中文',
  '$1 $$ $tag$',
];

function dataAnchor(accountId: string, name: string, extra: Partial<NewAnchor> = {}): NewAnchor {
  const hash = randomBytes(32);
  return {
    id: randomUUID(),
    accountId,
    name,
    kind: 'data',
    hash: hash.toString('hex'),
    signature: null,
    pubKey: null,
    identityUrl: null,
    signedIdentity: null,
    signedIssuerDomain: null,
    leaf: hash,
    public: false,
    tags: [name.replace(/\s/g, '_'), 'plain'],
    metadata: { note: name, [name]: 'as a key', count: 1, yes: true, none: null },
    callbackUrl: `https://cb.example.com/${encodeURIComponent(name)}`,
    created: Date.now(),
    ...extra,
  };
}

for (const kind of kinds) {
  describe(`grouped anchor inserts on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let accountId: string;
    before(async () => {
      s = await kind.open();
      accountId = (await createAccount(testDeps(s.store), { email: 'rows@example.com', password: 'correct horse' })).id;
    });
    after(() => s?.destroy());

    it('keeps every field of a group as given', async () => {
      const anchors = AWKWARD.map((name) => dataAnchor(accountId, name));
      const signature = randomBytes(65).toString('base64');
      anchors.push(
        dataAnchor(accountId, 'signature', {
          kind: 'signature',
          signature,
          pubKey: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
          identityUrl: "https://id.example.com/who's?x=\\y",
          signedIdentity: "CN=O'Brien\\, Ltd",
          signedIssuerDomain: 'id.example.com',
          leaf: createHash('sha256').update(signature, 'latin1').digest(),
          public: true,
          tags: [],
          metadata: null,
          callbackUrl: null,
        }),
      );
      await Promise.all(anchors.map((a) => s.store.anchors.insert(a)));
      for (const a of anchors) {
        const found = await s.store.anchors.findById(a.id, accountId);
        assert.ok(found, a.name);
        const { lastModified, status, batchId, txId, confirmations, timestamp, ...stored } = found;
        assert.deepEqual({ ...stored, leaf: stored.leaf.toString('hex') }, { ...a, leaf: a.leaf.toString('hex') });
        assert.equal(lastModified, a.created);
        assert.deepEqual([status, batchId, txId, confirmations, timestamp], ['WAIT', null, null, 0, null]);
      }
    });

    it('a bad row fails only its own insert', async () => {
      const good = [dataAnchor(accountId, 'good one'), dataAnchor(accountId, "good' two")];
      const taken = good[0]!.id;
      await s.store.anchors.insert(good[0]!);
      const again = dataAnchor(accountId, 'same id', { id: taken });
      const results = await Promise.allSettled([s.store.anchors.insert(again), s.store.anchors.insert(good[1]!)]);
      assert.equal(results[0].status, 'rejected');
      assert.equal(results[1].status, 'fulfilled');
      assert.equal((await s.store.anchors.findById(taken, accountId))?.name, 'good one');
      assert.equal((await s.store.anchors.findById(good[1]!.id, accountId))?.name, "good' two");
    });

    it('inserts in a transaction keep their fields too, and roll back with it', async () => {
      const kept = dataAnchor(accountId, "kept \\' in a transaction");
      const dropped = dataAnchor(accountId, 'dropped');
      await s.store.transaction((tx) => tx.anchors.insert(kept));
      await assert.rejects(
        s.store.transaction(async (tx) => {
          await tx.anchors.insert(dropped);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal((await s.store.anchors.findById(kept.id, accountId))?.name, kept.name);
      assert.equal(await s.store.anchors.findById(dropped.id, accountId), null);
    });

    if (kind.name === 'embedded')
      it('the embedded store prepares the insert once', async () => {
        await Promise.all([1, 2, 3].map((i) => s.store.anchors.insert(dataAnchor(accountId, `prepared ${i}`))));
        const rows = await s.db.query<{ statement: string }>(
          "SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'PREPARE % AS%INSERT INTO anchor%'",
        );
        assert.equal(rows.length, 1);
      });
  });
}
