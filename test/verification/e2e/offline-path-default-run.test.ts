// tier: slow (spawned processes, Chromium, poppler and qpdf)
/**
 * Issue 31 §4 on the default run (`proofseal start`, what `npm start` runs: embedded store, embedded regtest node,
 * identity server, one process): the README's offline path word for word, then the signed copy checked with the
 * service stopped and each tampered copy refused (./../support/offline-path.ts says what each step asserts).
 */
import { describe } from 'node:test';
import { chromiumSkip } from '../../support/chromium.js';
import { cli, startDefaultRun } from '../../support/default-run.js';
import { offlinePathTests } from '../../support/offline-path.js';

describe('the offline path on the default run', { skip: chromiumSkip() }, () => {
  offlinePathTests(async () => {
    const run = await startDefaultRun({ BATCH_INTERVAL_SECONDS: '2', REGTEST_BLOCK_INTERVAL_SECONDS: '1' });
    return {
      apiUrl: run.apiUrl,
      cli: (args) => cli(args, run.env),
      output: run.output,
      stop: () => run.stop(),
      close: () => run.stop(),
    };
  });
});
