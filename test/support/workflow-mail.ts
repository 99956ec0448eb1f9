/** Helpers of the workflow mail tests: the mail settings, and delivering the outbox to a real SMTP server. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { smtpMailer } from '../../src/adapters/mail/nodemailer-mailer.js';
import { createVelocityEngine } from '../../src/adapters/templates/velocity-engine.js';
import { deliverEmail } from '../../src/app/mail/deliver-email.js';
import type { MailSettings } from '../../src/app/mail/mail-settings.port.js';
import {
  requestAttachments,
  type AttestationProducer,
  type SignedCopyProducer,
} from '../../src/app/signature-requests/request-attachments.js';
import { openBench, type Bench } from '../signature-requests/fixture.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import type { StoreKind } from './stores.js';

export const MAIL: MailSettings = {
  engine: createVelocityEngine(),
  publicUrl: 'https://sign.example.com',
  serviceName: 'proofseal',
  serviceEmail: 'no-reply@sign.example.com',
};

export interface MailBench {
  readonly b: Bench;
  readonly smtp: TestSmtp;
}

/**
 * Opens a bench on `kind` with the mail settings, and a real SMTP server beside it, before the current
 * suite's tests, and closes both after them; `ready` receives them once open. Call it inside `describe`.
 */
export function mailBenchPerSuite(kind: StoreKind, ready: (opened: MailBench) => void): void {
  let b: Bench | undefined;
  let smtp: TestSmtp | undefined;
  before(async () => {
    b = await openBench(kind, { mail: MAIL });
    smtp = await startSmtp();
    ready({ b, smtp });
  });
  after(async () => {
    await smtp?.stop();
    await b?.close();
  });
}

export interface Delivered {
  readonly type: string;
  readonly to: string;
  readonly mail: ParsedMail;
}

/** Delivers every queued mail (oldest first) to the SMTP server; what it received, with each mail's type. */
export async function deliverQueued(
  b: Bench,
  smtp: TestSmtp,
  producers: { attestation?: AttestationProducer; signedCopy?: SignedCopyProducer } = {},
): Promise<Delivered[]> {
  const mailer = smtpMailer(smtp.url);
  const deps = { store: b.deps.store, clock: b.clock, mailer, attachments: requestAttachments(b.deps, producers) };
  const queued = (await b.deps.store.emails.list({ limit: 1000 })).filter((e) => e.status === 'queued').reverse();
  const out: Delivered[] = [];
  try {
    for (const e of queued) {
      await deliverEmail(deps, { emailId: e.id });
      const mail = smtp.received.find((m) => m.messageId === `<${e.messageId}>`);
      assert.ok(mail, `mail ${e.type} reached the server`);
      out.push({ type: e.type, to: e.to.address, mail });
    }
  } finally {
    mailer.close();
  }
  return out;
}

/** `type → recipient` lines, sorted: what a step sent, compared as a whole. */
export const sent = (mails: readonly Delivered[]): string[] => mails.map((m) => `${m.type} → ${m.to}`).sort();
