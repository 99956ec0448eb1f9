/**
 * The anchoring key's coins, as the service itself knows them. Neither bitcoind nor bcoin offers a node
 * RPC that lists the unspent outputs of an address (no shared listunspent / scantxoutset), so the service
 * keeps its own list: deposits registered by txid and the change of its own transactions. Rows are
 * re-checked on chain (`gettxout`) before they are spent.
 *
 * Status:
 * - `available`: believed unspent, may be selected;
 * - `reserved`: an input of one of our transactions not yet known to be confirmed (a fee bump spends the
 *   same rows again);
 * - `spent`: spent on chain (found gone by `gettxout`, or its spending transaction confirmed);
 * - `abandoned`: the change of a transaction that was replaced, so it will never exist.
 */
export type UtxoStatus = 'available' | 'reserved' | 'spent' | 'abandoned';

/** One output of the anchoring key. The primary key is (txid, vout). */
export interface UtxoRow {
  txid: string;
  vout: number;
  /** Satoshis (a safe integer). */
  valueSat: number;
  /** scriptPubKey, hex. */
  scriptHex: string;
  status: UtxoStatus;
}

export interface UtxoStore {
  /** All rows with `status`, in insertion order. */
  list(status: UtxoStatus): Promise<UtxoRow[]>;
  /** Inserts rows; a row whose (txid, vout) exists is left as it is. */
  add(rows: UtxoRow[]): Promise<void>;
  /** Sets the status of existing rows, but those whose status is `unless`; unknown outpoints are ignored. */
  setStatus(outpoints: { txid: string; vout: number }[], status: UtxoStatus, unless?: UtxoStatus): Promise<void>;
}
