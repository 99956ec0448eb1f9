/**
 * The sequencer's take of pending signing events (`tlog.takeSignerEvents`): in the order they were written, and
 * never a SIGNED event before the anchor it names: an event whose anchor is past the run's anchor cursor waits,
 * and the events written after it wait with it (a COMPLETED never comes before the SIGNED it follows). On both stores.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { tlogRepository } from '../../../src/adapters/store/tlog.repository.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`taking signing events on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    before(async () => {
      s = await kind.open();
    });
    after(() => s?.destroy());

    it('a SIGNED event waits for its anchor to be within the cursor; the events after it wait with it', async () => {
      const db = s.db;
      const tlog = tlogRepository(db);
      const [early, late] = await insertDataAnchors(db, randomUUID(), randomLeaves(2));
      const seqs = await db.query<{ id: string; seq: string }>('SELECT id, seq FROM anchor ORDER BY seq');
      const seqOf = (id: string) => Number(seqs.find((r) => r.id === id)!.seq);
      const request = randomUUID();
      const [ann, bob] = [randomUUID(), randomUUID()];
      await tlog.addSignerEvent({ event: 'SIGNED', requestId: request, signerId: ann, anchorId: early!, at: 1 });
      await tlog.addSignerEvent({ event: 'SIGNED', requestId: request, signerId: bob, anchorId: late!, at: 2 });
      await tlog.addSignerEvent({ event: 'COMPLETED', requestId: request, signerId: null, anchorId: null, at: 2 });

      const take = (upTo: number) =>
        db.transaction(async (tx) => (await tlogRepository(tx).takeSignerEvents(100, upTo)).map((e) => e.signerId));
      assert.deepEqual(await take(seqOf(early!) - 1), [], 'the first event waits for its anchor, and so do the rest');
      assert.deepEqual(await take(seqOf(early!)), [ann], "Ann's signature's anchor is in: her event; Bob's waits");
      assert.deepEqual(await take(seqOf(early!)), [], 'still waiting, COMPLETED behind it');
      assert.deepEqual(await take(seqOf(late!)), [bob, null], "Bob's anchor is in: his event, then COMPLETED");
      assert.deepEqual(await take(seqOf(late!)), [], 'nothing left');
    });

    it('an event naming an anchor that is no longer stored does not hold the others back', async () => {
      const db = s.db;
      const tlog = tlogRepository(db);
      const request = randomUUID();
      await tlog.addSignerEvent({
        event: 'SIGNED',
        requestId: request,
        signerId: randomUUID(),
        anchorId: randomUUID(),
        at: 1,
      });
      await tlog.addSignerEvent({ event: 'CANCELED', requestId: request, signerId: null, anchorId: null, at: 2 });
      const taken = await db.transaction(async (tx) => tlogRepository(tx).takeSignerEvents(100, 0));
      assert.deepEqual(
        taken.map((e) => e.event),
        ['SIGNED', 'CANCELED'],
      );
    });
  });
}
