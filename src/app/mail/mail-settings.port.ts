import type { TemplateEngine } from './template.port.js';

/** What the workflow needs to write its mails: the template engine and the platform's own defaults. */
export interface MailSettings {
  readonly engine: TemplateEngine;
  /** PUBLIC_URL without a trailing slash: the base of every link in a mail. */
  readonly publicUrl: string;
  /** The default sender name (`serviceName`) and address (`serviceEmail`); a request's vars override them. */
  readonly serviceName: string;
  readonly serviceEmail: string;
  /** Domains a request's `serviceEmail` may be in besides SERVICE_EMAIL's (MAIL_SENDER_DOMAINS): see sender.ts. */
  readonly senderDomains?: readonly string[];
}
