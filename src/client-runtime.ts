/**
 * The composition root of the command-line client: builds the adapters the client commands use (HTTP to
 * the service and the identity server, a Bitcoin node, outbound fetch, the local credentials file). The PDF
 * and RFC 3161 readers are loaded on first use: most commands never read a PDF, and each command is a new
 * process that would pay for loading them (issue 33).
 */
import { BitcoinRpcClient } from './adapters/chain/bitcoin-rpc.js';
import { ServiceClient } from './adapters/client/service-client.js';
import { httpSigner } from './adapters/identity/http-signer.js';
import { createSafeFetch } from './adapters/net/safe-fetch.js';
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
    pdfAttachments: {
      embeddedFiles: async (pdf) =>
        (await import('./adapters/pdf/pdf-attachment-reader.js')).pdfAttachmentReader().embeddedFiles(pdf),
    },
    timestampTokens: {
      read: async (token, message) =>
        (await import('./adapters/pdf/timestamp-token-reader.js')).pkijsTimestampTokenReader().read(token, message),
    },
    readCredentials: readCredentialsFile,
  };
}
