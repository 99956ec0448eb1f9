// tier: slow (measured: 14.1 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The mails the clock sends, through the real periodic job with a controllable clock: the reminder 3 days
 * after the invitation (one per signer, however often the tick runs) and the deadline warning one day
 * before the deadline (once per deadline; a postponed deadline is warned of again), on both stores.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendDeadlineWarnings } from '../../../src/app/signature-requests/send-deadline-warnings.js';
import { sendDueReminders } from '../../../src/app/signature-requests/send-due-reminders.js';
import { signatureRequestsTickJob } from '../../../src/jobs/signature-requests/signature-requests.jobs.js';
import type { TestSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, requestBody, type Bench } from '../../signature-requests/fixture.js';
import { deliverQueued, mailBenchPerSuite, sent } from '../../support/workflow-mail.js';

const kinds = await storeKinds();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

for (const kind of kinds) {
  describe(`timed mails on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    mailBenchPerSuite(kind, (opened) => ({ b, smtp } = opened));
    const tick = async (times: number) => {
      const job = signatureRequestsTickJob(b.deps);
      for (let i = 0; i < times; i++) await job.handle({});
    };

    it('reminds each signer who has not signed once, 3 days after the invitation', async () => {
      const { id, signeeIds } = await createRequest(b, requestBody());
      await deliverQueued(b, smtp);
      b.clock.advance(3 * DAY - HOUR);
      await tick(3);
      assert.deepEqual(await deliverQueued(b, smtp), [], 'not before 3 days');
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      await deliverQueued(b, smtp);
      b.clock.advance(HOUR);
      await tick(5);
      b.clock.advance(DAY);
      await tick(5);
      assert.equal(await sendDueReminders(b.deps, { limit: 100 }), 0);
      const mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), ['signatureReminderSigneeEmail → signer2@example.com'], 'one, for the unsigned');
      assert.equal(mails[0]!.mail.subject, 'Reminder: "Contract" awaits your signature');
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      const reminded = trail.auditEvents.filter((e: { type: string }) => e.type === 'REMINDED');
      assert.deepEqual(
        reminded.map((e: { actor: string }) => e.actor),
        ['platform'],
      );
    });

    it('a disabled reminder is not sent, and not sent later either', async () => {
      await createRequest(b, requestBody({ vars: { signatureReminderSigneeEmailDisabled: true } }));
      await deliverQueued(b, smtp);
      b.clock.advance(3 * DAY);
      await tick(3);
      assert.deepEqual(await deliverQueued(b, smtp), []);
    });

    it('warns the requester once, one day before the deadline; again for a postponed deadline', async () => {
      const deadline = b.clock.now() + 5 * DAY;
      const { id } = await createRequest(b, requestBody({ deadline }));
      await deliverQueued(b, smtp);
      b.clock.advance(4 * DAY - HOUR);
      assert.equal(await sendDeadlineWarnings(b.deps, { limit: 100 }), 0, 'not before the last day');
      b.clock.advance(2 * HOUR);
      await tick(5);
      assert.equal(await sendDeadlineWarnings(b.deps, { limit: 100 }), 0);
      let mails = await deliverQueued(b, smtp);
      const expiring = mails.filter((m) => m.type === 'signatureExpiringRequesterEmail');
      assert.deepEqual(sent(expiring), ['signatureExpiringRequesterEmail → owner@example.com']);
      assert.deepEqual(
        sent(mails.filter((m) => m.type !== 'signatureExpiringRequesterEmail')),
        ['signatureReminderSigneeEmail → signer1@example.com', 'signatureReminderSigneeEmail → signer2@example.com'],
        'the reminders of day 3 went with the same ticks',
      );
      const res = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${id}/deadline`,
        headers: b.auth,
        payload: { deadline: deadline + 3 * DAY },
      });
      assert.equal(res.statusCode, 200, res.body);
      mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), [
        'signatureDeadlineUpdatedSigneeEmail → signer1@example.com',
        'signatureDeadlineUpdatedSigneeEmail → signer2@example.com',
      ]);
      await tick(3);
      assert.deepEqual(await deliverQueued(b, smtp), [], 'the new deadline is 4 days away');
      b.clock.advance(3 * DAY);
      await tick(3);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), ['signatureExpiringRequesterEmail → owner@example.com']);
    });
  });
}
