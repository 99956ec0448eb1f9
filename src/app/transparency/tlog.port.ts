/** What the transparency log keeps in the store (src/adapters/store/tlog.repository.ts; docs/transparency-log.md). */
import type { SignerEventName } from '../../core/tlog/entry.js';
import type { TileContent } from '../../core/tlog/append.js';

/** An anchor as its log entry needs it (the columns that never change, and `public` as it now is). */
export interface LoggedAnchor {
  readonly seq: number;
  readonly id: string;
  readonly kind: 'data' | 'signature';
  readonly created: number;
  readonly public: boolean;
  /** The anchor's leaf (its receipt's target hash), in hex. */
  readonly leafHex: string;
  readonly hash: string;
  readonly pubKey: string | null;
  readonly signedIdentity: string | null;
  readonly signedIssuerDomain: string | null;
}

/** A signing event, written in the transaction that makes it. */
export interface PendingSignerEvent {
  readonly event: SignerEventName;
  readonly requestId: string;
  readonly signerId: string | null;
  /** The signature's anchor (SIGNED). */
  readonly anchorId: string | null;
  readonly at: number;
}

/** A pending signing event taken by the sequencer, with its signature's key and identity (from its anchor). */
export interface TakenSignerEvent extends PendingSignerEvent {
  readonly pubKey: string | null;
  readonly signedIdentity: string | null;
}

/** Where a signing event's entry landed: its request, its index, and the signature's anchor it names (SIGNED). */
export interface EventRef {
  readonly requestId: string;
  readonly index: number;
  readonly anchorId: string | null;
}

export interface LogState {
  readonly size: number;
  /** Every anchor up to this seq is in the log (bar the log's own checkpoint seals). */
  readonly anchorSeq: number;
}

export interface StoredCheckpoint {
  readonly size: number;
  readonly root: Buffer;
  /** The signed note, as served at /log/checkpoint. */
  readonly note: string;
  readonly created: number;
  /** The anchor sealing the root, when one was made. */
  readonly anchorId: string | null;
}

export interface Bundle {
  readonly index: number;
  readonly count: number;
  /** The bundle's bytes (C2SP tlog-tiles entry bundle). */
  readonly entries: Buffer;
}

export interface TlogRepository {
  /** Adds a signing event to be logged: call it on the transaction's store that records the event. */
  addSignerEvent(e: PendingSignerEvent): Promise<void>;
  /**
   * Whether anything may wait for the sequencer (a quick read without locks): an anchor past the log's cursor
   * (but those of `exceptAccount`), a pending signing event, or a sealed checkpoint whose receipt is not logged.
   */
  hasWork(exceptAccount: string): Promise<boolean>;
  /** The log's state, locked until the transaction ends (one sequencer at a time). */
  lockState(): Promise<LogState>;
  saveState(s: LogState): Promise<void>;
  /** Anchors with seq in (after, upTo], in seq order, at most `limit`, but those of `exceptAccount`. */
  anchorsAfter(after: number, upTo: number, limit: number, exceptAccount: string): Promise<LoggedAnchor[]>;
  /**
   * Removes and returns the oldest pending signing events (at most `limit`), in the order they were written, up to
   * the first one naming an anchor past `anchorsUpTo` (not in the log yet): that one and those after it wait, so a
   * SIGNED event never comes before the anchor it names, nor a later event before it.
   */
  takeSignerEvents(limit: number, anchorsUpTo: number): Promise<TakenSignerEvent[]>;
  /** The stored tile, or null. */
  tile(level: number, index: number): Promise<Buffer | null>;
  writeTiles(tiles: readonly TileContent[]): Promise<void>;
  bundle(index: number): Promise<Bundle | null>;
  writeBundles(bundles: readonly Bundle[]): Promise<void>;
  /** Remembers the index of anchors' entries, by the anchor's seq: `seqs[k]`'s entry is at `firstIndex + k`. */
  addRefs(firstIndex: number, seqs: readonly number[]): Promise<void>;
  /** The index of an anchor's entry, or null (not logged, or not yet). */
  indexOf(anchorId: string): Promise<number | null>;
  /** Remembers where signing events' entries landed: call it in the transaction that appends them. */
  addEventRefs(refs: readonly EventRef[]): Promise<void>;
  /** The signing events of a request that are logged, in log order (those logged before migration 037 are not). */
  eventRefs(requestId: string): Promise<EventRef[]>;
  addCheckpoint(c: StoredCheckpoint): Promise<void>;
  /** The newest checkpoint, or the one of a given size. */
  checkpoint(size?: number): Promise<StoredCheckpoint | null>;
  /** The oldest checkpoint of at least `size` entries (null: none yet). */
  checkpointCovering(size: number): Promise<StoredCheckpoint | null>;
  /** The size of the newest checkpoint whose root was sealed (0 when none). */
  lastSealedSize(): Promise<number>;
  /** Sealed checkpoints whose receipt is not in the log yet, oldest first. */
  sealedUnlogged(limit: number): Promise<StoredCheckpoint[]>;
  markReceiptLogged(size: number): Promise<void>;
  /**
   * How far the log is written to the object store: every full tile and entry bundle of a log of this size is
   * there (and a checkpoint no larger, with its partial tiles). 0 before the first write.
   */
  publishedSize(): Promise<number>;
  /** Records a larger published size (a smaller one is ignored). */
  savePublishedSize(size: number): Promise<void>;
}
