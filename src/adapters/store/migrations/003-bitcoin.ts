/**
 * The service's Bitcoin state.
 * - utxo: the anchoring key's coins as the service knows them (deposits registered by txid, the change of
 *   its own transactions); see `app/ports/utxo.port.ts` for the statuses. `seq` keeps insertion order.
 * - btc_tx: every transaction the service signed, written BEFORE it is broadcast (status SIGNED), so a
 *   crash between broadcast and bookkeeping finds the very same bytes to reconcile and never signs a
 *   second transaction for the batch. A fee bump adds a row spending the same inputs (`replaces` names
 *   the row it replaces), so at most one transaction of a batch can ever confirm.
 *   SIGNED → BROADCAST → CONFIRMED (in a block; back to BROADCAST on a reorg); REPLACED when another
 *   transaction of the same batch confirmed; ABANDONED when it can never confirm (its inputs are gone).
 * The sealed anchoring key lives in `setting` (key `bitcoin.anchoring-key`).
 */
export const sql = `
CREATE TABLE utxo (
  txid text NOT NULL,
  vout integer NOT NULL,
  value_sat bigint NOT NULL,
  script_hex text NOT NULL,
  status text NOT NULL CHECK (status IN ('available', 'reserved', 'spent', 'abandoned')),
  seq bigserial NOT NULL,
  PRIMARY KEY (txid, vout)
);
CREATE INDEX utxo_status_idx ON utxo (status, seq);

CREATE TABLE btc_tx (
  txid text PRIMARY KEY,
  batch_id uuid NOT NULL REFERENCES batch (id),
  raw_hex text NOT NULL,
  fee_sat bigint NOT NULL,
  fee_rate_sat_vb double precision NOT NULL,
  vsize integer NOT NULL,
  inputs jsonb NOT NULL,
  change jsonb,
  replaces text REFERENCES btc_tx (txid),
  status text NOT NULL CHECK (status IN ('SIGNED', 'BROADCAST', 'REPLACED', 'CONFIRMED', 'ABANDONED')),
  broadcast_height integer,
  created bigint NOT NULL,
  last_modified bigint NOT NULL
);
CREATE INDEX btc_tx_batch_idx ON btc_tx (batch_id, created);
CREATE INDEX btc_tx_live_idx ON btc_tx (status) WHERE status IN ('SIGNED', 'BROADCAST');
`;
