/** A file attached to a mail, kept by reference: the PDF or proof is produced again when the mail is sent. */
export interface AttachmentRef {
  readonly kind: 'attestation' | 'signer-proof';
  readonly requestId: string;
  /** The signer, for a signer's proof. */
  readonly signerId?: string;
}

export type EmailStatus = 'queued' | 'sent' | 'stored' | 'failed';

export interface Email {
  readonly id: string;
  readonly messageId: string;
  readonly accountId: string | null;
  readonly requestId: string | null;
  readonly type: string;
  readonly from: { readonly name: string; readonly address: string };
  readonly to: { readonly name: string; readonly address: string };
  /** Where a reply goes (the requester, or the signer of a feedback); absent or null: no Reply-To header. */
  readonly replyTo?: { readonly name: string; readonly address: string } | null;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly attachments: readonly AttachmentRef[];
  readonly status: EmailStatus;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly created: number;
  readonly sentAt: number | null;
}

export interface EmailRepository {
  insert(email: Email): Promise<void>;
  /** Several mails in one statement (the mails of one event). */
  insertMany(emails: readonly Email[]): Promise<void>;
  findById(id: string): Promise<Email | null>;
  /** How many of the account's mails are still queued, counted up to `cap` (the account's backlog). */
  countQueued(accountId: string, cap: number): Promise<number>;
  /** Newest first. */
  list(opts: { readonly limit: number; readonly requestId?: string }): Promise<Email[]>;
  markDelivered(id: string, status: 'sent' | 'stored', at: number): Promise<void>;
  recordFailure(id: string, error: string): Promise<void>;
}

/** A file to attach, as sent. */
export interface Attachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
  /** A line the mail gains about this file (why it is not the one expected), added to its text and HTML. */
  readonly note?: string;
}

/** Sends one mail through SMTP, or keeps it (the default run). */
export interface Mailer {
  /** `sent` when a server accepted it, `stored` when it was only kept. @throws on a failure worth retrying */
  send(mail: Email, attachments: readonly Attachment[]): Promise<'sent' | 'stored'>;
}
