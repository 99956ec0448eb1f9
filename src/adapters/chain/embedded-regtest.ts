import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { Address } from '@scure/btc-signer';
import { DomainError } from '../../core/errors.js';
import { BITCOIN_NETWORKS } from '../../core/bitcoin/anchor-tx.js';
import { BitcoinRpcClient } from './bitcoin-rpc.js';

/**
 * An in-process bcoin regtest full node kept in memory, for the default run and the tests. The service
 * talks to it only through {@link BitcoinRpcClient} (JSON-RPC over HTTP with a random api key), exactly
 * as it talks to bitcoind; the helpers below (mining, invalidation) are test and dev tooling.
 *
 * bcoin has no type definitions: the few members used are typed here by hand.
 */
interface BcoinAddress {
  toString(network?: string): string;
}
interface BcoinTx {
  txid(): string;
}
interface BcoinBlock {
  toRaw(): Buffer;
}
interface BcoinProof {
  verify(target: Buffer): boolean;
}
interface BcoinTemplate {
  time: number;
  target: Buffer;
  addTX(tx: BcoinTx, view: unknown): boolean;
  refresh(): void;
  getProof(nonce1: number, nonce2: number, time: number, nonce: number): BcoinProof;
  commit(proof: BcoinProof): BcoinBlock;
}
interface BcoinFullNode {
  ensure(): Promise<void>;
  open(): Promise<void>;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  close(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): void;
  http: { address(): { port: number } };
  chain: {
    readonly height: number;
    getCoinView(tx: BcoinTx): Promise<unknown>;
    on(event: 'connect', listener: (entry: { height: number }) => void): void;
    removeListener(event: 'connect', listener: (entry: { height: number }) => void): void;
  };
  miner: { mempool: unknown; createBlock(tip: null, address: BcoinAddress): Promise<BcoinTemplate> };
}
interface AddressPrefix {
  pubkeyhash: number;
  scripthash: number;
  bech32: string;
}
interface Bcoin {
  set(network: string): void;
  networks: { regtest: { addressPrefix: AddressPrefix; keyPrefix: { privkey: number } } };
  FullNode: new (options: Record<string, unknown>) => BcoinFullNode;
  TX: { fromRaw(data: Buffer): BcoinTx };
  Address: { fromString(addr: string, network: string): BcoinAddress };
}

const require = createRequire(import.meta.url);

/** Segwit is ACTIVE on bcoin regtest from this height (BIP9 windows of 144 blocks: 0, 144, 288, 432). */
export const BCOIN_SEGWIT_HEIGHT = 432;
/** Blocks a coinbase output waits before it can be spent. */
export const COINBASE_MATURITY = 100;
/** Blocks mined per RPC call when many are (maturing coinbases, activating segwit). */
const MINE_STEP = 20;

/** Where blocks pay when no address is given: P2WPKH of twenty zero bytes (nobody's key). */
const BURN_ADDRESS = Address(BITCOIN_NETWORKS.regtest).encode({ type: 'wpkh', hash: new Uint8Array(20) });

let bcoinModule: Bcoin | null = null;

/**
 * Loads bcoin once and makes its regtest use Bitcoin Core's prefixes (bech32 `bcrt`, base58 0x6f / 0xc4,
 * WIF 0xef) so one address codec works for both nodes. bcoin's Network objects share these prefix
 * objects by reference, so the change holds for the whole process.
 */
function loadBcoin(): Bcoin {
  if (bcoinModule) return bcoinModule;
  const bcoin = requireBcoin();
  const core = BITCOIN_NETWORKS.regtest;
  Object.assign(bcoin.networks.regtest.addressPrefix, {
    pubkeyhash: core.pubKeyHash,
    scripthash: core.scriptHash,
    bech32: core.bech32,
  });
  bcoin.networks.regtest.keyPrefix.privkey = core.wif;
  bcoin.set('regtest');
  bcoinModule = bcoin;
  return bcoin;
}

/**
 * bcoin is an optional dependency, needed by the embedded regtest node only (the default run and the
 * tests): a production install (`npm ci --omit=optional`, PostgreSQL and Bitcoin Core) does not build its
 * native LevelDB. Loaded here, on the first start of a node, never at import.
 * @throws DomainError CHAIN_UNAVAILABLE when it is not installed
 */
function requireBcoin(): Bcoin {
  try {
    return require('bcoin') as Bcoin;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      'the embedded regtest node needs the optional dependency bcoin, which is not installed ' +
        '(install without --omit=optional), or set BITCOIN_RPC_URL to a Bitcoin Core node',
    );
  }
}

/** Options of {@link EmbeddedRegtest.start}. */
export interface EmbeddedRegtestOptions {
  /** Mine up to {@link BCOIN_SEGWIT_HEIGHT} at start so P2WPKH spends are accepted. Default true. */
  activateSegwit?: boolean;
  /**
   * Keep the chain on disk in this directory (bcoin on LevelDB) and reopen it at the next start. Default:
   * in memory, gone when the node stops. One process at a time: LevelDB locks the directory.
   */
  dir?: string;
}

/** A running timer that mines blocks; `stop()` ends it. */
export interface AutoMiner {
  /** Resolves once no block is being mined any more. */
  stop(): Promise<void>;
}

/** The embedded regtest node: start it, read {@link EmbeddedRegtest.rpcUrl}, stop it. */
export class EmbeddedRegtest {
  /** Messages of the errors the node emitted (mempool rejections among them), oldest first. */
  readonly nodeErrors: string[] = [];

  private constructor(
    private readonly bcoin: Bcoin,
    private readonly node: BcoinFullNode,
    /** `http://x:<apiKey>@127.0.0.1:<port>/` — hand it to {@link BitcoinRpcClient}. */
    readonly rpcUrl: string,
    /** A client on {@link rpcUrl}, used by the helpers. */
    readonly rpc: BitcoinRpcClient,
  ) {
    node.on('error', (err) => this.nodeErrors.push(err.message));
  }

  /** Starts a node (in memory, or in `options.dir`) on a free port, with a random api key. */
  static async start(options: EmbeddedRegtestOptions = {}): Promise<EmbeddedRegtest> {
    const bcoin = loadBcoin();
    const apiKey = randomBytes(24).toString('hex');
    const node = new bcoin.FullNode({
      network: 'regtest',
      memory: options.dir === undefined,
      ...(options.dir !== undefined && { prefix: options.dir }),
      workers: false,
      listen: false,
      logLevel: 'none',
      httpHost: '127.0.0.1',
      httpPort: 0,
      apiKey,
      indexTX: true,
      // Accept BIP-125-signalling transactions even where standardness is enforced (regtest does not
      // enforce it). bcoin still never replaces: a conflicting spend is refused whatever its fee.
      replaceByFee: true,
    });
    if (options.dir !== undefined) await node.ensure(); // its prefix directory (DATA_DIR/regtest/regtest)
    await node.open();
    await node.connect();
    const url = `http://x:${apiKey}@127.0.0.1:${node.http.address().port}/`;
    const regtest = new EmbeddedRegtest(bcoin, node, url, new BitcoinRpcClient({ url, retries: 0 }));
    if (options.activateSegwit ?? true) await regtest.mineTo(BCOIN_SEGWIT_HEIGHT);
    return regtest;
  }

  /** Closes the node; an in-memory chain is gone, one in a directory stays there. */
  async stop(): Promise<void> {
    await this.node.disconnect();
    await this.node.close();
  }

  /** Mines `n` blocks paying `toAddress` (default: a burn address); returns their hashes. */
  async mine(n: number, toAddress: string = BURN_ADDRESS): Promise<string[]> {
    return this.rpc.call<string[]>('generatetoaddress', [n, toAddress], { retry: false });
  }

  /** Resolves when the node's tip reaches `height` (at once when it is there), on the chain's connect events. */
  async waitForHeight(height: number): Promise<void> {
    const chain = this.node.chain;
    await new Promise<void>((resolve) => {
      const onConnect = () => {
        if (chain.height < height) return;
        chain.removeListener('connect', onConnect);
        resolve();
      };
      chain.on('connect', onConnect);
      onConnect();
    });
  }

  /** Mines until the tip is at `height` (nothing when already there). */
  async mineTo(height: number): Promise<void> {
    const missing = height - (await this.rpc.getBlockCount());
    if (missing > 0) await this.mineInSteps(missing);
  }

  /** `n` blocks, {@link MINE_STEP} a call: on a loaded machine a hundred in one call outlasted the RPC's 10 s timeout. */
  private async mineInSteps(n: number): Promise<void> {
    for (let left = n; left > 0; left -= MINE_STEP) await this.mine(Math.min(MINE_STEP, left));
  }

  /** Mines one block every `intervalMs` until stopped; failures are kept in {@link nodeErrors}. */
  autoMine(intervalMs: number, toAddress?: string): AutoMiner {
    let inFlight: Promise<unknown> = Promise.resolve();
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      inFlight = this.mine(1, toAddress)
        .catch((err: unknown) => this.nodeErrors.push(`autoMine: ${String(err)}`))
        .finally(() => {
          busy = false;
        });
    }, intervalMs);
    timer.unref();
    // Stopping waits for a block being mined, so no block appears after stop() resolves.
    return {
      stop: async () => {
        clearInterval(timer);
        await inFlight;
      },
    };
  }

  /**
   * Mines `blocks` coinbases to `address`, then {@link COINBASE_MATURITY} more so they can be spent.
   * Returns the coinbase txids (output 0 pays `address`).
   */
  async fund(address: string, blocks = 1): Promise<string[]> {
    const hashes = await this.mine(blocks, address);
    await this.mineInSteps(COINBASE_MATURITY);
    const txids: string[] = [];
    for (const hash of hashes) {
      const block = await this.rpc.getBlock(hash);
      if (!block) throw new DomainError('CHAIN_UNAVAILABLE', `block ${hash} vanished`);
      txids.push(block.txids[0]!);
    }
    return txids;
  }

  /** `invalidateblock`: disconnects the block and its descendants. bcoin also empties its mempool. */
  async invalidateBlock(hash: string): Promise<void> {
    await this.rpc.call<null>('invalidateblock', [hash], { retry: false });
  }

  /**
   * Mines one block holding exactly `txHexes` (plus the coinbase), leaving the mempool out, and submits it
   * with `submitblock`. This is how a replacement that bcoin's mempool refuses (it has no BIP-125) can
   * still be confirmed, as a miner running Core would. Returns the block hash.
   */
  async mineBlockWith(txHexes: string[], toAddress: string = BURN_ADDRESS): Promise<string> {
    const template = await this.templateWithoutMempool(toAddress);
    for (const hex of txHexes) {
      const tx = this.bcoin.TX.fromRaw(Buffer.from(hex, 'hex'));
      if (!template.addTX(tx, await this.node.chain.getCoinView(tx))) {
        throw new DomainError('BAD_REQUEST', `transaction ${tx.txid()} does not fit the block`);
      }
    }
    template.refresh();
    const block = solve(template);
    const result = await this.rpc.call<string | null>('submitblock', [block.toRaw().toString('hex')], {
      retry: false,
    });
    if (result !== null) throw new DomainError('CONFLICT', `submitblock refused the block: ${result}`);
    return (await this.rpc.call<{ bestblockhash: string }>('getblockchaininfo')).bestblockhash;
  }

  /** A block template on the tip with no mempool transactions (the miner skips assembly without one). */
  private async templateWithoutMempool(toAddress: string): Promise<BcoinTemplate> {
    const miner = this.node.miner;
    const mempool = miner.mempool;
    miner.mempool = null;
    try {
      return await miner.createBlock(null, this.bcoin.Address.fromString(toAddress, 'regtest'));
    } finally {
      miner.mempool = mempool;
    }
  }
}

/** Grinds the header nonce until the block meets the (trivial, regtest) target. */
function solve(template: BcoinTemplate): BcoinBlock {
  for (let nonce = 0; nonce <= 0xffffffff; nonce++) {
    const proof = template.getProof(0, 0, template.time, nonce);
    if (proof.verify(template.target)) return template.commit(proof);
  }
  throw new DomainError('INTERNAL', 'no nonce meets the regtest target');
}
