import type {
  Bundle,
  LoggedAnchor,
  StoredCheckpoint,
  TakenSignerEvent,
  TlogRepository,
} from '../../app/transparency/tlog.port.js';
import type { SignerEventName } from '../../core/tlog/entry.js';
import { asBuffer } from '../../core/hash/hex.js';
import type { Sql } from './sql.js';

interface CheckpointRow {
  size: string;
  root: Uint8Array;
  note: string;
  created: string;
  anchor_id: string | null;
}

const toCheckpoint = (r: CheckpointRow): StoredCheckpoint => ({
  size: Number(r.size),
  root: asBuffer(r.root),
  note: r.note,
  created: Number(r.created),
  anchorId: r.anchor_id,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The transparency log's tables (migration 035). */
export function tlogRepository(sql: Sql): TlogRepository {
  return {
    async addSignerEvent(e) {
      await sql.write(
        'INSERT INTO tlog_pending (event, request_id, signee_id, anchor_id, at) VALUES ($1, $2, $3, $4, $5)',
        [e.event, e.requestId, e.signerId, e.anchorId, e.at],
      );
    },
    async hasWork(exceptAccount) {
      const rows = await sql.query<{ work: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM anchor WHERE seq > (SELECT anchor_seq FROM tlog_state) AND account_id <> $1)
             OR EXISTS (SELECT 1 FROM tlog_pending)
             OR EXISTS (SELECT 1 FROM tlog_checkpoint WHERE anchor_id IS NOT NULL AND NOT receipt_logged) AS work`,
        [exceptAccount],
      );
      return rows[0]?.work === true;
    },
    async lockState() {
      const rows = await sql.query<{ size: string; anchor_seq: string }>(
        'SELECT size, anchor_seq FROM tlog_state FOR UPDATE',
      );
      return { size: Number(rows[0]!.size), anchorSeq: Number(rows[0]!.anchor_seq) };
    },
    async saveState(s) {
      await sql.write('UPDATE tlog_state SET size = $1, anchor_seq = $2', [s.size, s.anchorSeq]);
    },
    async anchorsAfter(after, upTo, limit, exceptAccount) {
      const rows = await sql.query<{
        seq: string;
        id: string;
        kind: 'data' | 'signature';
        created: string;
        public: boolean;
        leaf: Uint8Array;
        hash: string;
        pub_key: string | null;
        signed_identity: string | null;
        signed_issuer_domain: string | null;
      }>(
        `SELECT seq, id, kind, created, public, leaf, hash, pub_key, signed_identity, signed_issuer_domain
         FROM anchor WHERE seq > $1 AND seq <= $2 AND account_id <> $4 ORDER BY seq LIMIT $3`,
        [after, upTo, limit, exceptAccount],
      );
      return rows.map((r): LoggedAnchor => ({
        seq: Number(r.seq),
        id: r.id,
        kind: r.kind,
        created: Number(r.created),
        public: r.public,
        leaf: asBuffer(r.leaf),
        hash: r.hash,
        pubKey: r.pub_key,
        signedIdentity: r.signed_identity,
        signedIssuerDomain: r.signed_issuer_domain,
      }));
    },
    async takeSignerEvents(limit) {
      const rows = await sql.query<{
        id: string;
        event: SignerEventName;
        request_id: string;
        signee_id: string | null;
        anchor_id: string | null;
        at: string;
        pub_key: string | null;
        signed_identity: string | null;
      }>(
        `WITH taken AS (
           DELETE FROM tlog_pending WHERE id IN (SELECT id FROM tlog_pending ORDER BY id LIMIT $1) RETURNING *)
         SELECT t.*, a.pub_key, a.signed_identity FROM taken t LEFT JOIN anchor a ON a.id = t.anchor_id ORDER BY t.id`,
        [limit],
      );
      return rows.map((r): TakenSignerEvent => ({
        event: r.event,
        requestId: r.request_id,
        signerId: r.signee_id,
        anchorId: r.anchor_id,
        at: Number(r.at),
        pubKey: r.pub_key,
        signedIdentity: r.signed_identity,
      }));
    },
    async tile(level, index) {
      const rows = await sql.query<{ hashes: Uint8Array }>(
        'SELECT hashes FROM tlog_tile WHERE level = $1 AND idx = $2',
        [level, index],
      );
      return rows[0] ? asBuffer(rows[0].hashes) : null;
    },
    async writeTiles(tiles) {
      if (tiles.length === 0) return;
      await sql.query(
        `INSERT INTO tlog_tile (level, idx, hashes)
         SELECT l, i, decode(h, 'hex') FROM unnest($1::smallint[], $2::bigint[], $3::text[]) AS u(l, i, h)
         ON CONFLICT (level, idx) DO UPDATE SET hashes = excluded.hashes`,
        [tiles.map((t) => t.level), tiles.map((t) => t.index), tiles.map((t) => t.hashes.toString('hex'))],
      );
    },
    async bundle(index) {
      const rows = await sql.query<{ count: number; entries: Uint8Array }>(
        'SELECT count, entries FROM tlog_bundle WHERE idx = $1',
        [index],
      );
      return rows[0] ? { index, count: rows[0].count, entries: asBuffer(rows[0].entries) } : null;
    },
    async writeBundles(bundles: readonly Bundle[]) {
      if (bundles.length === 0) return;
      await sql.query(
        `INSERT INTO tlog_bundle (idx, count, entries)
         SELECT i, n, decode(e, 'hex') FROM unnest($1::bigint[], $2::smallint[], $3::text[]) AS u(i, n, e)
         ON CONFLICT (idx) DO UPDATE SET count = excluded.count, entries = excluded.entries`,
        [bundles.map((b) => b.index), bundles.map((b) => b.count), bundles.map((b) => b.entries.toString('hex'))],
      );
    },
    async addRefs(refs) {
      if (refs.length === 0) return;
      await sql.query(
        'INSERT INTO tlog_ref (anchor_id, idx) SELECT * FROM unnest($1::uuid[], $2::bigint[]) ON CONFLICT (anchor_id) DO NOTHING',
        [refs.map((r) => r.anchorId), refs.map((r) => r.index)],
      );
    },
    async indexOf(anchorId) {
      if (!UUID.test(anchorId)) return null;
      const rows = await sql.query<{ idx: string }>('SELECT idx FROM tlog_ref WHERE anchor_id = $1', [anchorId]);
      return rows[0] ? Number(rows[0].idx) : null;
    },
    async addCheckpoint(c) {
      await sql.query(
        `INSERT INTO tlog_checkpoint (size, root, note, created, anchor_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (size) DO NOTHING`,
        [c.size, c.root, c.note, c.created, c.anchorId],
      );
    },
    async checkpoint(size) {
      const rows = await sql.query<CheckpointRow>(
        `SELECT size, root, note, created, anchor_id FROM tlog_checkpoint
         WHERE $1::bigint IS NULL OR size = $1 ORDER BY size DESC LIMIT 1`,
        [size ?? null],
      );
      return rows[0] ? toCheckpoint(rows[0]) : null;
    },
    async lastSealedSize() {
      const rows = await sql.query<{ size: string | null }>(
        'SELECT max(size) AS size FROM tlog_checkpoint WHERE anchor_id IS NOT NULL',
      );
      return Number(rows[0]?.size ?? 0);
    },
    async sealedUnlogged(limit) {
      const rows = await sql.query<CheckpointRow>(
        `SELECT size, root, note, created, anchor_id FROM tlog_checkpoint
         WHERE anchor_id IS NOT NULL AND NOT receipt_logged ORDER BY size LIMIT $1`,
        [limit],
      );
      return rows.map(toCheckpoint);
    },
    async markReceiptLogged(size) {
      await sql.write('UPDATE tlog_checkpoint SET receipt_logged = true WHERE size = $1', [size]);
    },
  };
}
