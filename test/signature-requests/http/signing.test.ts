// tier: slow (measured: 16.1 s in a full CI run, over the 10 s bound of the fast tier)
/** Signing by delegation and with one's own key, over HTTP, on both stores. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { verifySignedMessage } from '../../../src/core/bitcoin/signed-message.js';
import { messageToSign } from '../../../src/core/identity/identity-message.js';
import { newSigner } from '../../support/anchors.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, getRequest, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`signature requests: signing on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    benchPerSuite(kind, (opened) => (b = opened));
    const get = (id: string) => getRequest(b, id);

    it('delegates: an identity-bound platform signature becomes the signer anchor; the last one completes', async () => {
      const { id, signeeIds, body } = await createRequest(b);
      const res = await delegate(b, id, signeeIds[0]!);
      assert.equal(res.statusCode, 200, res.body);
      const anchorId = res.json().anchorId as string;
      const anchor = (await b.app.inject({ method: 'GET', url: `/v1/anchor/${anchorId}`, headers: b.auth })).json();
      const [, committed] = /^CN=Signer 1,EMAILADDRESS=sha256:([0-9a-f]{64})$/.exec(anchor.signedIdentity) ?? [];
      assert.ok(committed, `the e-mail is committed to: ${anchor.signedIdentity}`);
      const owner = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: b.auth })
      ).json();
      const opening = owner.signatureOpenings[0];
      assert.equal(opening.value, 'signer1@example.com');
      const salted = Buffer.concat([Buffer.from(opening.salt, 'hex'), Buffer.from(opening.value)]);
      assert.equal(createHash('sha256').update(salted).digest('hex'), committed, "the owner's opening opens it");
      assert.equal(anchor.signedIssuerDomain, 'example.com');
      const message = messageToSign({
        signedHash: body.hashToSign as string,
        signedIdentity: anchor.signedIdentity,
        signedIssuerDomain: 'example.com',
      });
      assert.ok(verifySignedMessage(message, anchor.signature, anchor.pubKey).ok);
      let request = await get(id);
      assert.equal(request.state, 'IN_PROGRESS');
      assert.equal(request.authorizedSignees[0].anchorId, anchorId);
      assert.deepEqual(request.anchors, [anchorId]);
      assert.equal((await delegate(b, id, signeeIds[1]!)).statusCode, 200);
      request = await get(id);
      assert.equal(request.state, 'COMPLETED');
      assert.ok(
        b.jobs.sent.some(
          (j) => j.name === 'signature-request.seal' && (j.data as { requestId: string }).requestId === id,
        ),
      );
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.deepEqual(
        trail.auditEvents.map((e: { type: string }) => e.type),
        ['CREATED', 'ACTIVATED', 'DELEGATE', 'DELEGATE', 'COMPLETED'],
      );
      assert.equal(trail.auditEvents[2].actor, 'Signer 1 <signer1@example.com>');
    });

    it('answers ALREADY_SIGNED, SIGNING_CLOSED, DEADLINE_PASSED and NOT_YOUR_TURN', async () => {
      const { id, signeeIds } = await createRequest(
        b,
        requestBody({ ordered: true, deadline: b.clock.now() + 60_000 }),
      );
      const turn = await delegate(b, id, signeeIds[1]!);
      assert.equal(turn.statusCode, 403);
      assert.equal(turn.json().code, 'NOT_YOUR_TURN');
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      const twice = await delegate(b, id, signeeIds[0]!);
      assert.equal(twice.statusCode, 409);
      assert.equal(twice.json().code, 'ALREADY_SIGNED');
      b.clock.advance(60_000);
      const late = await delegate(b, id, signeeIds[1]!);
      assert.equal(late.statusCode, 403);
      assert.equal(late.json().code, 'DEADLINE_PASSED');
      b.clock.advance(-60_000);
      const draft = await createRequest(b, requestBody({ state: 'DRAFT' }));
      const closed = await delegate(b, draft.id, draft.signeeIds[0]!);
      assert.equal(closed.statusCode, 403);
      assert.equal(closed.json().code, 'SIGNING_CLOSED');
    });

    it('two concurrent delegates of one signer give one signature and one 409', async () => {
      const { id, signeeIds } = await createRequest(b);
      const answers = await Promise.all([delegate(b, id, signeeIds[0]!), delegate(b, id, signeeIds[0]!)]);
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 409]);
      const request = await get(id);
      assert.equal(request.anchors.length, 1);
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.equal(trail.auditEvents.filter((e: { type: string }) => e.type === 'DELEGATE').length, 1);
    });

    it('delegates of many requests at once (sharing transactions): a bad one among them fails alone', async () => {
      const requests = await Promise.all(Array.from({ length: 8 }, () => createRequest(b)));
      const calls = [
        ...requests.map((r) => delegate(b, r.id, r.signeeIds[0]!)),
        delegate(b, requests[3]!.id, requests[5]!.signeeIds[1]!), // another request's signer
        delegate(b, requests[6]!.id, requests[6]!.signeeIds[0]!), // the same signer twice
      ];
      const answers = await Promise.all(calls);
      assert.deepEqual(
        answers.slice(0, 8).map((r) => r.statusCode),
        [200, 200, 200, 200, 200, 200, 200, 200],
        answers.map((r) => r.body).join('\n'),
      );
      assert.equal(answers[8]!.statusCode, 404);
      assert.equal(answers[9]!.statusCode, 409);
      for (const [i, r] of requests.entries()) {
        const request = await get(r.id);
        assert.equal(request.anchors.length, 1, `request ${i} has its one signature`);
        assert.equal(request.anchors[0], answers[i]!.json().anchorId);
        assert.equal(request.state, 'IN_PROGRESS', 'one signer of two');
      }
    });

    it('a signature written over one already recorded fails its transaction, and nothing of it is kept', async () => {
      const { id, signeeIds } = await createRequest(b);
      const res = await delegate(b, id, signeeIds[0]!);
      assert.equal(res.statusCode, 200, res.body);
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const storedSigner = request.signers[0]!;
      const event = {
        date: Date.now(),
        type: 'DELEGATE' as const,
        actor: 'test',
        signerId: storedSigner.id,
        ip: null,
        userAgent: null,
        comment: null,
      };
      await assert.rejects(
        b.deps.store.transaction(async (tx) => {
          await tx.settings.put(`written-before-${id}`, 'x', Date.now());
          // The invariant broken on purpose: markSigned for a signer who has signed.
          await tx.signatureRequests.markSigned(
            storedSigner.id,
            id,
            { anchorId: request.signers[0]!.anchorId!, method: 'delegated' },
            event,
          );
        }),
        /signatures recorded: 0 of 1/,
      );
      assert.equal(await b.deps.store.settings.get(`written-before-${id}`), null, 'the transaction rolled back');
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.equal(trail.auditEvents.filter((e: { type: string }) => e.type === 'DELEGATE').length, 1);
    });

    it('the two signers of a request delegating at once: both sign, and the request completes once', async () => {
      const { id, signeeIds } = await createRequest(b);
      const answers = await Promise.all(signeeIds.map((s) => delegate(b, id, s)));
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        [200, 200],
      );
      assert.equal((await get(id)).state, 'COMPLETED');
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.deepEqual(
        trail.auditEvents.map((e: { type: string }) => e.type),
        ['CREATED', 'ACTIVATED', 'DELEGATE', 'DELEGATE', 'COMPLETED'],
      );
      const seals = b.jobs.sent.filter(
        (j) => j.name === 'signature-request.seal' && (j.data as { requestId: string }).requestId === id,
      );
      assert.equal(seals.length, 1);
    });

    it('a remote platform signer (signing before the transaction) also gives one signature and one 409', async () => {
      const platform = b.deps.platformSigner!;
      const inProcess = platform.inProcess;
      // As with a remote identity server: no in-process signer, the signature made before the lock.
      Object.assign(platform, { inProcess: undefined });
      try {
        const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [signer(1)] }));
        const answers = await Promise.all([delegate(b, id, signeeIds[0]!), delegate(b, id, signeeIds[0]!)]);
        assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 409]);
        assert.equal((await get(id)).state, 'COMPLETED');
      } finally {
        Object.assign(platform, { inProcess });
      }
    });

    it('signs with the signer own key, verified as an anchor; a bad signature or hash is refused', async () => {
      const key = newSigner();
      const { id, signeeIds, body } = await createRequest(b, requestBody({ authorizedSignees: [signer(1)] }));
      const hash = body.hashToSign as string;
      const sign = (payload: Record<string, unknown>) =>
        b.app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/sign`,
          payload: { signeeId: signeeIds[0], ...payload },
        });
      const bad = await sign({ signature: key.sign('00'.repeat(32)), pubKey: key.address });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'INVALID_SIGNATURE');
      const other = await sign({ signedHash: '11'.repeat(32), signature: key.sign(hash), pubKey: key.address });
      assert.equal(other.json().code, 'HASH_MISMATCH');
      const ok = await sign({ signature: key.sign(hash), pubKey: key.address });
      assert.equal(ok.statusCode, 200, ok.body);
      const request = await get(id);
      assert.equal(request.state, 'COMPLETED');
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.ok(trail.auditEvents.some((e: { type: string }) => e.type === 'SIGN'));
    });

    it('records feedback, reminders and a deadline change in the trail', async () => {
      const { id, signeeIds } = await createRequest(b);
      const fb = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/feedback`,
        payload: { signeeId: signeeIds[0], subject: 'Typo', message: 'Page 2' },
      });
      assert.equal(fb.statusCode, 200, fb.body);
      const remind = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/remind`,
        headers: b.auth,
        payload: [],
      });
      assert.deepEqual(remind.json().reminded, ['signer1@example.com', 'signer2@example.com']);
      const unknown = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/remind`,
        headers: b.auth,
        payload: ['nobody@example.com'],
      });
      assert.equal(unknown.statusCode, 400);
      const deadline = b.clock.now() + 3_600_000;
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${id}/deadline`,
        headers: b.auth,
        payload: { deadline },
      });
      assert.equal(put.json().deadline, deadline);
      const past = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${id}/deadline`,
        headers: b.auth,
        payload: { deadline: 1 },
      });
      assert.equal(past.json().code, 'INVALID_DEADLINE');
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail?signeeId=${signeeIds[1]}` })
      ).json();
      assert.deepEqual(
        trail.auditEvents.map((e: { type: string }) => e.type),
        ['CREATED', 'ACTIVATED', 'FEEDBACK', 'REMINDED', 'REMINDED', 'DEADLINE_UPDATED'],
      );
      assert.equal(trail.auditEvents[2].comment, undefined, "another signer's feedback text stays theirs");
      assert.equal(trail.auditEvents[2].actor, 'Signer 1', 'the name only');
      const own = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail?signeeId=${signeeIds[0]}` })
      ).json();
      assert.equal(own.auditEvents[2].comment, 'Typo\n\nPage 2');
      assert.equal(own.auditEvents[2].actor, 'Signer 1 <signer1@example.com>');
    });
  });
}
