import type { UtxoRow, UtxoStatus, UtxoStore } from '../../app/anchoring/utxo.port.js';
import type { Sql } from './sql.js';

interface Row {
  txid: string;
  vout: number;
  value_sat: number;
  script_hex: string;
  status: UtxoStatus;
}

/** The anchoring key's coins (`utxo` table), behind the wallet's {@link UtxoStore} port. */
export function utxoRepository(sql: Sql): UtxoStore {
  return {
    async list(status) {
      const rows = await sql.query<Row>(
        'SELECT txid, vout, value_sat, script_hex, status FROM utxo WHERE status = $1 ORDER BY seq',
        [status],
      );
      return rows.map((r): UtxoRow => ({
        txid: r.txid,
        vout: r.vout,
        valueSat: r.value_sat,
        scriptHex: r.script_hex,
        status: r.status,
      }));
    },
    async add(rows) {
      if (rows.length === 0) return;
      await sql.query(
        `INSERT INTO utxo (txid, vout, value_sat, script_hex, status)
         SELECT e.r->>'txid', (e.r->>'vout')::int, (e.r->>'value_sat')::bigint, e.r->>'script_hex', e.r->>'status'
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(r, o)
         ORDER BY e.o
         ON CONFLICT (txid, vout) DO NOTHING`,
        [
          JSON.stringify(
            rows.map((r) => ({
              txid: r.txid,
              vout: r.vout,
              value_sat: r.valueSat,
              script_hex: r.scriptHex,
              status: r.status,
            })),
          ),
        ],
      );
    },
    async setStatus(outpoints, status, unless) {
      if (outpoints.length === 0) return;
      await sql.query(
        `UPDATE utxo u SET status = $2 FROM jsonb_to_recordset($1::jsonb) AS o(txid text, vout int)
         WHERE u.txid = o.txid AND u.vout = o.vout AND u.status IS DISTINCT FROM $3::text`,
        [JSON.stringify(outpoints.map((o) => ({ txid: o.txid, vout: o.vout }))), status, unless ?? null],
      );
    },
  };
}
