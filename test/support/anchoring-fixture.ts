/**
 * The batching use cases on a real store and the real embedded bcoin node: a funded anchoring wallet
 * whose key and coins live in the store (as in production), deps for closeBatch/sendBatches/confirmBatches
 * with a job queue that records what was queued, and helpers to read the chain independently.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AnchoringWallet } from '../../src/adapters/chain/anchoring-wallet.js';
import { BitcoinRpcClient } from '../../src/adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest, type EmbeddedRegtestOptions } from '../../src/adapters/chain/embedded-regtest.js';
import { keyVaultRepository } from '../../src/adapters/store/key-vault.repository.js';
import type { AnchoringDeps } from '../../src/app/anchoring/anchoring-deps.js';
import type { AnchoringSettings } from '../../src/app/anchoring/bitcoin.port.js';
import { recordingJobs, testDeps } from './fixtures.js';
import { openFundedWallet } from './regtest-fixture.js';
import type { StoreKind, TestStore } from './stores.js';

export const TEST_SECRET_KEY = 's'.repeat(40);

export const TEST_SETTINGS: AnchoringSettings = {
  batchMaxSize: 100_000,
  confirmationsRequired: 6,
  feeRateSatVb: 2,
  feeCapSatVb: 50,
  maxFeeSat: 50_000,
  bumpAfterBlocks: 2,
  reorgWatchDepth: 100,
};

export interface AnchoringFixture {
  readonly s: TestStore;
  readonly node: EmbeddedRegtest;
  readonly chain: BitcoinRpcClient;
  readonly wallet: AnchoringWallet;
  readonly jobs: ReturnType<typeof recordingJobs>;
  readonly deps: AnchoringDeps;
  close(): Promise<void>;
}

/** Opens a store of `kind`, starts a node, funds a store-backed wallet with `coinbases` coins. */
export async function startAnchoring(
  kind: StoreKind,
  coinbases = 2,
  settings: Partial<AnchoringSettings> = {},
  nodeOptions: EmbeddedRegtestOptions = {},
): Promise<AnchoringFixture> {
  const s = await kind.open();
  const node = await EmbeddedRegtest.start(nodeOptions);
  const chain = new BitcoinRpcClient({ url: node.rpcUrl });
  const wallet = await openFundedWallet(
    node,
    { chain, vault: keyVaultRepository(s.db, Date.now), utxos: s.store.utxos, secretKey: TEST_SECRET_KEY },
    coinbases,
  );
  const jobs = recordingJobs();
  const deps: AnchoringDeps = {
    // The store's transactions queue on the same recorder as the use cases' own sends.
    ...testDeps(
      s.withJobs(() => jobs),
      { jobs },
    ),
    chain,
    wallet,
    settings: { ...TEST_SETTINGS, ...settings },
  };
  return {
    s,
    node,
    chain,
    wallet,
    jobs,
    deps,
    close: async () => {
      await node.stop();
      await s.destroy();
    },
  };
}

/** Polls `check` until true (bcoin adds to its mempool after sendrawtransaction answered). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every txid on the best chain from `fromHeight` to the tip whose outputs carry `OP_RETURN <root>`. */
export async function txidsCarrying(chain: BitcoinRpcClient, rootHex: string, fromHeight: number): Promise<string[]> {
  const found: string[] = [];
  const tip = await chain.getBlockCount();
  for (let h = fromHeight; h <= tip; h++) {
    const block = (await chain.getBlock((await chain.getBlockHash(h))!))!;
    for (const txid of block.txids.slice(1)) {
      const tx = await chain.getRawTransaction(txid);
      if (tx?.vout.some((o) => o.scriptHex === `6a20${rootHex}`)) found.push(txid);
    }
  }
  return found;
}

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const CHECKER = new URL('./ots-check.py', import.meta.url).pathname;

export interface OtsCheck {
  ok: boolean;
  digest: string | null;
  height: number | null;
  commitment: string | null;
  error: string | null;
}

/** python-opentimestamps present? With CI=true its absence is a failure, not a skip. */
export async function otsCheckerAvailable(): Promise<boolean> {
  try {
    await run(PYTHON, ['-c', 'import opentimestamps.core.timestamp, bitcoin.core']);
    return true;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`python3-opentimestamps is required in CI: ${String(err)}`);
    return false;
  }
}

/** Checks an .ots file against an 80-byte header with python-opentimestamps, asynchronously (the node runs in this process). */
export async function checkOts(ots: Buffer, headerHex: string): Promise<OtsCheck> {
  const dir = await mkdtemp(join(tmpdir(), 'proofseal-ots-'));
  try {
    const file = join(dir, `${createHash('sha256').update(ots).digest('hex')}.ots`);
    await writeFile(file, ots);
    const { stdout } = await run(PYTHON, [CHECKER, file, headerHex]);
    return JSON.parse(stdout) as OtsCheck;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
