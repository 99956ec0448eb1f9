/**
 * Mailers on nodemailer: SMTP for production (`SMTP_URL`), and for the default run a mailer that builds
 * the very same message and keeps it as an `.eml` file under `DATA_DIR/mail/` (owner-only), so a newcomer
 * can open every mail the workflow sent.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Attachment, Email, Mailer } from '../../app/mail/email.port.js';

function message(email: Email, attachments: readonly Attachment[]): Mail.Options {
  return {
    from: { name: email.from.name, address: email.from.address },
    to: { name: email.to.name, address: email.to.address },
    ...(email.replyTo && { replyTo: { name: email.replyTo.name, address: email.replyTo.address } }),
    subject: email.subject,
    html: email.html,
    text: email.text,
    messageId: `<${email.messageId}>`,
    date: new Date(email.created),
    attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** Sends through the SMTP server of `SMTP_URL` (`smtp://user:pass@host:port`, `smtps://…` for TLS from the start). */
export function smtpMailer(smtpUrl: string, opts: { timeoutMs?: number } = {}): Mailer & { close(): void } {
  const timeout = opts.timeoutMs ?? 30_000;
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    // Connections kept open and reused (one per mail a worker sends at once: MAIL_CONCURRENCY), instead of a
    // connection, greeting and QUIT per mail.
    pool: true,
    maxConnections: 4,
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(email, attachments) {
      await transport.sendMail(message(email, attachments));
      return 'sent';
    },
    close: () => transport.close(),
  };
}

/** Keeps each mail as `<DATA_DIR>/mail/<created>-<id>.eml`. */
export function fileMailer(dir: string): Mailer {
  const build = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(email, attachments) {
      const info = (await build.sendMail(message(email, attachments))) as { message: Buffer };
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(path.join(dir, `${email.created}-${email.id}.eml`), info.message, { mode: 0o600 });
      return 'stored';
    },
  };
}
