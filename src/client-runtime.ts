/**
 * The composition root of the command-line client: builds the adapters the client commands use (HTTP to
 * the service and the identity server, a Bitcoin node, outbound fetch, the local credentials file).
 */
import { BitcoinRpcClient } from './adapters/chain/bitcoin-rpc.js';
import { ServiceClient } from './adapters/client/service-client.js';
import { httpSigner } from './adapters/identity/http-signer.js';
import { createSafeFetch } from './adapters/net/safe-fetch.js';
import { pdfAttachmentReader } from './adapters/pdf/pdf-attachment-reader.js';
import { pkijsTimestampTokenReader } from './adapters/pdf/timestamp-token-reader.js';
import { readCredentialsFile } from './adapters/system/credentials-file.js';
import { systemRandom } from './adapters/system/system.js';
import type { ClientAdapters } from './cli/client-context.js';

/** The client's adapters, for real. */
export function clientAdapters(): ClientAdapters {
  return {
    serviceApi: (options) => new ServiceClient(options),
    identitySigner: (options) => httpSigner(options),
    bitcoinNode: (rpcUrl) => new BitcoinRpcClient({ url: rpcUrl }),
    // The identity server of the default run is on this machine: the user's own client may reach it.
    httpClient: createSafeFetch({ allowPrivateUrls: true }),
    random: systemRandom,
    pdfAttachments: pdfAttachmentReader(),
    timestampTokens: pkijsTimestampTokenReader(),
    readCredentials: readCredentialsFile,
  };
}
