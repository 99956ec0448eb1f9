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
import { isUuid } from '../../core/text/uuid.js';

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

const ANCHOR_COLUMNS = 'seq, id, kind, created, public, leaf, hash, pub_key, signed_identity, signed_issuer_domain';
/**
 * The anchors after a seq, up to another, but those of one account (the log's own seals), seq order; the leaf
 * in hex, as the entry holds it (a bytea column is sent as hex text anyway: read as such, it is not made a Buffer
 * to be turned back into hex).
 */
const ANCHORS_AFTER = `SELECT ${ANCHOR_COLUMNS.replace('leaf', "encode(leaf, 'hex') AS leaf")} FROM anchor
  WHERE seq > $1 AND seq <= $2 AND account_id <> $4 ORDER BY seq LIMIT $3`;

interface AnchorRow {
  seq: string;
  id: string;
  kind: 'data' | 'signature';
  created: string;
  public: boolean;
  leaf: string;
  hash: string;
  pub_key: string | null;
  signed_identity: string | null;
  signed_issuer_domain: string | null;
}

/** An {@link AnchorRow} as one JSON array. */
type PackedAnchor = [
  number,
  string,
  'data' | 'signature',
  number,
  boolean,
  string,
  string,
  string | null,
  string | null,
  string | null,
];

export interface TlogRepositoryOptions {
  /**
   * Read the sequencer's anchors as one JSON value rather than a row each. The embedded store's rows each cross
   * its WASM heap field by field (measured: 19–20 µs CPU a row, 4.6–6.2 µs as one JSON value); PostgreSQL's
   * backend pays more to build the JSON than its client saves (3.6 µs wall a row as rows, 6.2 as JSON).
   */
  readonly packedReads?: boolean;
}

/** The transparency log's tables (migration 035). */
export function tlogRepository(sql: Sql, opts: TlogRepositoryOptions = {}): TlogRepository {
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
      const params = [after, upTo, limit, exceptAccount];
      if (opts.packedReads) {
        const rows = await sql.query<{ j: string | null }>(
          `SELECT json_agg(json_build_array(${ANCHOR_COLUMNS}) ORDER BY seq)::text AS j
           FROM (${ANCHORS_AFTER}) a`,
          params,
        );
        const packed = JSON.parse(rows[0]?.j ?? '[]') as PackedAnchor[];
        return packed.map(([seq, id, kind, created, pub, leaf, hash, pubKey, identity, domain]): LoggedAnchor => ({
          seq: Number(seq),
          id,
          kind,
          created: Number(created),
          public: pub,
          leafHex: leaf,
          hash,
          pubKey,
          signedIdentity: identity,
          signedIssuerDomain: domain,
        }));
      }
      const rows = await sql.query<AnchorRow>(ANCHORS_AFTER, params);
      return rows.map((r): LoggedAnchor => ({
        seq: Number(r.seq),
        id: r.id,
        kind: r.kind,
        created: Number(r.created),
        public: r.public,
        leafHex: r.leaf,
        hash: r.hash,
        pubKey: r.pub_key,
        signedIdentity: r.signed_identity,
        signedIssuerDomain: r.signed_issuer_domain,
      }));
    },
    async takeSignerEvents(limit, anchorsUpTo) {
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
        `WITH held AS (
           SELECT min(p.id) AS id FROM tlog_pending p JOIN anchor a ON a.id = p.anchor_id WHERE a.seq > $2),
         taken AS (
           DELETE FROM tlog_pending WHERE id IN (
             SELECT id FROM tlog_pending WHERE (SELECT id FROM held) IS NULL OR id < (SELECT id FROM held)
             ORDER BY id LIMIT $1)
           RETURNING *)
         SELECT t.*, a.pub_key, a.signed_identity FROM taken t LEFT JOIN anchor a ON a.id = t.anchor_id ORDER BY t.id`,
        [limit, anchorsUpTo],
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
      // A statement per tile, its hashes a binary parameter (no hex text either way); in a transaction they
      // leave together without waiting for each other (`write`).
      for (const t of tiles)
        await sql.write(
          `INSERT INTO tlog_tile (level, idx, hashes) VALUES ($1, $2, $3)
           ON CONFLICT (level, idx) DO UPDATE SET hashes = excluded.hashes`,
          [t.level, t.index, t.hashes],
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
      for (const b of bundles)
        await sql.write(
          `INSERT INTO tlog_bundle (idx, count, entries) VALUES ($1, $2, $3)
           ON CONFLICT (idx) DO UPDATE SET count = excluded.count, entries = excluded.entries`,
          [b.index, b.count, b.entries],
        );
    },
    async addRefs(firstIndex, seqs) {
      const runs = refRuns(firstIndex, seqs);
      if (runs.length === 0) return;
      // The stretches as one JSON array: PGlite serializes array parameters three times slower than it parses
      // this (and PostgreSQL reads either as text).
      await sql.write(
        `INSERT INTO tlog_ref_run (seq_from, seq_to, idx_from)
         SELECT (r->>0)::bigint, (r->>1)::bigint, (r->>2)::bigint FROM jsonb_array_elements($1::jsonb) AS t(r)
         ON CONFLICT (seq_from) DO NOTHING`,
        [JSON.stringify(runs)],
      );
    },
    async indexOf(anchorId) {
      if (!isUuid(anchorId)) return null;
      const rows = await sql.query<{ idx: string }>(
        `SELECT r.idx_from + (a.seq - r.seq_from) AS idx
         FROM anchor a
         CROSS JOIN LATERAL (SELECT seq_from, seq_to, idx_from FROM tlog_ref_run
                             WHERE seq_from <= a.seq ORDER BY seq_from DESC LIMIT 1) r
         WHERE a.id = $1 AND a.seq <= r.seq_to`,
        [anchorId],
      );
      return rows[0] ? Number(rows[0].idx) : null;
    },
    async addEventRefs(refs) {
      if (refs.length === 0) return;
      // One JSON array for the whole run, as addRefs does.
      await sql.write(
        `INSERT INTO tlog_event_ref (request_id, idx, anchor_id)
         SELECT (e->>0)::uuid, (e->>1)::bigint, (e->>2)::uuid FROM jsonb_array_elements($1::jsonb) AS t(e)
         ON CONFLICT (request_id, idx) DO NOTHING`,
        [JSON.stringify(refs.map((r) => [r.requestId, r.index, r.anchorId]))],
      );
    },
    async eventRefs(requestId) {
      if (!isUuid(requestId)) return [];
      const rows = await sql.query<{ idx: string; anchor_id: string | null }>(
        'SELECT idx, anchor_id FROM tlog_event_ref WHERE request_id = $1 ORDER BY idx',
        [requestId],
      );
      return rows.map((r) => ({ requestId, index: Number(r.idx), anchorId: r.anchor_id }));
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
    async checkpointCovering(size) {
      const rows = await sql.query<CheckpointRow>(
        `SELECT size, root, note, created, anchor_id FROM tlog_checkpoint WHERE size >= $1 ORDER BY size LIMIT 1`,
        [size],
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
    async publishedSize() {
      const rows = await sql.query<{ size: string }>('SELECT size FROM tlog_published');
      return Number(rows[0]?.size ?? 0);
    },
    async savePublishedSize(size) {
      await sql.query('UPDATE tlog_published SET size = greatest(size, $1::bigint)', [size]);
    },
  };
}

/**
 * The stretches of `seqs` (ascending, at indexes `firstIndex`, `firstIndex + 1`, …) whose seqs follow one
 * another, as `[seqFrom, seqTo, idxFrom]` (migration 038).
 */
export function refRuns(firstIndex: number, seqs: readonly number[]): [number, number, number][] {
  const runs: [number, number, number][] = [];
  seqs.forEach((seq, k) => {
    const last = runs.at(-1);
    if (last && seq === last[1] + 1) last[1] = seq;
    else runs.push([seq, seq, firstIndex + k]);
  });
  return runs;
}
