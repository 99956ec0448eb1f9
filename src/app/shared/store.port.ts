import type { StaticReceiptRepository } from '../anchoring/static-receipts.port.js';
import type { TlogRepository } from '../transparency/tlog.port.js';
import type { AccountRepository, SettingRepository, TokenRepository } from '../accounts/account.port.js';
import type { AnchorRepository } from '../anchoring/anchor.port.js';
import type { AttemptCounterRepository } from '../accounts/attempt-counter.port.js';
import type { BatchRepository, BtcTxRepository } from '../anchoring/bitcoin.port.js';
import type { CallbackRepository } from '../callbacks/callback.port.js';
import type { IdentityKeyRepository, IdentityTokenRepository } from '../identity/identity.port.js';
import type { UtxoStore } from '../anchoring/utxo.port.js';
import type { EmailRepository } from '../mail/email.port.js';
import type { StoreJobQueue } from './jobs.port.js';
import type { OtpRepository } from '../signature-requests/otp/otp.port.js';
import type { SmsRepository } from '../sms/sms-outbox.port.js';
import type { RequestMailMarkRepository } from '../signature-requests/request-mail.port.js';
import type { SignatureRequestRepository } from '../signature-requests/signature-request.port.js';
import type {
  AttestationRepository,
  SignedCopyRepository,
} from '../signature-requests/attestation/attestation.port.js';
import type { RequestDocumentRepository } from '../signature-requests/document/document.port.js';

export interface TransactionOptions {
  /** The key of a unit of work that may share its transaction (a signature request's id): one run of a key at a time. */
  readonly unitKey?: string;
}

/**
 * The Store: every repository the use cases need, on PostgreSQL or on the embedded PostgreSQL.
 * `transaction` gives a Store whose repositories all write in one database transaction, and whose
 * `jobs` enqueue in that same transaction: a change, its audit events and the work it sets off
 * (callbacks, e-mails, SMS, jobs) commit together or not at all.
 */
export interface Store {
  readonly kind: 'postgres' | 'embedded';
  readonly accounts: AccountRepository;
  readonly tokens: TokenRepository;
  readonly settings: SettingRepository;
  readonly identityKeys: IdentityKeyRepository;
  readonly identityTokens: IdentityTokenRepository;
  readonly anchors: AnchorRepository;
  readonly callbacks: CallbackRepository;
  readonly batches: BatchRepository;
  readonly btcTxs: BtcTxRepository;
  readonly utxos: UtxoStore;
  /** Attempt counters shared by every process (failed-login limits). */
  readonly attempts: AttemptCounterRepository;
  readonly emails: EmailRepository;
  readonly otps: OtpRepository;
  readonly sms: SmsRepository;
  readonly signatureRequests: SignatureRequestRepository;
  /** The once-only moments of the signature requests' mail flow (invitations, reminders, warnings). */
  readonly requestMailMarks: RequestMailMarkRepository;
  /** Attestation PDFs of COMPLETED/CLOSED requests, kept once made. */
  readonly attestations: AttestationRepository;
  /** Signed copies of uploaded PDFs (the part after the original's bytes), kept once made. */
  readonly signedCopies: SignedCopyRepository;
  /** Requests' references to their uploaded files (the bytes are in the DocumentObjectStore). */
  readonly requestDocuments: RequestDocumentRepository;
  /** How far the static receipts of settled batches are written (STATIC_RECEIPTS_URL). */
  readonly staticReceipts: StaticReceiptRepository;
  /** The transparency log (docs/transparency-log.md): its tiles, checkpoints and pending signing events. */
  readonly tlog: TlogRepository;
  /** The job queue, on this store's connection: inside `transaction`, a job is sent only if the transaction commits. */
  readonly jobs: StoreJobQueue;
  /**
   * Runs `fn` in one database transaction (inside a transaction, it joins it). With `unitKey`, `fn` is a
   * unit of work the store may run in one database transaction together with the units of other keys
   * arriving at the same moment (src/adapters/store/unit-of-work.ts): then `fn` may run twice, the first
   * run rolled back with a failing neighbour, so it must have no effect outside the store.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
}
