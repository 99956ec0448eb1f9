import type { KeyVault } from '../../app/anchoring/key-vault.port.js';
import { DomainError } from '../../core/errors.js';
import type { Sql } from './sql.js';

/** The `setting` row holding the sealed anchoring key. */
export const ANCHORING_KEY_SETTING = 'bitcoin.anchoring-key';

/**
 * The anchoring key at rest, in the `setting` table. The first save wins: when two processes start
 * together and both generate a key, the second `save` finds another key stored and throws CONFLICT,
 * so that process opens the stored one instead of signing with a key nobody funds.
 */
export function keyVaultRepository(sql: Sql, now: () => number): KeyVault {
  return {
    async load() {
      const rows = await sql.query<{ value: string }>('SELECT value FROM setting WHERE key = $1', [
        ANCHORING_KEY_SETTING,
      ]);
      return rows[0]?.value ?? null;
    },
    async save(sealed) {
      await sql.query(
        'INSERT INTO setting (key, value, last_modified) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING',
        [ANCHORING_KEY_SETTING, sealed, now()],
      );
      const rows = await sql.query<{ value: string }>('SELECT value FROM setting WHERE key = $1', [
        ANCHORING_KEY_SETTING,
      ]);
      if (rows[0]?.value !== sealed)
        throw new DomainError('CONFLICT', 'another process stored the anchoring key first');
    },
  };
}
