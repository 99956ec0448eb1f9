import type { ClientContext } from './client-context.js';

export type { ClientContext };

type ClientCommand = (args: string[], ctx: ClientContext) => Promise<void>;

/**
 * The client commands of `npx proofseal`: they talk to a running service over HTTP, never to the store. Each
 * command's module is loaded when that command runs, so one command does not pay for the others' libraries.
 */
export const CLIENT_COMMANDS: Readonly<Record<string, ClientCommand>> = {
  seal: async (args, ctx) => (await import('./seal-command.js')).sealCommand(args, ctx),
  verify: async (args, ctx) => (await import('./verify-command.js')).verifyCommand(args, ctx),
  receipt: async (args, ctx) => (await import('./lookup-commands.js')).receiptCommand(args, ctx),
  find: async (args, ctx) => (await import('./lookup-commands.js')).findCommand(args, ctx),
};

export const CLIENT_USAGE = `  seal <file> [--private] [--name N] [--confirmed] [--identity ALL|CN,O,OU,L,C,EMAILADDRESS] [--timeout S]
                                  hash, sign, anchor; save <file>.receipt.json once SENT (or CONFIRMED)
  verify <file> [<receipt.json>] [--rpc-url URL]   verify locally and in Bitcoin (exit 0 verified, 1 not)
  verify <file> <proof-bundle.json | PDF carrying it> --headers FILE | --rpc-url URL | --explorer URL
                                  a whole proof bundle with no proofseal server: its JSON, or the PDF that carries it
                                  (attestation.pdf, a signed copy); prints the block relied on
  verify <signed-copy.pdf> --headers FILE | --rpc-url URL | --explorer URL
                                  a signed copy alone: the original inside it, checked with the bundle it carries
    [--log-vkey KEY]              with either: check the transparency log's checkpoint under its verifier key
                                  (the one its operator publishes); without it, its signature is not checked
  receipt <anchorId> [--out FILE]  fetch a receipt
  find <file>                      public anchors of the file's hash
  client options: --api-url --identity-url --token --login --password --identity-token --json
    (env PROOFSEAL_API_URL, PROOFSEAL_IDENTITY_URL, PROOFSEAL_TOKEN, PROOFSEAL_LOGIN, PROOFSEAL_PASSWORD,
     PROOFSEAL_IDENTITY_TOKEN; default: the default run on this machine and DATA_DIR/credentials.json)`;
