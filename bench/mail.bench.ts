/**
 * E-mails: (1) mails rendered per second from a requester's custom Velocity template (compiled with each
 * mail, as the workflow does) and from the default template, with the full context of a signer's
 * invitation; (2) mails delivered per second through the SMTP mailer (nodemailer, at most four pooled connections,
 * as in production) to an SMTP server in this process (`smtp-server`, reading each message whole).
 * Printed beside references measured in the same run: libsecp256k1 recoveries/s on one core and a bare
 * node:http server's requests/s, and the load average. Figures are printed, never asserted.
 *   node --import tsx bench/mail.bench.ts [--renders 5000] [--mails 500] [--concurrency 8]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { smtpMailer } from '../src/adapters/mail/nodemailer-mailer.js';
import { createVelocityEngine } from '../src/adapters/templates/velocity-engine.js';
import type { Email } from '../src/app/mail/email.port.js';
import { renderEmail } from '../src/app/mail/render-email.js';
import { mailContext } from '../src/core/mail/mail-context.js';
import { bareHttpPerSecond, recoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({
  options: {
    renders: { type: 'string', default: '5000' },
    mails: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '8' },
  },
});

const CUSTOM = {
  signatureRequestSigneeEmailSubjectTemplate: '#if($lang == "fr")Signez#else Please sign#end « $documentName »',
  signatureRequestSigneeEmailContentTemplate: `<h1 style="color:$brandColor1">$serviceName</h1>
<p>Hello $signeeName, $requesterName asks you to sign "$documentName".</p>
#set($n = 0)
<ul>#foreach($item in ["terms", "annex A", "annex B"])#set($n = $n + 1)<li>$n. $item</li>#end</ul>
#if($requiresOTP)<p>You will get a code by SMS.</p>#elseif($lang == "fr")<p>Pas de code.</p>#else<p>No code.</p>#end
<p><a href="$signingURL?srURL=$tools.urlEncode($signatureRequestURL)">Sign</a> · $!missing · \${org}</p>`,
  org: 'Acme & Co',
};

function context(vars: Record<string, string>) {
  return mailContext({
    baseUrl: 'https://sign.example.com',
    platform: { serviceName: 'proofseal', serviceEmail: 'no-reply@sign.example.com' },
    defaultSigningUrl: 'https://sign.example.com/sign',
    request: {
      id: '0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20',
      name: 'Lease <2026>',
      state: 'IN_PROGRESS',
      deadline: Date.UTC(2026, 11, 1, 17),
      fileName: 'lease.pdf',
      fileURL: null,
      lang: 'en',
      vars,
    },
    requester: { firstName: 'Olive', lastName: 'Owner', email: 'olive@example.com' },
    sharingUrl: 'https://sign.example.com/share/0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20/token',
    recipient: {
      kind: 'signee',
      email: 'ann@example.com',
      commonName: 'Ann Lee',
      signerSecret: 'a'.repeat(43),
      requiresOTP: true,
      lang: null,
      vars: {},
    },
  });
}

function rendersPerSecond(vars: Record<string, string>, count: number): { perSecond: number; bytes: number } {
  const engine = createVelocityEngine();
  const ctx = context(vars);
  let bytes = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++)
    bytes = renderEmail(engine, { type: 'signatureRequestSigneeEmail', context: ctx }).html.length;
  return { perSecond: count / ((performance.now() - t0) / 1000), bytes };
}

async function startSink(): Promise<{ url: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received: () => received, stop: () => new Promise((r) => server.close(r)) };
}

async function deliveriesPerSecond(
  count: number,
  concurrency: number,
): Promise<{ perSecond: number; received: number }> {
  const sink = await startSink();
  const mailer = smtpMailer(sink.url);
  const engine = createVelocityEngine();
  const rendered = renderEmail(engine, { type: 'signatureRequestSigneeEmail', context: context({}) });
  const mail = (n: number): Email => ({
    id: `bench-${n}`,
    messageId: `bench-${n}@sign.example.com`,
    accountId: null,
    requestId: null,
    type: 'signatureRequestSigneeEmail',
    from: { name: 'proofseal', address: 'no-reply@sign.example.com' },
    to: { name: `Signer ${n}`, address: `signer${n}@example.com` },
    ...rendered,
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
    Array.from({ length: concurrency }, async () => {
      while (next < count) await mailer.send(mail(next++), []);
    }),
  );
  const perSecond = count / ((performance.now() - t0) / 1000);
  mailer.close();
  const received = sink.received();
  await sink.stop();
  return { perSecond, received };
}

const renders = Number(args.renders);
const mails = Number(args.mails);
const concurrency = Number(args.concurrency);
const recover = await recoveriesPerSecond();
const bare = await bareHttpPerSecond(concurrency);
const custom = rendersPerSecond(CUSTOM, renders);
const standard = rendersPerSecond({}, renders);
const delivered = await deliveriesPerSecond(mails, concurrency);
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(`\n[mail] load average ${load} (${os.cpus().length} cores)`);
console.log(
  `  rendered from a custom template (compiled each time): ${Math.round(custom.perSecond)} mails/s (${custom.bytes} B of HTML)`,
);
console.log(
  `  rendered from the default template: ${Math.round(standard.perSecond)} mails/s (${standard.bytes} B of HTML)`,
);
console.log(
  `  delivered to the local SMTP server, ${concurrency} at a time over at most 4 pooled connections: ${Math.round(delivered.perSecond)} mails/s (${delivered.received}/${mails} received)`,
);
console.log(`  reference, bare node:http, ${concurrency} keep-alive clients: ${Math.round(bare)} requests/s`);
console.log(`  reference, secp256k1 (${recover.backend}) recoveries on one core: ${Math.round(recover.perSecond)}/s`);
