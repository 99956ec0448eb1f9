// tier: slow (over 10 s of tests)
/** The e-mail outbox on both stores: written in the event's transaction, delivered by a job to a real SMTP server, an outage loses nothing and doubles nothing. */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { createJobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { fileMailer, smtpMailer } from '../../../src/adapters/mail/nodemailer-mailer.js';
import { deliverEmail } from '../../../src/app/mail/deliver-email.js';
import { queueEmail, type QueueEmailInput } from '../../../src/app/mail/queue-email.js';
import type { Store } from '../../../src/app/shared/store.port.js';
import { deliverEmailJob } from '../../../src/jobs/mail/deliver-email.job.js';
import { recordingJobs, silentLog, testDeps } from '../../support/fixtures.js';
import { startSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();

const mail = (n: number, over: Partial<QueueEmailInput> = {}): QueueEmailInput => ({
  accountId: null,
  requestId: null,
  type: 'signatureRequestSigneeEmail',
  from: { name: 'ACME Sign', address: 'no-reply@acme.example' },
  to: { name: `Signer ${n}`, address: `signer${n}@example.com` },
  rendered: { subject: `Please sign #${n}`, html: `<p>Hello <b>${n}</b></p>`, text: `Hello ${n}` },
  ...over,
});

async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const kind of kinds) {
  describe(`e-mail delivery on ${kind.name}`, { skip: kind.skip }, () => {
    it('a mail queued in a transaction that rolls back never exists; a committed one reaches the SMTP server whole', async () => {
      const s = await kind.open();
      const smtp = await startSmtp();
      const engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      const mailer = smtpMailer(smtp.url);
      try {
        await engine.start();
        const store: Store = s.withJobs(engine.sendOn);
        const deps = testDeps(store);
        const job = deliverEmailJob({ store, clock: deps.clock, mailer }, { limit: 3, delaySeconds: 1 });
        await engine.declare([job]);
        await assert.rejects(
          store.transaction(async (tx) => {
            await queueEmail({ ...deps, store: tx }, mail(0));
            throw new Error('the event failed');
          }),
        );
        const queued = await store.transaction((tx) => queueEmail({ ...deps, store: tx }, mail(1)));
        assert.equal((await store.emails.list({ limit: 10 })).length, 1, 'only the committed mail exists');
        await engine.work([job]);
        await until(() => smtp.received.length === 1, 15_000, 'the mail');
        const got = smtp.received[0]!;
        assert.equal(got.subject, 'Please sign #1');
        assert.deepEqual(got.from?.value, [{ name: 'ACME Sign', address: 'no-reply@acme.example' }]);
        assert.deepEqual(got.to && !Array.isArray(got.to) ? got.to.value : [], [
          { name: 'Signer 1', address: 'signer1@example.com' },
        ]);
        assert.equal(got.html, '<p>Hello <b>1</b></p>');
        assert.equal(got.text?.trim(), 'Hello 1');
        assert.equal(got.messageId, `<${queued.messageId}>`);
        await until(async () => (await store.emails.findById(queued.id))?.status === 'sent', 5000, 'status sent');
      } finally {
        await engine.stop();
        mailer.close();
        await smtp.stop();
        await s.destroy();
      }
    });

    it('the SMTP server stops mid-run: nothing is lost, nothing is sent twice after it is back', async () => {
      const s = await kind.open();
      const smtp = await startSmtp();
      const engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      const mailer = smtpMailer(smtp.url, { timeoutMs: 2000 });
      try {
        await engine.start();
        const store: Store = s.withJobs(engine.sendOn);
        const deps = testDeps(store);
        const job = deliverEmailJob({ store, clock: deps.clock, mailer }, { limit: 20, delaySeconds: 1 });
        await engine.declare([job]);
        await engine.work([job]);
        for (let n = 0; n < 5; n++) await queueEmail(deps, mail(n));
        await until(() => smtp.received.length === 5, 20_000, 'the first five mails');
        await smtp.stop();
        for (let n = 5; n < 10; n++) await queueEmail(deps, mail(n));
        await until(
          async () => (await store.emails.list({ limit: 20 })).filter((e) => e.lastError !== null).length >= 5,
          20_000,
          'failed attempts during the outage',
        );
        assert.equal(smtp.received.length, 5, 'nothing delivered while the server is down');
        await smtp.restart();
        await until(() => smtp.received.length >= 10, 30_000, 'every mail after the outage');
        await until(
          async () => (await store.emails.list({ limit: 20 })).every((e) => e.status === 'sent'),
          10_000,
          'every mail marked sent',
        );
        // What could still send: a handler running now, or a job run again later. A graceful stop waits for
        // the running ones; a second run of every delivery (what a retry or a crash would start) is made here.
        await engine.stop();
        const rows = await store.emails.list({ limit: 20 });
        assert.equal(rows.length, 10);
        for (const row of rows)
          assert.equal(await deliverEmail({ store, clock: deps.clock, mailer }, { emailId: row.id }), 'sent');
        const ids = smtp.received.map((m) => m.messageId);
        assert.equal(ids.length, 10, 'ten mails received');
        assert.equal(new Set(ids).size, 10, 'none twice');
        assert.ok(rows.filter((r) => r.attempts > 1).length >= 5, 'the mails of the outage were retried');
      } finally {
        await engine.stop();
        mailer.close();
        await smtp.stop().catch(() => undefined);
        await s.destroy();
      }
    });
  });
}

describe('e-mails of the default run', () => {
  it('are kept as owner-only .eml files that a mail reader opens; header injection through names is impossible', async () => {
    const [kind] = kinds;
    const s = await kind!.open();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'proofseal-mail-'));
    try {
      const store = s.withJobs(() => recordingJobs());
      const deps = testDeps(store);
      const email = await queueEmail(
        deps,
        mail(1, { to: { name: 'Eve\r\nBcc: thief@evil.example', address: 'eve@example.com' } }),
      );
      const status = await deliverEmail({ store, clock: deps.clock, mailer: fileMailer(dir) }, { emailId: email.id });
      assert.equal(status, 'stored');
      const [file] = await readdir(dir);
      assert.equal((await stat(path.join(dir, file!))).mode & 0o077, 0, 'owner only');
      const parsed = await simpleParser(await readFile(path.join(dir, file!)));
      assert.equal(parsed.subject, 'Please sign #1');
      assert.equal(parsed.headers.get('bcc'), undefined, 'no Bcc header injected');
      assert.equal(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.length : 0, 1);
      assert.equal((await store.emails.findById(email.id))?.status, 'stored');
      assert.equal(
        await deliverEmail({ store, clock: deps.clock, mailer: fileMailer(dir) }, { emailId: email.id }),
        'stored',
      );
      assert.equal((await readdir(dir)).length, 1, 'a second run writes nothing more');
    } finally {
      await rm(dir, { recursive: true, force: true });
      await s.destroy();
    }
  });
});
