// tier: slow (both stores migrated from scratch twice)
/**
 * Migration 036 keys the transparency log's refs by the anchor's seq: a store migrated before it, holding the
 * refs of two logged anchors by their ids, comes out with each anchor's index found by its id as before (through
 * its row), an anchor not logged still without one, and nothing published to an object store yet. On both stores.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { migrate } from '../../../src/adapters/store/migrate.js';
import { migrations } from '../../../src/adapters/store/migrations/index.js';
import { tlogRepository } from '../../../src/adapters/store/tlog.repository.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { migrationsBefore, openBareDatabase } from '../../support/migrated-before.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();
const before036 = migrationsBefore('036-tlog-ref-by-seq');

for (const kind of kinds) {
  describe(`migration 036 on ${kind.name}`, { skip: kind.skip }, () => {
    const opened: { close(): Promise<void> }[] = [];
    after(async () => {
      for (const o of opened) await o.close();
    });

    it("carries the refs over by seq: each logged anchor's index is found by its id as before", async () => {
      const { db, close } = await openBareDatabase(kind.name);
      opened.push({ close });
      await migrate(db, Date.now, before036);
      const [first, second, unlogged] = await insertDataAnchors(db, randomUUID(), randomLeaves(3));
      await db.query('INSERT INTO tlog_ref (anchor_id, idx) VALUES ($1, 7), ($2, 12)', [first, second]);
      assert.deepEqual(
        await migrate(db, Date.now),
        migrations.slice(before036.length).map((m) => m.id),
      );
      const tlog = tlogRepository(db);
      assert.equal(await tlog.indexOf(first!), 7);
      assert.equal(await tlog.indexOf(second!), 12);
      assert.equal(await tlog.indexOf(unlogged!), null);
      assert.equal(await tlog.publishedSize(), 0);
      const [seq] = await db.query<{ seq: string }>('SELECT seq FROM anchor WHERE id = $1', [unlogged]);
      await tlog.addRefs(20, [Number(seq!.seq)]);
      assert.equal(await tlog.indexOf(unlogged!), 20, 'a ref added after the migration');
    });
  });
}
