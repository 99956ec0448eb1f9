/**
 * The Chain port: the only Bitcoin node calls the service makes. Each one is answered the same way by
 * Bitcoin Core (production) and by bcoin (the embedded regtest node), so nothing here may rely on the
 * wallet RPC, `fundrawtransaction` or `getblock` verbosity 2 (see docs/bitcoin.md, "Production");
 * `scantxoutset` (bitcoind only) is optional and reported absent. Hashes and txids are 64-char lowercase hex in RPC (display) byte order.
 */

import type { BitcoinNetwork } from '../../core/bitcoin/anchor-tx.js';

/** Networks the service runs on; `chain` as reported by the node is normalised to these names. */
export type { BitcoinNetwork };

/** `getblockheader <hash> true`, reduced to the fields both nodes return. */
export interface BlockHeaderInfo {
  hash: string;
  height: number;
  /** -1 when the block is not on the main chain (Bitcoin Core), as reported by the node. */
  confirmations: number;
  version: number;
  merkleRoot: string;
  /** Block time, seconds since the epoch. */
  time: number;
  medianTime: number;
  /** Compact target as 8 hex chars (bcoin answers a number, Core a hex string). */
  bits: string;
  previousBlockHash: string | null;
}

/** `getblock <hash> true`: the txids in block order, for confirmation reads and merkle branches. */
export interface BlockInfo {
  hash: string;
  height: number;
  confirmations: number;
  time: number;
  merkleRoot: string;
  previousBlockHash: string | null;
  txids: string[];
}

/** One output of a transaction, value in satoshis. */
export interface TxOutputInfo {
  n: number;
  valueSat: number;
  scriptHex: string;
}

/** `getrawtransaction <txid> true`. `confirmations` is 0 and `blockHash` null while unconfirmed. */
export interface RawTransactionInfo {
  txid: string;
  hex: string;
  confirmations: number;
  blockHash: string | null;
  blockTime: number | null;
  vout: TxOutputInfo[];
}

/** `gettxout <txid> <vout>` (mempool included): an unspent output, or null when spent or unknown. */
export interface TxOutInfo {
  /** 0 for an output of a mempool transaction. */
  confirmations: number;
  valueSat: number;
  scriptHex: string;
  coinbase: boolean;
  bestBlock: string;
}

/** `getblockchaininfo` + `getnetworkinfo`. */
export interface ChainNetworkInfo {
  network: BitcoinNetwork;
  blocks: number;
  bestBlockHash: string;
  /** Minimum relay fee rate, sat/vB. */
  relayFeeSatVb: number;
  subversion: string;
}

/** Where a node holds a transaction; null: neither in its mempool nor in its chain. */
export type TxPlace = 'mempool' | 'chain' | null;
/** An unspent output found by `scantxoutset`. */
export interface ScannedOutput {
  txid: string;
  vout: number;
  valueSat: number;
  scriptHex: string;
}

export interface ChainPort {
  getBlockCount(): Promise<number>;
  /** Null when the height is above the tip. */
  getBlockHash(height: number): Promise<string | null>;
  /** Null when the node does not know the block. */
  getBlockHeader(hash: string): Promise<BlockHeaderInfo | null>;
  /** The serialized 80-byte header as 160 hex chars; null when unknown. */
  getBlockHeaderHex(hash: string): Promise<string | null>;
  /** Null when the node does not know the block. */
  getBlock(hash: string): Promise<BlockInfo | null>;
  /** The serialized block (`getblock <hash> 0`) as hex; null when the node does not know the block. */
  getBlockHex(hash: string): Promise<string | null>;
  /**
   * `scantxoutset start ["addr(<address>)"]`: the unspent outputs paying `address` in the UTXO set.
   * Null when the node has no such call (bcoin): coins that arrived earlier are then found only by txid.
   */
  scanAddressOutputs(address: string): Promise<ScannedOutput[] | null>;
  /** Null when the node knows no such transaction (mempool or indexed chain). */
  getRawTransaction(txid: string): Promise<RawTransactionInfo | null>;
  /**
   * Submits a signed transaction; one attempt, never retried. Returns the txid the node reports.
   * bcoin returns the txid even when its mempool then rejects the transaction, and before its mempool
   * has looked at it: confirm with {@link ChainPort.locateTransaction}.
   */
  sendRawTransaction(hex: string): Promise<string>;
  /** `getmempoolentry`: true when the transaction sits in the node's mempool. */
  isInMempool(txid: string): Promise<boolean>;
  /**
   * Where the node holds the transaction: its mempool (`getmempoolentry`), its chain (`getrawtransaction`;
   * bitcoind needs `-txindex` for confirmed ones), or nowhere (null). While nowhere, asks again for up to
   * `waitMs` (default 0): bcoin answers `sendrawtransaction` before its mempool has taken the transaction.
   */
  locateTransaction(txid: string, waitMs?: number): Promise<TxPlace>;
  /** Null when the output is spent or unknown. Mempool spends and outputs are taken into account. */
  getTxOut(txid: string, vout: number): Promise<TxOutInfo | null>;
  /** `estimatesmartfee`, in sat/vB; null when the node has no estimate (bcoin always). */
  estimateFeeRate(targetBlocks: number): Promise<number | null>;
  getNetworkInfo(): Promise<ChainNetworkInfo>;
}
