// tier: slow (measured: 12.8 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Mail delivery is fair between accounts, on both stores: behind one account's backlog, another account's
 * invitation goes among the first mails the real SMTP server receives, not after the backlog.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { smtpMailer } from '../../../src/adapters/mail/nodemailer-mailer.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { queueEmails, type QueueEmailInput } from '../../../src/app/mail/queue-email.js';
import { deliverEmailJob } from '../../../src/jobs/mail/deliver-email.job.js';
import { silentLog, testDeps } from '../../support/fixtures.js';
import { startSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();
const BACKLOG = 80;

const mail = (accountId: string, subject: string): QueueEmailInput => ({
  accountId,
  requestId: null,
  type: 'signatureRequestSigneeEmail',
  from: { name: 'ACME Sign', address: 'no-reply@acme.example' },
  to: { name: 'Signer', address: `${subject.replace(/\W/g, '')}@example.com` },
  rendered: { subject, html: `<p>${subject}</p>`, text: subject },
});

for (const kind of kinds) {
  describe(`fair mail delivery on ${kind.name}`, { skip: kind.skip }, () => {
    it("another account's invitation passes one account's backlog", async () => {
      const s = await kind.open();
      const smtp = await startSmtp();
      const engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      const mailer = smtpMailer(smtp.url);
      try {
        await engine.start();
        const store = s.withJobs(engine.sendOn);
        const deps = testDeps(store);
        const a = await createAccount(deps, { email: 'flood@example.com', password: 'correct horse battery' });
        const b = await createAccount(deps, { email: 'quiet@example.com', password: 'correct horse battery' });
        const job = deliverEmailJob({ store, clock: deps.clock, mailer });
        await engine.declare([job]);
        // The backlog: events of ten mails and single mails, all queued before B's one invitation.
        for (let e = 0; e < BACKLOG / 20; e++)
          await store.transaction((tx) =>
            queueEmails(
              { ...deps, store: tx },
              Array.from({ length: 10 }, (_, i) => mail(a.id, `A ${e * 10 + i}`)),
            ),
          );
        for (let i = BACKLOG / 2; i < BACKLOG; i++) await queueEmails(deps, [mail(a.id, `A ${i}`)]);
        await queueEmails(deps, [mail(b.id, 'B invitation')]);
        await engine.work([job]);
        for (let i = 0; smtp.received.length < BACKLOG + 1; i++) {
          if (i > 2400) throw new Error(`only ${smtp.received.length} mails arrived`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const order = smtp.received.map((m) => m.subject);
        const place = order.indexOf('B invitation');
        assert.ok(place >= 0 && place < 8, `B's invitation went out at place ${place} of ${order.length}`);
        const firstOfA = order.filter((x) => x !== 'B invitation').slice(0, 4);
        assert.ok(firstOfA.includes('A 0'), "A's own first mail still goes first among A's");
        assert.equal(new Set(order).size, BACKLOG + 1, 'every mail once');
      } finally {
        await engine.stop();
        mailer.close();
        await smtp.stop();
        await s.destroy();
      }
    });
  });
}
