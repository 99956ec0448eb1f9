/**
 * The mail queue, on each store (PGlite and PostgreSQL): (1) the drain rate, mails/s from the outbox through
 * the job engine (four workers, pooled SMTP connections) to an SMTP server in this process (`smtp-server`),
 * for a backlog queued before the workers start; (2) fairness: behind account A's backlog, one invitation of
 * account B is queued, and the bench prints the place B's mail took among those received and how long after
 * its queueing it arrived. Printed beside references measured in the same run: the same mails sent straight
 * through the SMTP mailer with as many at once (no outbox, no queue: the ceiling of the drain), a bare
 * node:http server's requests/s, and the load average. Figures are printed, never asserted.
 *   node --import tsx bench/mail-queue.bench.ts [--backlog 1000]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createJobEngine } from '../src/adapters/jobs/job-engine.js';
import { smtpMailer } from '../src/adapters/mail/nodemailer-mailer.js';
import { createAccount } from '../src/app/accounts/create-account.js';
import type { Email } from '../src/app/mail/email.port.js';
import { queueEmails, type QueueEmailInput } from '../src/app/mail/queue-email.js';
import { deliverEmailJob, MAIL_CONCURRENCY } from '../src/jobs/mail/deliver-email.job.js';
import { silentLog, testDeps } from '../test/support/fixtures.js';
import { storeKinds, type StoreKind } from '../test/support/stores.js';
import { bareHttpPerSecond } from './lib/references.js';

const { values: args } = parseArgs({ options: { backlog: { type: 'string', default: '1000' } } });
const BACKLOG = Number(args.backlog);

/** An SMTP server that reads each message whole and notes its subject and when it came. */
async function startSink() {
  const received: { subject: string; at: number }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 4096) head += c.toString('utf8');
      });
      stream.on('end', () => {
        received.push({ subject: /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '', at: performance.now() });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

const HTML = `<p>${'Please sign the lease. '.repeat(60)}</p>`;

const input = (accountId: string, subject: string): QueueEmailInput => ({
  accountId,
  requestId: null,
  type: 'signatureRequestSigneeEmail',
  from: { name: 'proofseal', address: 'no-reply@sign.example.com' },
  to: { name: 'Signer', address: 'signer@example.com' },
  rendered: { subject, html: HTML, text: subject },
});

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

/** The same mails straight through the SMTP mailer, MAIL_CONCURRENCY at a time: the ceiling of the drain. */
async function directPerSecond(count: number): Promise<number> {
  const sink = await startSink();
  const mailer = smtpMailer(sink.url);
  const mail = (n: number): Email => ({
    id: `direct-${n}`,
    messageId: `direct-${n}@sign.example.com`,
    accountId: null,
    requestId: null,
    type: 'signatureRequestSigneeEmail',
    from: input('', '').from,
    to: input('', '').to,
    subject: `D ${n}`,
    html: HTML,
    text: `D ${n}`,
    attachments: [],
    status: 'queued',
    attempts: 0,
    lastError: null,
    created: Date.now(),
    sentAt: null,
  });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: MAIL_CONCURRENCY }, async () => {
      while (next < count) await mailer.send(mail(next++), []);
    }),
  );
  const perSecond = count / ((performance.now() - t0) / 1000);
  mailer.close();
  await sink.stop();
  return perSecond;
}

async function queueRun(kind: StoreKind) {
  const s = await kind.open();
  const sink = await startSink();
  const engine = createJobEngine(s.db, silentLog);
  const mailer = smtpMailer(sink.url);
  try {
    await engine.start();
    const store = s.withJobs(engine.sendOn);
    const deps = testDeps(store);
    const a = await createAccount(deps, { email: 'flood@example.com', password: 'correct horse battery' });
    const b = await createAccount(deps, { email: 'quiet@example.com', password: 'correct horse battery' });
    const job = deliverEmailJob({ store, clock: deps.clock, mailer });
    await engine.declare([job]);
    for (let i = 0; i < BACKLOG; i += 10)
      await queueEmails(
        deps,
        Array.from({ length: Math.min(10, BACKLOG - i) }, (_, k) => input(a.id, `A ${i + k}`)),
      );
    const t0 = performance.now();
    await engine.work([job]);
    // B's invitation comes once A's backlog is being drained (a tenth of it sent), as in the report.
    await waitFor(() => sink.received.length >= BACKLOG / 10);
    const bQueued = performance.now();
    await queueEmails(deps, [input(b.id, 'B invitation')]);
    await waitFor(() => sink.received.length >= BACKLOG + 1);
    const seconds = (performance.now() - t0) / 1000;
    const bPlace = sink.received.findIndex((r) => r.subject === 'B invitation');
    const behind = bPlace - sink.received.filter((r, i) => i < bPlace && r.at <= bQueued).length;
    return {
      perSecond: (BACKLOG + 1) / seconds,
      bDelayMs: sink.received[bPlace]!.at - bQueued,
      aSentBeforeB: behind,
    };
  } finally {
    await engine.stop();
    mailer.close();
    await sink.stop();
    await s.destroy();
  }
}

const bare = await bareHttpPerSecond(8);
const direct = await directPerSecond(BACKLOG);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `\n[mail queue] ${BACKLOG} mails of account A queued, then one of B; load average ${load()} (${os.cpus().length} cores)`,
);
for (const kind of await storeKinds()) {
  if (kind.skip) {
    console.log(`  ${kind.name}: skipped (${kind.skip})`);
    continue;
  }
  const r = await queueRun(kind);
  console.log(
    `  ${kind.name}: drained ${Math.round(r.perSecond)} mails/s; B's invitation arrived ${Math.round(r.bDelayMs)} ms after its queueing, after ${r.aSentBeforeB} of A's mails sent meanwhile (load ${load()})`,
  );
}
console.log(
  `  reference, straight through the SMTP mailer, ${MAIL_CONCURRENCY} at a time: ${Math.round(direct)} mails/s`,
);
console.log(`  reference, bare node:http, 8 keep-alive clients: ${Math.round(bare)} requests/s`);
