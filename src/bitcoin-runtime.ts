/**
 * The Bitcoin side of a process, wired from the configuration: the Chain (Bitcoin Core JSON-RPC on
 * BITCOIN_RPC_URL, or — unset, regtest — the embedded bcoin node started in this process), the
 * anchoring wallet and the batching jobs. Part of the composition root.
 */
import path from 'node:path';
import { AnchoringWallet } from './adapters/chain/anchoring-wallet.js';
import { BitcoinRpcClient } from './adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest, type AutoMiner } from './adapters/chain/embedded-regtest.js';
import { chunkWorkers } from './adapters/merkle/chunk-workers.js';
import { readRegtestRpcFile, writeRegtestRpcFile } from './adapters/system/regtest-rpc-file.js';
import { keyVaultRepository } from './adapters/store/key-vault.repository.js';
import type { AnchoringDeps } from './app/anchoring/anchoring-deps.js';
import { reconcileAtStart } from './app/anchoring/reconcile-at-start.js';
import { forgetVanishedChain } from './app/anchoring/forget-vanished-chain.js';
import type { AnchoringSettings } from './app/anchoring/bitcoin.port.js';
import type { ChainPort } from './app/anchoring/chain.port.js';
import { loadTestHooks, type BitcoinConfig, type Role, type WorkerBitcoinConfig } from './config.js';
import { DomainError } from './core/errors.js';
import { anchoringJobs, logUnkept } from './jobs/anchoring/bitcoin.jobs.js';
import { findDepositsJob } from './jobs/anchoring/find-deposits.job.js';
import type { JobDefinition } from './app/shared/job-definition.port.js';
import type { Runtime } from './runtime.js';

/** Coinbases mined to the anchoring key when the embedded node starts with an unfunded wallet. */
const EMBEDDED_FUNDING_COINBASES = 5;
/** Below this balance (satoshis) the embedded run funds the wallet again. */
const EMBEDDED_MIN_BALANCE_SAT = 100_000_000;

/** The runtime as the Bitcoin side sees it: its settings are the worker's Bitcoin ones, not the whole configuration. */
type BitcoinSide = Omit<Runtime, 'config'> & { readonly config: WorkerBitcoinConfig };

export interface BitcoinRuntime {
  /** Absent for an api process with no BITCOIN_RPC_URL (the embedded node lives in the worker). */
  readonly chain: ChainPort | undefined;
  readonly wallet: AnchoringWallet | undefined;
  readonly node: EmbeddedRegtest | undefined;
  readonly jobs: JobDefinition[];
  close(): Promise<void>;
}

export function anchoringSettings(config: BitcoinConfig): AnchoringSettings {
  return {
    batchMaxSize: config.batchMaxSize,
    confirmationsRequired: config.confirmationsRequired,
    feeRateSatVb: config.feeRateSatVb,
    feeCapSatVb: config.feeCapSatVb,
    // An anchoring transaction is 150-300 vB; 1000 vB at the capped rate bounds one of many inputs too.
    maxFeeSat: config.feeCapSatVb * 1000,
    bumpAfterBlocks: config.bumpAfterBlocks,
    reorgWatchDepth: config.reorgWatchDepth,
  };
}

/** Opens the wallet on the store's key vault and coins; retries once when another process stored a key first. */
export async function openWallet(rt: BitcoinSide, chain: ChainPort): Promise<AnchoringWallet> {
  const options = {
    chain,
    vault: keyVaultRepository(rt.opened.db, rt.deps.clock.now),
    utxos: rt.deps.store.utxos,
    network: rt.config.bitcoinNetwork,
    secretKey: rt.secretKey,
  };
  try {
    return await AnchoringWallet.open(options);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'CONFLICT') return AnchoringWallet.open(options);
    throw err;
  }
}

const worksJobs = (role: Role) => role === 'worker' || role === 'all';

/**
 * Where the embedded node keeps its chain: beside the embedded store (`DATA_DIR/regtest`), whose Bitcoin
 * state belongs to that chain, so both outlive a restart together and the receipts the store serves stay
 * checkable against the node. Only one process holds DATA_DIR, so only one opens it (LevelDB also locks
 * it). With PostgreSQL, several workers may share one DATA_DIR: each keeps its chain in memory.
 */
export function embeddedChainDir(config: Pick<WorkerBitcoinConfig, 'databaseUrl' | 'dataDir'>): string | undefined {
  return config.databaseUrl ? undefined : path.join(config.dataDir, 'regtest');
}

/**
 * The embedded node of a worker (or `all`) process with no BITCOIN_RPC_URL, started before the store is
 * open: it needs nothing from the store, so its start (on a new chain, mining to the segwit height) overlaps
 * the store's. A second process on a held DATA_DIR fails to open the chain (LevelDB's lock); that failure
 * is held back until {@link openBitcoin}, so the store's own refusal, which names the holder, comes first.
 * Undefined when the role uses no embedded node. Hand the result to {@link openBitcoin}, or to
 * {@link stopStarted}.
 */
export function startEmbeddedNode(config: WorkerBitcoinConfig, role: Role): Promise<EmbeddedRegtest> | undefined {
  if (config.bitcoinRpcUrl || !worksJobs(role)) return undefined;
  const starting = EmbeddedRegtest.start({ dir: embeddedChainDir(config) });
  // Awaited later; a failure before then must not count as unhandled.
  starting.catch(() => undefined);
  return starting;
}

/**
 * How long the batch-hashing threads outlive a close: until the next close is due (the interval, plus the close
 * job's schedule and polling), so a service closing a batch every few seconds starts them once, not at each
 * close (~100 ms of CPU a start on the test box: ~15 µs an anchor when ingesting with 2-second batches);
 * at most a minute, and 2 s at least as before.
 */
export function hashingThreadsIdleMs(batchIntervalSeconds: number): number {
  return Math.min(60_000, Math.max(2_000, (batchIntervalSeconds + 3) * 1000));
}

/** Stops a node of {@link startEmbeddedNode} when the process gives up before using it. */
export async function stopStarted(starting: Promise<EmbeddedRegtest> | undefined): Promise<void> {
  const node = await starting?.catch(() => undefined);
  await node?.stop();
}

/**
 * Starts what the role needs: nothing but a client for api, the whole anchoring side for worker and all.
 * `starting`: the embedded node already being started ({@link startEmbeddedNode}); else it is started here.
 */
export async function openBitcoin(
  rt: BitcoinSide,
  role: Role,
  starting?: Promise<EmbeddedRegtest>,
): Promise<BitcoinRuntime> {
  const { config } = rt;
  if (!worksJobs(role)) {
    const chain = config.bitcoinRpcUrl ? new BitcoinRpcClient({ url: config.bitcoinRpcUrl }) : undefined;
    return { chain, wallet: undefined, node: undefined, jobs: [], close: async () => undefined };
  }
  const node = config.bitcoinRpcUrl
    ? undefined
    : await (starting ?? EmbeddedRegtest.start({ dir: embeddedChainDir(config) }));
  const chain = new BitcoinRpcClient({ url: config.bitcoinRpcUrl ?? node!.rpcUrl });
  let miner: AutoMiner | undefined;
  let forgetRpcUrl: () => Promise<void> = async () => undefined;
  const hashing = chunkWorkers({ idleMs: hashingThreadsIdleMs(config.batchIntervalSeconds) });
  try {
    await checkNetwork(chain, config);
    const wallet = await openWallet(rt, chain);
    if (node) miner = await prepareEmbedded(rt, node, wallet);
    if (node) forgetRpcUrl = await writeRegtestRpcFile(config.dataDir, node.rpcUrl);
    const hooks = loadTestHooks();
    const deps: AnchoringDeps = {
      ...rt.deps,
      chain,
      wallet,
      settings: anchoringSettings(config),
      chunkHasher: hashing.hash,
      afterBroadcast: crashHook(rt, hooks.crashAfterBroadcast),
      insideClose: pauseHook(hooks.pauseInClose, rt, 'PROOFSEAL_TEST_PAUSE_IN_CLOSE: paused inside the close'),
      insideSend: pauseHook(hooks.pauseInSend, rt, 'PROOFSEAL_TEST_PAUSE_IN_SEND: paused inside the send'),
    };
    await reconcileLeftovers(rt, deps);
    const jobs = [
      ...anchoringJobs({
        deps,
        log: rt.log,
        batchIntervalSeconds: config.batchIntervalSeconds,
        pollSeconds: config.confirmPollSeconds,
      }),
      findDepositsJob({
        deps: { ...deps, wallet },
        log: rt.log,
        pollSeconds: config.confirmPollSeconds,
        rewindDepth: config.reorgWatchDepth,
        earlierDepositsPossible: node === undefined,
      }),
    ];
    rt.log.info(
      { address: wallet.address, network: wallet.network, node: node ? 'embedded regtest' : chain.redactedUrl },
      'anchoring wallet ready',
    );
    return {
      chain,
      wallet,
      node,
      jobs,
      close: async () => {
        await forgetRpcUrl();
        await miner?.stop();
        await node?.stop();
        await hashing.close();
      },
    };
  } catch (err) {
    await forgetRpcUrl();
    await hashing.close();
    await miner?.stop();
    await node?.stop();
    throw err;
  }
}

/** Reconciles the SIGNED transactions a dead worker left (`reconcileAtStart`) and logs what it found. */
async function reconcileLeftovers(rt: BitcoinSide, deps: AnchoringDeps): Promise<void> {
  const done = await reconcileAtStart(deps);
  if (!done) return;
  const { reconciled, unkept } = done;
  if (reconciled > 0) rt.log.warn({ reconciled }, 'signed transactions found at start were reconciled (same bytes)');
  logUnkept(rt.log, unkept);
}

async function checkNetwork(chain: ChainPort, config: Pick<BitcoinConfig, 'bitcoinNetwork'>): Promise<void> {
  const info = await chain.getNetworkInfo();
  if (info.network !== config.bitcoinNetwork) {
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      `the node runs ${info.network} but BITCOIN_NETWORK is ${config.bitcoinNetwork}`,
    );
  }
}

/**
 * The default run: the store may hold state of another chain (the chain's directory was removed, or the
 * node ran in memory); the wallet is funded with matured coinbases when it runs low; a block is mined
 * every REGTEST_BLOCK_INTERVAL_SECONDS.
 */
async function prepareEmbedded(
  rt: BitcoinSide,
  node: EmbeddedRegtest,
  wallet: AnchoringWallet,
): Promise<AutoMiner | undefined> {
  const chainId = (await node.rpc.getBlockHash(1))!;
  const reset = await forgetVanishedChain(rt.deps, { chainId });
  if (reset && reset.length > 0)
    rt.log.warn({ batches: reset.length }, 'embedded regtest chain is new: pending batches will be anchored again');
  if ((await wallet.balanceSat()) < EMBEDDED_MIN_BALANCE_SAT) {
    for (const txid of await node.fund(wallet.address, EMBEDDED_FUNDING_COINBASES)) await wallet.importDeposit(txid);
  }
  const every = rt.config.regtestBlockIntervalSeconds;
  return every > 0 ? node.autoMine(every * 1000) : undefined;
}

/** The crash test's hook: end the process right after a broadcast, before it is recorded. */
function crashHook(rt: BitcoinSide, on: boolean): (() => void) | undefined {
  if (!on) return undefined;
  return () => {
    rt.log.fatal('PROOFSEAL_TEST_CRASH_AFTER_BROADCAST: exiting right after the broadcast');
    process.exit(86);
  };
}

/** The close and send crash tests' hook: stop there (holding the run's lock) until killed. */
function pauseHook(on: boolean, rt: BitcoinSide, message: string): (() => Promise<void>) | undefined {
  if (!on) return undefined;
  return () => {
    rt.log.warn(message);
    return new Promise<void>(() => setInterval(() => undefined, 60_000));
  };
}

/** A Chain for commands run where no node is reachable (the embedded node lives in the worker). */
const offlineChain = new Proxy(
  {},
  {
    get: () => () =>
      Promise.reject(
        new DomainError(
          'CHAIN_UNAVAILABLE',
          'no Bitcoin node: set BITCOIN_RPC_URL (the embedded node runs inside the worker)',
        ),
      ),
  },
) as ChainPort;

/** The wallet for the operator's `proofseal wallet`: on BITCOIN_RPC_URL when set, offline otherwise. */
export async function openWalletForCommand(
  rt: BitcoinSide,
): Promise<{ wallet: AnchoringWallet; node: string; online: boolean }> {
  const url = rt.config.bitcoinRpcUrl;
  const chain = url ? new BitcoinRpcClient({ url }) : offlineChain;
  const node = url
    ? (chain as BitcoinRpcClient).redactedUrl
    : 'embedded regtest (runs inside the worker, funded automatically)';
  return { wallet: await openWallet(rt, chain), node, online: url !== undefined };
}

/**
 * The wallet an operator command works on: inside the running service, the worker's own (online, on its
 * node, embedded or not); elsewhere {@link openWalletForCommand}.
 */
export async function walletForCommand(
  rt: BitcoinSide,
  bitcoin: BitcoinRuntime | undefined,
): Promise<{ wallet: AnchoringWallet; node: string; online: boolean }> {
  if (!bitcoin?.wallet || !bitcoin.chain) return openWalletForCommand(rt);
  const node = bitcoin.node ? 'embedded regtest (inside the running service)' : rt.config.bitcoinRpcUrl;
  const redacted = bitcoin.chain instanceof BitcoinRpcClient ? bitcoin.chain.redactedUrl : 'node';
  return { wallet: bitcoin.wallet, node: bitcoin.node ? node! : redacted, online: true };
}

/**
 * The node an operator command reads the chain from: inside the running service, the worker's own; else
 * BITCOIN_RPC_URL; else the embedded regtest node a worker runs from this DATA_DIR (`regtest-rpc.url`).
 * @throws DomainError CHAIN_UNAVAILABLE when none is reachable from here
 */
export async function chainForCommand(rt: BitcoinSide, bitcoin: BitcoinRuntime | undefined): Promise<ChainPort> {
  if (bitcoin?.chain) return bitcoin.chain;
  const url = rt.config.bitcoinRpcUrl ?? (await readRegtestRpcFile(rt.config.dataDir));
  if (url) return new BitcoinRpcClient({ url });
  throw new DomainError(
    'CHAIN_UNAVAILABLE',
    `no Bitcoin node to read: set BITCOIN_RPC_URL, or start the service (its embedded regtest node writes ${path.join(rt.config.dataDir, 'regtest-rpc.url')})`,
  );
}
