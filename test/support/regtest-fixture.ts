import { randomBytes } from 'node:crypto';
import { AnchoringWallet } from '../../src/adapters/chain/anchoring-wallet.js';
import { BitcoinRpcClient } from '../../src/adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest } from '../../src/adapters/chain/embedded-regtest.js';
import { MemoryKeyVault } from './memory-key-vault.js';
import { MemoryUtxoStore } from './memory-utxo-store.js';

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
  for (const txid of await node.fund(wallet.address, coinbases)) await wallet.importDeposit(txid);
  const fundMs = performance.now() - t;
  return { node, chain, wallet, utxos, vault, timings: { startMs, segwitMs, fundMs } };
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
