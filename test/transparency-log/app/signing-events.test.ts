// tier: slow (a signature bench of its own)
/**
 * Signing events in the log through the real use cases (routes over the embedded store): a signature (with its
 * anchor's key and signed identity), a decline, a cancellation and a completion each give one entry, written in
 * the event's transaction; a refused signature gives none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import { decodeEntry, type LogEntry } from '../../../src/core/tlog/entry.js';
import { unpackBundle } from '../../../src/core/tlog/tiles.js';
import { storeKinds } from '../../support/stores.js';
import {
  createRequest,
  delegate,
  openBench,
  requestBody,
  signer,
  type Bench,
} from '../../signature-requests/fixture.js';

const kind = (await storeKinds())[0]!;
const transparency = { origin: 'proofseal.test/log' };

describe('signing events in the transparency log', () => {
  let b: Bench;
  before(async () => {
    b = await openBench(kind, { transparency });
  });
  after(() => b.close());

  const logged = async (): Promise<LogEntry[]> => {
    while ((await sequenceLog({ ...b.deps, transparency })).more);
    const size = (await b.deps.store.tlog.checkpoint())!.size;
    const out: LogEntry[] = [];
    for (let n = 0; n * 256 < size; n++)
      out.push(...unpackBundle((await b.deps.store.tlog.bundle(n))!.entries).map(decodeEntry));
    return out;
  };

  it('a signature, a decline, a cancellation and a completion: one entry each, none for a refused signature', async () => {
    const two = await createRequest(b);
    const one = await createRequest(b, requestBody({ authorizedSignees: [signer(3)] }));
    assert.equal((await delegate(b, two.id, two.signeeIds[0]!)).statusCode, 200);
    assert.equal((await delegate(b, two.id, two.signeeIds[0]!)).statusCode, 409, 'signed already: refused');
    const declined = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${two.id}/event`,
      payload: { signeeId: two.signeeIds[1], type: 'SIGN_REFUSED', comment: 'not this one' },
    });
    assert.equal(declined.statusCode, 200, declined.body);
    const canceled = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${two.id}/transition`,
      headers: { ...b.auth, 'content-type': 'application/json' },
      payload: JSON.stringify('CANCELED'),
    });
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.equal((await delegate(b, one.id, one.signeeIds[0]!)).statusCode, 200);

    const entries = await logged();
    const events = entries.filter((e): e is Extract<LogEntry, { type: 'signer-event' }> => e.type === 'signer-event');
    const summary = (id: string) => events.filter((e) => e.request === id).map((e) => e.event);
    assert.deepEqual(summary(two.id), ['SIGNED', 'DECLINED', 'CANCELED']);
    assert.deepEqual(summary(one.id), ['SIGNED', 'COMPLETED']);
    const request = (await b.deps.store.signatureRequests.findById(two.id))!;
    const anchorId = request.signers[0]!.anchorId!;
    const signed = events.find((e) => e.request === two.id && e.event === 'SIGNED')!;
    const anchor = (await b.deps.store.anchors.findById(anchorId))!;
    assert.equal(signed.anchor, anchorId);
    assert.equal(signed.pubKey, anchor.pubKey);
    assert.equal(signed.signedIdentity, anchor.signedIdentity);
    assert.ok(
      entries.some((e) => e.type === 'anchor' && e.id === anchorId),
      "the signature's anchor is logged too",
    );
    const text = entries.map((e) => JSON.stringify(e)).join('\n');
    assert.ok(!text.includes('not this one'), "a decline's reason stays out of the log");
  });
});
