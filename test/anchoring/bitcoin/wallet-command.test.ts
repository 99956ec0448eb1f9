// tier: slow (spawned processes)
/** `proofseal wallet` as an operator runs it: the address, balance and network; `wallet import` of a deposit on a real node. */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import { runProofseal } from '../../support/processes.js';
import { regtestEnv } from '../../support/regtest-fixture.js';

describe('proofseal wallet', () => {
  const dataDir = `/tmp/proofseal-wallet-${process.pid}-${Date.now()}`;
  const env = { DATA_DIR: dataDir, SECRET_KEY: 'w'.repeat(40), LOG_LEVEL: 'silent' };
  let node: EmbeddedRegtest;
  let address = '';

  before(async () => {
    node = await EmbeddedRegtest.start();
  });
  after(async () => {
    await node?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the anchoring address, an empty balance and the network; the key is made once and kept', async () => {
    const first = await runProofseal(['wallet', '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    const shown = JSON.parse(first.stdout) as { address: string; network: string; balanceSat: number; node: string };
    assert.match(shown.address, /^bcrt1q[0-9a-z]{38}$/);
    assert.deepEqual([shown.network, shown.balanceSat], ['regtest', 0]);
    address = shown.address;
    const again = await runProofseal(['wallet'], env);
    assert.match(again.stdout, new RegExp(`address\\s+${address}`));
    assert.match(again.stdout, /network\s+regtest/);
  });

  it('wallet import needs a node; with BITCOIN_RPC_URL it registers the deposit and the balance shows it', async () => {
    const offline = await runProofseal(['wallet', 'import', 'ab'.repeat(32)], env);
    assert.equal(offline.code, 2);
    assert.match(offline.stderr, /BITCOIN_RPC_URL/);
    const [txid] = await node.fund(address, 1);
    const online = { ...env, ...regtestEnv(node) };
    const imported = await runProofseal(['wallet', 'import', txid!], online);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /imported 1 output/);
    const shown = JSON.parse((await runProofseal(['wallet', '--json'], online)).stdout) as { balanceSat: number };
    assert.ok(shown.balanceSat > 0);
  });
});
