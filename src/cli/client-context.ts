import type { LocalCredentials } from '../app/accounts/bootstrap-default-run.js';
import type { ChainPort } from '../app/anchoring/chain.port.js';
import type { Signer } from '../app/identity/signer.port.js';
import type { Random } from '../app/shared/clock.port.js';
import type { HttpClient } from '../app/shared/http-client.port.js';
import type { PdfAttachmentReader } from '../app/signature-requests/pdf-attachments.port.js';
import type { TimestampTokenReader } from '../app/signature-requests/timestamp-token.port.js';
import type { ServiceApi, ServiceApiOptions } from '../app/shared/service-api.port.js';
import type { CliEnv } from '../config.js';

/**
 * What the client commands reach the world through. Built by the composition root (`src/client-runtime.ts`)
 * and given to every command, so commands hold no adapter of their own and tests can hand in fakes.
 */
export interface ClientAdapters {
  /** A JSON client of a proofseal service (the API or an identity server). */
  serviceApi(options: ServiceApiOptions): ServiceApi;
  /** The Signer of a remote identity server (`GET <baseUrl>/sign` with an identity API token). */
  identitySigner(options: { baseUrl: string; token: string; startHint?: string }): Signer;
  /** A Bitcoin node's JSON-RPC at `rpcUrl` (`verify --rpc-url`). */
  bitcoinNode(rpcUrl: string): ChainPort;
  /** Outbound HTTP for the identity check made from this machine (the user's own network, private addresses allowed). */
  readonly httpClient: HttpClient;
  readonly random: Random;
  /** The files a PDF carries (`verify <signed-copy.pdf>` reads its proof bundle). */
  readonly pdfAttachments: PdfAttachmentReader;
  /** Reads and checks a bundle's RFC 3161 tokens (`rfc3161Timestamps`). */
  readonly timestampTokens: TimestampTokenReader;
  /** The credentials of the default run in `<dataDir>/credentials.json`, or null when there are none. */
  readCredentials(dataDir: string): Promise<Partial<LocalCredentials> | null>;
}

export interface ClientContext {
  readonly env: CliEnv;
  readonly dataDir: string;
  readonly out: (line: string) => void;
  readonly adapters: ClientAdapters;
}
