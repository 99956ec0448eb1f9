// tier: slow (spawned processes, Chromium, poppler and qpdf)
/**
 * Issue 31 §4 on PostgreSQL with one `proofseal start --role api` and one `--role worker` process, set up as the
 * README's "Running on PostgreSQL and with several processes" says (../support/role-split-run.ts). Bitcoin is the
 * worker's embedded regtest node: the api process has none, so what it serves must come from the store alone,
 * and `proofseal headers` reads the node through DATA_DIR/regtest-rpc.url. Then the same offline path as on the
 * default run (../support/offline-path.ts). test/verification/e2e/offline-verify.test.ts runs a split on a node of the
 * operator's own (BITCOIN_RPC_URL) with a time-stamping authority.
 */
import { describe } from 'node:test';
import { chromiumSkip } from '../../support/chromium.js';
import { offlinePathTests } from '../../support/offline-path.js';
import { startRoleSplit } from '../../support/role-split-run.js';
import { storeKinds } from '../../support/stores.js';

const [, postgres] = await storeKinds();

describe(
  'the offline path on PostgreSQL, --role api + --role worker',
  { skip: postgres!.skip || chromiumSkip() },
  () => {
    offlinePathTests(() => startRoleSplit());
  },
);
