/** The context of a CLI client command in tests: no environment settings, lines collected by `out`. */
import { UsageError } from '../../src/cli/args.js';
import type { ClientContext } from '../../src/cli/client-context.js';
import { verifyCommand } from '../../src/cli/verify-command.js';
import { clientAdapters } from '../../src/client-runtime.js';

/** A client context with an empty environment (flags give every setting), on the real client adapters. */
export function testClientContext(
  dataDir: string,
  out: (line: string) => void,
  adapters: Partial<ClientContext['adapters']> = {},
): ClientContext {
  return {
    env: {
      apiUrl: undefined,
      identityUrl: undefined,
      apiToken: undefined,
      login: undefined,
      password: undefined,
      identityToken: undefined,
    },
    dataDir,
    out,
    adapters: { ...clientAdapters(), ...adapters },
  };
}

/**
 * `proofseal verify <args>` as a user runs it, on a client context in `dataDir`: its lines and its exit code
 * (2 for a usage error, whose message is then the output).
 */
export async function runVerify(dataDir: string, args: string[]): Promise<{ code: number | undefined; out: string }> {
  const lines: string[] = [];
  process.exitCode = undefined;
  try {
    await verifyCommand(
      args,
      testClientContext(dataDir, (l) => lines.push(l)),
    );
    return { code: process.exitCode, out: lines.join('\n') };
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, out: err.message };
    throw err;
  } finally {
    process.exitCode = undefined;
  }
}
