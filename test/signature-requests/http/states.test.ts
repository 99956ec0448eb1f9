// tier: slow (measured: 16.0 s in a full CI run, over the 10 s bound of the fast tier)
/** Every state × every owner move, over HTTP, on both stores; the expected table is written out here, apart from core. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expireDueRequests } from '../../../src/app/signature-requests/expire-due-requests.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();
const STATES = ['DRAFT', 'PENDING', 'IN_PROGRESS', 'COMPLETED', 'CLOSED', 'CANCELED', 'EXPIRED'] as const;
type State = (typeof STATES)[number];

/** api-decisions.md: the owner's allowed moves and the state each ends in (PENDING activates at once here). */
const ALLOWED: Partial<Record<State, Partial<Record<State, State>>>> = {
  DRAFT: { PENDING: 'IN_PROGRESS' },
  PENDING: { DRAFT: 'DRAFT', CANCELED: 'CANCELED' },
  IN_PROGRESS: { CLOSED: 'CLOSED', CANCELED: 'CANCELED' },
};

for (const kind of kinds) {
  describe(`signature requests: every state × every move on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind);
    });
    after(async () => b?.close());

    const transition = (id: string, to: unknown) =>
      b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: JSON.stringify(to),
      });

    /** A fresh request in the given state, reached the way users and the platform reach it. */
    async function requestIn(state: State): Promise<string> {
      const one = { authorizedSignees: [signer(1)] };
      if (state === 'DRAFT') return (await createRequest(b, requestBody({ ...one, state: 'DRAFT' }))).id;
      if (state === 'PENDING')
        return (await createRequest(b, requestBody({ ...one, activation: b.clock.now() + 3_600_000 }))).id;
      if (state === 'EXPIRED') {
        const { id } = await createRequest(b, requestBody({ ...one, deadline: b.clock.now() + 1000 }));
        b.clock.advance(1000);
        await expireDueRequests(b.deps, { limit: 1000 });
        return id;
      }
      const { id, signeeIds } = await createRequest(b, requestBody(one));
      if (state === 'COMPLETED') assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      if (state === 'CLOSED' || state === 'CANCELED') assert.equal((await transition(id, state)).statusCode, 200);
      return id;
    }

    for (const from of STATES) {
      it(`from ${from}`, async () => {
        for (const to of STATES) {
          const id = await requestIn(from);
          const before = (
            await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}`, headers: b.auth })
          ).json();
          assert.equal(before.state, from);
          const res = await transition(id, to);
          const expected = ALLOWED[from]?.[to];
          if (expected === undefined) {
            assert.equal(res.statusCode, 403, `${from} → ${to}: ${res.body}`);
            assert.equal(res.json().code, 'TRANSITION_NOT_ALLOWED');
            const after = (
              await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}`, headers: b.auth })
            ).json();
            assert.deepEqual(after, before, `${from} → ${to} changed nothing`);
          } else {
            assert.equal(res.statusCode, 200, `${from} → ${to}: ${res.body}`);
            assert.equal(res.json().state, expected);
          }
        }
        const garbage = await transition(await requestIn(from), 'OPEN');
        assert.equal(garbage.statusCode, 400);
        assert.equal(garbage.json().code, 'VALIDATION_FAILED');
      });
    }
  });
}
