import { randomBytes } from 'node:crypto';
import { AnchoringWallet, type AnchoringWalletOptions } from '../../src/adapters/chain/anchoring-wallet.js';
import { BitcoinRpcClient } from '../../src/adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest } from '../../src/adapters/chain/embedded-regtest.js';
import { openStore, type OpenedStore } from '../../src/adapters/store/create-store.js';
import { MemoryKeyVault } from './memory-key-vault.js';
import { MemoryUtxoStore } from './memory-utxo-store.js';
import { schemaUrl } from './stores.js';

/** A started regtest node (segwit active), a client on it, and a funded anchoring wallet. */
export interface RegtestFixture {
  node: EmbeddedRegtest;
  chain: BitcoinRpcClient;
  wallet: AnchoringWallet;
  utxos: MemoryUtxoStore;
  vault: MemoryKeyVault;
  /** Milliseconds: node start (open + connect), then mining to segwit height 432, then funding. */
  timings: { startMs: number; segwitMs: number; fundMs: number };
}

/** Starts the node, opens a fresh wallet and funds it with `coinbases` matured coinbase outputs. */
export async function startFundedRegtest(coinbases = 1): Promise<RegtestFixture> {
  let t = performance.now();
  const node = await EmbeddedRegtest.start({ activateSegwit: false });
  const startMs = performance.now() - t;
  t = performance.now();
  await node.mineTo(432);
  const segwitMs = performance.now() - t;
  const chain = new BitcoinRpcClient({ url: node.rpcUrl });
  const vault = new MemoryKeyVault();
  const utxos = new MemoryUtxoStore();
  const wallet = await AnchoringWallet.open({ chain, vault, utxos, network: 'regtest', secretKey: 'test-secret' });
  t = performance.now();
  await fundWallet(node, wallet, coinbases);
  const fundMs = performance.now() - t;
  return { node, chain, wallet, utxos, vault, timings: { startMs, segwitMs, fundMs } };
}

/** Opens the anchoring wallet (regtest) and funds it on `node` with `coinbases` matured coinbase outputs. */
export async function openFundedWallet(
  node: EmbeddedRegtest,
  options: Omit<AnchoringWalletOptions, 'network'>,
  coinbases: number,
): Promise<AnchoringWallet> {
  const wallet = await AnchoringWallet.open({ ...options, network: 'regtest' });
  await fundWallet(node, wallet, coinbases);
  return wallet;
}

/** Mines `coinbases` matured coinbase outputs to the wallet and imports each as a deposit. */
async function fundWallet(node: EmbeddedRegtest, wallet: AnchoringWallet, coinbases: number): Promise<void> {
  for (const txid of await node.fund(wallet.address, coinbases)) await wallet.importDeposit(txid);
}

/** The settings that point a proofseal process at `node`: its RPC URL (no trailing slash) and the network. */
export function regtestEnv(node: EmbeddedRegtest): { BITCOIN_RPC_URL: string; BITCOIN_NETWORK: 'regtest' } {
  return { BITCOIN_RPC_URL: node.rpcUrl.replace(/\/$/, ''), BITCOIN_NETWORK: 'regtest' };
}

/** A regtest node and a store on a PostgreSQL schema: what the worker-process tests run their workers on. */
export interface RegtestOnSchema {
  node: EmbeddedRegtest;
  opened: OpenedStore;
  /** A worker's settings: the schema, DATA_DIR /tmp/proofseal-<name>-<schema>, SECRET_KEY, the node, a batch a second. */
  env: Record<string, string>;
  /** Closes the store and stops the node (the caller drops the schema it made). */
  close(): Promise<void>;
}

/** Starts a node (segwit active) and opens the store on `schema`; `env` adds to or overrides the workers' settings. */
export async function startRegtestOnSchema(
  schema: string,
  o: { name: string; secretKey: string; env?: Record<string, string> },
): Promise<RegtestOnSchema> {
  const node = await EmbeddedRegtest.start();
  const opened = await openStore({ databaseUrl: schemaUrl(schema), embeddedDir: undefined, now: Date.now }).catch(
    async (err: unknown) => {
      await node.stop();
      throw err;
    },
  );
  const env = {
    DATABASE_URL: schemaUrl(schema),
    DATA_DIR: `/tmp/proofseal-${o.name}-${schema}`,
    SECRET_KEY: o.secretKey,
    ...regtestEnv(node),
    BATCH_INTERVAL_SECONDS: '1',
    ...o.env,
  };
  return {
    node,
    opened,
    env,
    async close() {
      await opened.close();
      await node.stop();
    },
  };
}

/** A random 32-byte Merkle root. */
export const randomRoot = (): Uint8Array => new Uint8Array(randomBytes(32));

/** Polls `check` (bcoin adds to its mempool after sendrawtransaction has answered). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
