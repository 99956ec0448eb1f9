import { DomainError, type ErrorCode } from '../../core/errors.js';
import type {
  BitcoinNetwork,
  BlockHeaderInfo,
  BlockInfo,
  ChainNetworkInfo,
  ChainPort,
  RawTransactionInfo,
  ScannedOutput,
  TxOutInfo,
  TxPlace,
} from '../../app/anchoring/chain.port.js';

/** Options of {@link BitcoinRpcClient}. */
export interface BitcoinRpcOptions {
  /** `http://user:password@host:port[/path]`; the credentials become a Basic auth header. */
  url: string;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
  /** Extra attempts for reads after a transport failure (never for sendrawtransaction). Default 2. */
  retries?: number;
  /** First backoff delay, doubled each attempt. Default 200 ms. */
  backoffMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/**
 * A JSON-RPC error answered by the node (`{"error": {"code", "message"}}`). Bitcoin Core sends it with
 * HTTP 500 (404 for an unknown method), bcoin with HTTP 200; both arrive here. `rpcCode` is the node's
 * number; `code` the domain code it maps to (see {@link rpcErrorCode}).
 */
/** `scantxoutset` reads the whole UTXO set: minutes on mainnet. */
const SCAN_TIMEOUT_MS = 15 * 60_000;

/** JSON-RPC "method not found" (bcoin has no `scantxoutset`). */
const METHOD_NOT_FOUND = -32601;

/** `scantxoutset start` as bitcoind answers it (amounts in BTC). */
interface RpcScan {
  unspents: { txid: string; vout: number; scriptPubKey: string; amount: number }[];
}

export class ChainRpcError extends DomainError {
  readonly rpcCode: number;
  readonly method: string;
  constructor(method: string, rpcCode: number, message: string) {
    super(rpcErrorCode(rpcCode, message), `${method}: ${message} (rpc ${rpcCode})`);
    this.name = 'ChainRpcError';
    this.rpcCode = rpcCode;
    this.method = method;
  }
}

/**
 * Maps a node error to a domain code. Not found is -5 on Core but -1 with a "not found" / "not in
 * mempool" message on bcoin; -25/-26/-27 are a rejected or already-known transaction.
 */
export function rpcErrorCode(rpcCode: number, message: string): ErrorCode {
  if (rpcCode === -5) return 'NOT_FOUND';
  if (rpcCode === -1 && /not found|not in mempool/i.test(message)) return 'NOT_FOUND';
  if (rpcCode === -25 || rpcCode === -26 || rpcCode === -27) return 'CONFLICT';
  if (rpcCode === -3 || rpcCode === -8 || rpcCode === -32602) return 'BAD_REQUEST';
  if (rpcCode === -28) return 'CHAIN_UNAVAILABLE';
  return 'INTERNAL';
}

interface RpcEnvelope {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

interface Endpoint {
  url: string;
  redacted: string;
  authorization: string | null;
}

/** Splits `user:password@` out of the URL; `redacted` is what may appear in messages. */
function parseEndpoint(raw: string): Endpoint {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'bitcoin rpc: url is not a valid URL');
  }
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  const authorization = user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : null;
  return { url: u.toString(), redacted: `${u.protocol}//${u.host}${u.pathname}`, authorization };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Bitcoin Core JSON-RPC over `fetch`, implementing {@link ChainPort}. Reads retry transport failures
 * (network error, timeout, HTTP 5xx without a JSON-RPC error) with exponential backoff; an error the
 * node answered is never retried, and `sendRawTransaction` is a single attempt. Credentials never
 * appear in errors.
 */
export class BitcoinRpcClient implements ChainPort {
  private readonly endpoint: Endpoint;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly fetchFn: typeof fetch;
  private nextId = 1;

  constructor(options: BitcoinRpcOptions) {
    this.endpoint = parseEndpoint(options.url);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 200;
    this.fetchFn = options.fetch ?? fetch;
  }

  /** The URL without credentials, for logs. */
  get redactedUrl(): string {
    return this.endpoint.redacted;
  }

  /**
   * Calls any RPC method. `retry: false` makes it a single attempt (for calls with side effects); `timeoutMs`
   * replaces the client's timeout for this call.
   * @throws ChainRpcError when the node answers an error; DomainError CHAIN_UNAVAILABLE when it cannot be reached.
   */
  async call<T>(
    method: string,
    params: unknown[] = [],
    { retry = true, timeoutMs = this.timeoutMs }: { readonly retry?: boolean; readonly timeoutMs?: number } = {},
  ): Promise<T> {
    const attempts = retry ? this.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.once(method, params, timeoutMs)) as T;
      } catch (err) {
        if (attempt >= attempts || !isTransportFailure(err)) throw err;
        await sleep(this.backoffMs * 2 ** (attempt - 1));
      }
    }
  }

  private async once(method: string, params: unknown[], timeoutMs: number): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.endpoint.authorization) headers.authorization = this.endpoint.authorization;
    const body = JSON.stringify({ jsonrpc: '1.0', id: this.nextId++, method, params });
    let res: Response;
    try {
      res = await this.fetchFn(this.endpoint.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const why =
        err instanceof Error && err.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : 'unreachable';
      throw new TransportError(`${method}: node at ${this.endpoint.redacted} ${why}`);
    }
    return this.readEnvelope(method, res);
  }

  private async readEnvelope(method: string, res: Response): Promise<unknown> {
    if (res.status === 401 || res.status === 403) {
      throw new DomainError(
        'CHAIN_UNAVAILABLE',
        `${method}: node at ${this.endpoint.redacted} refused the credentials (HTTP ${res.status})`,
      );
    }
    const text = await res.text();
    const envelope = parseJson(text);
    if (envelope?.error) {
      throw new ChainRpcError(method, envelope.error.code ?? 0, envelope.error.message ?? 'unknown error');
    }
    if (!res.ok || !envelope || !('result' in envelope)) {
      throw new TransportError(
        `${method}: node at ${this.endpoint.redacted} answered HTTP ${res.status} without a JSON-RPC result`,
      );
    }
    return envelope.result;
  }

  async getBlockCount(): Promise<number> {
    return this.call<number>('getblockcount');
  }

  async getBlockHash(height: number): Promise<string | null> {
    try {
      return await this.call<string>('getblockhash', [height]);
    } catch (err) {
      if (err instanceof ChainRpcError && err.rpcCode === -8) return null;
      throw err;
    }
  }

  async getBlockHeader(hash: string): Promise<BlockHeaderInfo | null> {
    const raw = await nullIfNotFound(this.call<RpcBlockHeader>('getblockheader', [hash, true]));
    return raw && toHeader(raw);
  }

  async getBlockHeaderHex(hash: string): Promise<string | null> {
    return nullIfNotFound(this.call<string>('getblockheader', [hash, false]));
  }

  async getBlock(hash: string): Promise<BlockInfo | null> {
    const raw = await nullIfNotFound(this.call<RpcBlock>('getblock', [hash, true]));
    return raw && toBlock(raw);
  }

  async getBlockHex(hash: string): Promise<string | null> {
    return nullIfNotFound(this.call<string>('getblock', [hash, false]));
  }

  async scanAddressOutputs(address: string): Promise<ScannedOutput[] | null> {
    try {
      const raw = await this.call<RpcScan>('scantxoutset', ['start', [`addr(${address})`]], {
        retry: false,
        timeoutMs: SCAN_TIMEOUT_MS,
      });
      return raw.unspents.map((u) => ({
        txid: u.txid,
        vout: u.vout,
        valueSat: btcToSat(u.amount),
        scriptHex: u.scriptPubKey,
      }));
    } catch (err) {
      if (err instanceof ChainRpcError && err.rpcCode === METHOD_NOT_FOUND) return null;
      throw err;
    }
  }

  async getRawTransaction(txid: string): Promise<RawTransactionInfo | null> {
    const raw = await nullIfNotFound(this.call<RpcRawTx>('getrawtransaction', [txid, true]));
    return raw && toRawTx(raw);
  }

  async sendRawTransaction(hex: string): Promise<string> {
    return this.call<string>('sendrawtransaction', [hex], { retry: false });
  }

  async isInMempool(txid: string): Promise<boolean> {
    return (await nullIfNotFound(this.call<object>('getmempoolentry', [txid]))) !== null;
  }

  async locateTransaction(txid: string, waitMs = 0): Promise<TxPlace> {
    const end = Date.now() + waitMs;
    for (let pause = 20; ; pause *= 2) {
      const place = await this.placeOf(txid);
      if (place !== null || Date.now() >= end) return place;
      await sleep(Math.min(pause, Math.max(0, end - Date.now())));
    }
  }

  private async placeOf(txid: string): Promise<TxPlace> {
    if (await this.isInMempool(txid)) return 'mempool';
    const tx = await this.getRawTransaction(txid);
    if (tx === null) return null;
    return tx.confirmations > 0 ? 'chain' : 'mempool';
  }

  async getTxOut(txid: string, vout: number): Promise<TxOutInfo | null> {
    const raw = await this.call<RpcTxOut | null>('gettxout', [txid, vout, true]);
    return raw && toTxOut(raw);
  }

  async estimateFeeRate(targetBlocks: number): Promise<number | null> {
    const raw = await this.call<{ feerate?: number; fee?: number }>('estimatesmartfee', [targetBlocks]);
    const btcPerKvB = raw.feerate ?? raw.fee ?? -1;
    return btcPerKvB > 0 ? btcPerKvB * 1e5 : null;
  }

  async getNetworkInfo(): Promise<ChainNetworkInfo> {
    const chain = await this.call<{ chain: string; blocks: number; bestblockhash: string }>('getblockchaininfo');
    const net = await this.call<{ relayfee: number; subversion: string }>('getnetworkinfo');
    return {
      network: toNetwork(chain.chain),
      blocks: chain.blocks,
      bestBlockHash: chain.bestblockhash,
      relayFeeSatVb: net.relayfee * 1e5,
      subversion: net.subversion,
    };
  }
}

/** A failure to reach the node or read its answer: the only kind of error a read retries. */
class TransportError extends DomainError {
  constructor(message: string) {
    super('CHAIN_UNAVAILABLE', message);
  }
}

function isTransportFailure(err: unknown): boolean {
  return err instanceof TransportError || (err instanceof ChainRpcError && err.rpcCode === -28);
}

function parseJson(text: string): RpcEnvelope | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as RpcEnvelope) : null;
  } catch {
    return null;
  }
}

async function nullIfNotFound<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

/** BTC amounts arrive as JSON numbers with 8 decimals; rounding recovers the exact satoshi count. */
export function btcToSat(btc: number): number {
  return Math.round(btc * 1e8);
}

function toNetwork(chain: string): BitcoinNetwork {
  if (chain === 'main') return 'mainnet';
  if (chain === 'test' || chain === 'testnet' || chain === 'testnet4') return 'testnet';
  if (chain === 'signet' || chain === 'regtest') return chain;
  throw new DomainError('CHAIN_UNAVAILABLE', `node reports an unknown chain "${chain}"`);
}

interface RpcBlockHeader {
  hash: string;
  height: number;
  confirmations: number;
  version: number;
  merkleroot: string;
  time: number;
  mediantime: number;
  bits: string | number;
  previousblockhash?: string | null;
}

interface RpcBlock extends RpcBlockHeader {
  tx: string[];
}

interface RpcRawTx {
  txid: string;
  hex: string;
  confirmations?: number;
  blockhash?: string | null;
  blocktime?: number;
  vout: { value: number; n: number; scriptPubKey: { hex: string } }[];
}

interface RpcTxOut {
  bestblock: string;
  confirmations: number;
  value: number;
  scriptPubKey: { hex: string };
  coinbase: boolean;
}

function toHeader(r: RpcBlockHeader): BlockHeaderInfo {
  const bits = typeof r.bits === 'number' ? r.bits.toString(16).padStart(8, '0') : r.bits;
  return {
    hash: r.hash,
    height: r.height,
    confirmations: r.confirmations,
    version: r.version,
    merkleRoot: r.merkleroot,
    time: r.time,
    medianTime: r.mediantime,
    bits,
    previousBlockHash: r.previousblockhash ?? null,
  };
}

function toBlock(r: RpcBlock): BlockInfo {
  return {
    hash: r.hash,
    height: r.height,
    confirmations: r.confirmations,
    time: r.time,
    merkleRoot: r.merkleroot,
    previousBlockHash: r.previousblockhash ?? null,
    txids: r.tx,
  };
}

function toRawTx(r: RpcRawTx): RawTransactionInfo {
  const blockHash = r.blockhash ?? null;
  return {
    txid: r.txid,
    hex: r.hex,
    confirmations: blockHash ? (r.confirmations ?? 0) : 0,
    blockHash,
    blockTime: blockHash ? (r.blocktime ?? null) : null,
    vout: r.vout.map((o) => ({ n: o.n, valueSat: btcToSat(o.value), scriptHex: o.scriptPubKey.hex })),
  };
}

function toTxOut(r: RpcTxOut): TxOutInfo {
  return {
    confirmations: r.confirmations,
    valueSat: btcToSat(r.value),
    scriptHex: r.scriptPubKey.hex,
    coinbase: r.coinbase,
    bestBlock: r.bestblock,
  };
}
