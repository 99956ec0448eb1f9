/**
 * Batches and the Bitcoin transactions that carry them, as the batching use cases see them, and the
 * anchoring wallet (the service's own key; adapter in `adapters/chain/anchoring-wallet.ts`).
 */
import type { AnchorTxInfo, BitcoinNetwork, FeeCap, SpendableUtxo } from '../../core/bitcoin/anchor-tx.js';
import type { TxMerkleBranch } from '../../core/bitcoin/block-merkle.js';
import type { UtxoRow } from './utxo.port.js';

export type BatchStatus = 'WAIT' | 'SENT' | 'CONFIRMED';

/** Where a batch's transaction was first seen confirmed. */
export interface BlockRecord {
  readonly blockHash: string;
  readonly blockHeight: number;
  /** Block time, ms. */
  readonly blockTime: number;
}

export interface Batch {
  readonly id: string;
  readonly status: BatchStatus;
  readonly root: Buffer;
  readonly leafCount: number;
  /** The transaction the anchors' receipts name: the latest broadcast, then the one that confirmed. */
  readonly txId: string | null;
  /** Null until the first confirmation, and again after a reorg took it away. */
  readonly block: BlockRecord | null;
  readonly confirmations: number;
  readonly created: number;
}

/** What `/ots` needs besides the receipt: stored at the first confirmation. */
export interface BatchConfirmationProof extends BlockRecord {
  readonly txId: string;
  readonly rawTx: string;
  readonly txMerkleBranch: TxMerkleBranch;
  /**
   * The block's serialized 80-byte header, hex: stored with the rest at the first confirmation, so that a proof
   * bundle's SPV data never need a node. Null only for a batch confirmed before it was stored, until a worker
   * reads it from its node ({@link BatchRepository.setBlockHeader}).
   */
  readonly blockHeader: string | null;
}

/** A range of anchor sequence numbers, ends included, holding `count` anchors. */
export interface SeqRange {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly count: number;
}

/** What closing a batch writes: one row, whatever the number of anchors (its tree goes in parts beside it). */
export interface ClosedBatchRow {
  readonly id: string;
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** Leaves of the tree: twice the range's length (blinded layout). */
  readonly leafCount: number;
  /** The secret key the leaf level's siblings derive from (core/merkle/blinding.ts); never served. */
  readonly treeKey: Buffer;
  readonly now: number;
}

export interface BatchRepository {
  /** Serialises batch closing across processes until the end of the current transaction. */
  lockClosing(): Promise<void>;
  /** True when some anchor has no batch yet. */
  hasUnbatched(): Promise<boolean>;
  /**
   * The creation time of the oldest anchor still waiting (in no batch, or in a batch not yet sent) and
   * the closing time of the last non-empty batch; null when there is none.
   */
  batchingState(): Promise<{ oldestWaitingCreated: number | null; lastClosed: number | null }>;
  /** The creation time of the oldest unbatched anchor (null: none), and whether `fullSize` of them wait. */
  unbatchedState(fullSize: number): Promise<{ oldestCreated: number | null; full: boolean }>;
  /**
   * The highest anchor seq such that every anchor up to it is committed (or rolled back for good): waits for
   * the transactions inserting anchors, in a short transaction of its own. Call it outside a transaction.
   */
  sealedSeq(): Promise<number>;
  /** The next `max` unbatched anchors up to `sealedSeq` (seq order): their first and last seq and count; null when none. */
  claimRange(max: number, sealedSeq: number): Promise<SeqRange | null>;
  /**
   * Leaves (packed, 32 bytes each) of the unbatched anchors from `firstSeq` to `lastSeq`, seq order, with their
   * seqs when some seq of the range has no anchor (null when each has one). Read a chunk at a time.
   */
  rangeLeaves(firstSeq: number, lastSeq: number): Promise<{ leaves: Buffer; seqs: number[] | null }>;
  /**
   * Inserts a closed WAIT batch owning the anchors of a seq range, its root still to be set ({@link setRoot}):
   * its tree's parts are written while the rest is hashed, in the same transaction.
   */
  insertClosed(batch: ClosedBatchRow): Promise<void>;
  /** Stores one part of a batch's tree (levels 1 up, core/merkle/batch-tree.ts). */
  insertTreePart(batchId: string, part: number, nodes: Buffer): Promise<void>;
  /** Sets the root of the batch {@link insertClosed} inserted, in the same transaction. */
  setRoot(batchId: string, root: Buffer): Promise<void>;
  /**
   * What a receipt of the batch may still change by: the transaction it names (null unless SENT or
   * CONFIRMED) and whether it is settled. Null when there is no such batch.
   */
  receiptState(id: string): Promise<{ txId: string | null; settled: boolean } | null>;
  /** Marks CONFIRMED batches whose block is at or below `height` settled: their receipts can no longer change. */
  settleUpTo(height: number): Promise<void>;
  findById(id: string): Promise<Batch | null>;
  /** WAIT batches with a tree and no transaction that could still confirm, oldest first. */
  waitingForTx(): Promise<Batch[]>;
  /** Batches in a broadcast transaction not yet CONFIRMED, oldest first. */
  sent(): Promise<Batch[]>;
  /** CONFIRMED batches whose block is above `minHeight`, oldest first (still watched for reorgs). */
  confirmedAbove(minHeight: number): Promise<Batch[]>;
  /** WAIT → SENT with `txId`; false when the batch was not WAIT. */
  markSent(id: string, txId: string, now: number): Promise<boolean>;
  /** Names a replacement as the transaction of a SENT batch not yet confirmed (no-op otherwise). */
  setTxId(id: string, txId: string, now: number): Promise<void>;
  /** First confirmation of `proof.txId`: block, raw transaction and its block Merkle branch. */
  recordConfirmation(id: string, proof: BatchConfirmationProof, confirmations: number, now: number): Promise<void>;
  /** Updates the confirmation count; `confirmed` moves the batch to CONFIRMED. */
  setConfirmations(
    id: string,
    depth: { readonly confirmations: number; readonly confirmed: boolean },
    now: number,
  ): Promise<void>;
  /** A reorg took the block away: back to SENT with no block data. */
  clearConfirmation(id: string, now: number): Promise<void>;
  /** Back to WAIT with no transaction (its transactions can never confirm). */
  resetToWait(id: string, now: number): Promise<void>;
  /** The stored confirmation data, or null before the first confirmation. */
  confirmationProof(id: string): Promise<BatchConfirmationProof | null>;
  /** Batches with block data but no stored header (confirmed before headers were stored), at most `limit`. */
  withoutBlockHeader(limit: number): Promise<{ id: string; blockHash: string }[]>;
  /** The height of the lowest block any batch is confirmed in, or null when none is. */
  lowestBlockHeight(): Promise<number | null>;
  /** Stores the header of the batch's block, if the batch is still in that block. */
  setBlockHeader(id: string, blockHash: string, header: string): Promise<void>;
}

export type BtcTxStatus = 'SIGNED' | 'BROADCAST' | 'REPLACED' | 'CONFIRMED' | 'ABANDONED';

/** A transaction the service signed. */
export interface BtcTx {
  readonly txid: string;
  readonly batchId: string;
  readonly hex: string;
  readonly feeSat: number;
  readonly feeRateSatVb: number;
  readonly vsize: number;
  readonly inputs: SpendableUtxo[];
  readonly change: SpendableUtxo | null;
  /** The txid of the transaction this one replaces (fee bump), or null. */
  readonly replaces: string | null;
  readonly status: BtcTxStatus;
  /** Chain height when it was broadcast; null while SIGNED. */
  readonly broadcastHeight: number | null;
  readonly created: number;
}

export interface BtcTxRepository {
  /**
   * Runs `fn` while no other process signs or broadcasts: on PostgreSQL under an advisory lock held by a
   * transaction of its own, which the database frees when the holder's connection ends (a killed worker
   * holds nothing); null at once, without running `fn`, when a live process holds it. The embedded store
   * has one process, whose job engine runs one send at a time: `fn` just runs.
   */
  whileSending<T>(fn: () => Promise<T>): Promise<T | null>;
  insert(tx: BtcTx): Promise<void>;
  /** Transactions of a batch, newest first. */
  ofBatch(batchId: string): Promise<BtcTx[]>;
  withStatus(status: BtcTxStatus): Promise<BtcTx[]>;
  findByTxid(txid: string): Promise<BtcTx | null>;
  setStatus(txid: string, status: BtcTxStatus, now: number, broadcastHeight?: number): Promise<void>;
  /**
   * Coins `reserved` that no live transaction (SIGNED, BROADCAST, CONFIRMED) spends go back to
   * `available`: a crash between reserving and recording the transaction left them so. Returns how many.
   */
  releaseOrphanReservations(): Promise<number>;
}

/** The anchoring key and its coins. */
export interface AnchorWallet {
  readonly address: string;
  readonly network: BitcoinNetwork;
  /** Builds and signs the anchoring transaction of `root`; reserves its inputs, records its change. */
  createAnchorTx(root: Uint8Array, feeRateSatVb: number, feeCap?: FeeCap): Promise<AnchorTxInfo>;
  /** The BIP-125 replacement of `prev`: same inputs, higher fee. */
  bumpAnchorTx(prev: AnchorTxInfo, newFeeRateSatVb: number, feeCap: FeeCap): Promise<AnchorTxInfo>;
  /** Registers the outputs of a deposit that pay the anchoring address. */
  importDeposit(txid: string): Promise<UtxoRow[]>;
  /** Sum of the coins believed available, satoshis. */
  balanceSat(): Promise<number>;
}

/** Fee and confirmation settings of the batching jobs (from the configuration). */
export interface AnchoringSettings {
  readonly batchMaxSize: number;
  readonly confirmationsRequired: number;
  readonly feeRateSatVb: number;
  readonly feeCapSatVb: number;
  /** Upper bound of one transaction's fee, satoshis. */
  readonly maxFeeSat: number;
  readonly bumpAfterBlocks: number;
  /** CONFIRMED batches stay watched for reorgs until their block is this deep. */
  readonly reorgWatchDepth: number;
}
