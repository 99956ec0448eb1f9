import type { UtxoRow, UtxoStatus, UtxoStore } from '../../src/app/anchoring/utxo.port.js';

/** UtxoStore in memory, for tests; keyed by `txid:vout`, keeps insertion order. */
export class MemoryUtxoStore implements UtxoStore {
  readonly rows = new Map<string, UtxoRow>();

  async list(status: UtxoStatus): Promise<UtxoRow[]> {
    return [...this.rows.values()].filter((r) => r.status === status).map((r) => ({ ...r }));
  }

  async add(rows: UtxoRow[]): Promise<void> {
    for (const row of rows) {
      const key = `${row.txid}:${row.vout}`;
      if (!this.rows.has(key)) this.rows.set(key, { ...row });
    }
  }

  async setStatus(outpoints: { txid: string; vout: number }[], status: UtxoStatus, unless?: UtxoStatus): Promise<void> {
    for (const { txid, vout } of outpoints) {
      const row = this.rows.get(`${txid}:${vout}`);
      if (row && row.status !== unless) row.status = status;
    }
  }
}
