import type { AttemptCounterRepository } from '../../app/accounts/attempt-counter.port.js';
import type { Sql } from './sql.js';

/**
 * One `INSERT … ON CONFLICT … DO UPDATE … RETURNING` per reservation: PostgreSQL locks the row, so two
 * processes adding at once both see their own increment. Both statements lock their rows in key order,
 * so that concurrent statements on the same keys never deadlock.
 */
export function attemptCounterRepository(sql: Sql): AttemptCounterRepository {
  return {
    async reserve(keys, windowStart, expiresAt) {
      const rows = await sql.query<{ key: string; count: number }>(
        `INSERT INTO attempt_counter AS c (key, window_start, count, expires_at)
         SELECT k, $2, 1, $3 FROM unnest($1::text[]) AS k ORDER BY k
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN c.window_start >= EXCLUDED.window_start THEN c.count + 1 ELSE 1 END,
           window_start = GREATEST(c.window_start, EXCLUDED.window_start),
           expires_at = GREATEST(c.expires_at, EXCLUDED.expires_at)
         RETURNING key, count`,
        [[...new Set(keys)].sort(), windowStart, expiresAt],
      );
      const countOf = new Map(rows.map((r) => [r.key, r.count]));
      return keys.map((k) => countOf.get(k)!);
    },
    async release(keys, windowStart) {
      await sql.query(
        `WITH locked AS (
           SELECT key FROM attempt_counter WHERE key = ANY($1::text[]) AND window_start = $2 ORDER BY key FOR UPDATE
         )
         UPDATE attempt_counter c SET count = c.count - 1 FROM locked WHERE c.key = locked.key AND c.count > 0`,
        [[...new Set(keys)], windowStart],
      );
    },
    async purgeExpired(now) {
      const rows = await sql.query<{ n: number }>(
        'WITH gone AS (DELETE FROM attempt_counter WHERE expires_at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
        [now],
      );
      return rows[0]?.n ?? 0;
    },
  };
}
