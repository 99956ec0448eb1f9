/** The context of a CLI client command in tests: no environment settings, lines collected by `out`. */
import type { ClientContext } from '../../src/cli/client-context.js';
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
