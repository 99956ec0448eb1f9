import type { StaticReceiptDeps } from '../anchoring/static-receipts.port.js';
import type { ChainPort } from '../anchoring/chain.port.js';
import type { Clock, Random } from './clock.port.js';
import type { HttpClient } from './http-client.port.js';
import type { JobQueue } from './jobs.port.js';
import type { Store } from './store.port.js';
import type { PlatformSigner } from '../signature-requests/platform-signer.port.js';
import type { SmsProvider } from '../sms/sms.port.js';
import type { MailSettings } from '../mail/mail-settings.port.js';
import type { AttestationService } from '../signature-requests/attestation/attestation.port.js';
import type { SignatureVerifier } from '../anchoring/signature-verifier.port.js';
import type { DocumentDeps } from '../signature-requests/document/document.port.js';
import type { TransparencyDeps } from '../transparency/transparency.port.js';

/** What every use case may be given. Use cases take the parts they need, in one options object. */
export interface AppDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: Random;
  readonly jobs: JobQueue;
  /** Outbound HTTP to user-given URLs (callbacks, identity checks); absent, those calls fail softly. */
  readonly httpClient?: HttpClient;
  /** The Bitcoin node, for receipt verification; absent, a transaction is reported TX_NOT_FOUND. */
  readonly chain?: ChainPort;
  /** SECRET_KEY (configured, or generated once into DATA_DIR): seals secrets at rest. */
  readonly secretKey: string;
  /** The platform key (signatures by delegation, sealed audit trails); absent, those fail with NOT_READY. */
  readonly platformSigner?: PlatformSigner;
  /** The SMS provider (SMS_URL); absent, SMS are kept in the store for the operator. */
  readonly sms?: SmsProvider;
  /** Templates and sender defaults of the workflow's e-mails; absent, a request's events queue no mail. */
  readonly mail?: MailSettings;
  /** Attestation PDFs (renderer, branding images, sharing URL); absent, attestations fail with NOT_READY. */
  readonly attestation?: AttestationService;
  /** Signature anchors' signatures verified off the event loop (VERIFY_THREADS); absent, verified inline. */
  readonly signatureVerifier?: SignatureVerifier;
  /** The files to sign (object store, retention); absent, uploads and downloads fail with NOT_READY. */
  readonly documents?: DocumentDeps;
  /** Static receipts of confirmed batches (STATIC_RECEIPTS_URL): where they are written and served; absent, none are written. */
  readonly staticReceipts?: StaticReceiptDeps;
  /** The transparency log (docs/transparency-log.md): its origin; absent, nothing is logged nor served under /log/. */
  readonly transparency?: TransparencyDeps;
}
