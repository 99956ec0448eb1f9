import { findCommand, receiptCommand } from './lookup-commands.js';
import { sealCommand, type ClientContext } from './seal-command.js';
import { verifyCommand } from './verify-command.js';

export type { ClientContext };

/** The client commands of `npx proofseal`: they talk to a running service over HTTP, never to the store. */
export const CLIENT_COMMANDS: Readonly<Record<string, (args: string[], ctx: ClientContext) => Promise<void>>> = {
  seal: sealCommand,
  verify: verifyCommand,
  receipt: receiptCommand,
  find: findCommand,
};

export const CLIENT_USAGE = `  seal <file> [--private] [--name N] [--confirmed] [--identity ALL|CN,O,OU,L,C,EMAILADDRESS] [--timeout S]
                                  hash, sign, anchor; save <file>.receipt.json once SENT (or CONFIRMED)
  verify <file> [<receipt.json>] [--rpc-url URL]   verify locally and in Bitcoin (exit 0 verified, 1 not)
  verify <file> <proof-bundle.json> --headers FILE | --rpc-url URL | --explorer URL
                                  verify a whole bundle with no proofseal server; prints the block relied on
  receipt <anchorId> [--out FILE]  fetch a receipt
  find <file>                      public anchors of the file's hash
  client options: --api-url --identity-url --token --login --password --identity-token --json
    (env PROOFSEAL_API_URL, PROOFSEAL_IDENTITY_URL, PROOFSEAL_TOKEN, PROOFSEAL_LOGIN, PROOFSEAL_PASSWORD,
     PROOFSEAL_IDENTITY_TOKEN; default: the default run on this machine and DATA_DIR/credentials.json)`;
