import type {
  Anchor,
  AnchorProofData,
  ReceiptAnchor,
  AnchorKind,
  AnchorRepository,
  AnchorSearch,
  AnchorStatus,
  HashFilter,
  MetadataValue,
  NewAnchor,
} from '../../app/anchoring/anchor.port.js';
import type { ResidentLevels } from '../../core/cache/resident-levels.js';
import { PART_NODES } from '../../core/merkle/batch-tree.js';
import { asBuffer } from '../../core/hash/hex.js';
import { blindingSiblings, blindingSiblingsAt } from '../../core/merkle/blinding.js';
import { HEADER_SIZE } from '../../core/merkle/serialize.js';
import { levelCounts, NODE_SIZE } from '../../core/merkle/tree.js';
import { groupCommit } from './group-commit.js';
import type { Sql } from './sql.js';
import { isUuid } from '../../core/text/uuid.js';

interface AnchorRow {
  id: string;
  account_id: string;
  name: string;
  kind: AnchorKind;
  hash: string;
  signature: string | null;
  pub_key: string | null;
  identity_url: string | null;
  signed_identity: string | null;
  signed_issuer_domain: string | null;
  leaf: Uint8Array;
  public: boolean;
  tags: string[];
  metadata: Record<string, MetadataValue> | null;
  callback_url: string | null;
  batch_id: string | null;
  created: number;
  last_modified: number;
  status: AnchorStatus;
  tx_id: string | null;
  confirmations: number | null;
  block_time: number | null;
}

/**
 * The anchor's batch as `b` (migration 021): the batch its `batch_id` names (batches closed before ranges),
 * else the batch whose seq range holds its `seq`; no row while unbatched. `a` is the anchor.
 */
const BATCH_OF_ANCHOR = `LEFT JOIN LATERAL (
    SELECT r.* FROM batch r WHERE r.id = a.batch_id
    UNION ALL
    (SELECT r.* FROM batch r WHERE a.batch_id IS NULL AND r.last_seq >= a.seq ORDER BY r.last_seq LIMIT 1)
  ) b ON a.batch_id IS NOT NULL OR b.first_seq <= a.seq`;

/** The anchor's position in its batch's tree (see {@link BATCH_OF_ANCHOR}). */
const LEAF_INDEX = `COALESCE(a.leaf_index, 2 * (a.seq - b.first_seq))::int`;

/** Anchor columns plus the fields derived from the batch; `a` is the anchor, `b` its batch ({@link BATCH_OF_ANCHOR}). */
const SELECT_ANCHOR = `a.id, a.account_id, a.name, a.kind, a.hash, a.signature, a.pub_key, a.identity_url, a.signed_identity,
  a.signed_issuer_domain, a.leaf, a.public, a.tags, a.metadata, a.callback_url, b.id AS batch_id, a.created, a.last_modified,
  COALESCE(b.status, 'WAIT') AS status, CASE WHEN b.status IN ('SENT', 'CONFIRMED') THEN b.tx_id END AS tx_id,
  b.confirmations, b.block_time`;

/** The columns of {@link ReceiptAnchor} (`a` the anchor, `b` its batch), the leaf as `leaf`: a receipt reads no more. */
const receiptAnchorColumns = (
  leaf: string,
) => `a.id, a.kind, a.hash, a.signature, a.pub_key, a.identity_url, a.signed_identity,
  a.signed_issuer_domain, ${leaf}, b.id AS batch_id, COALESCE(b.status, 'WAIT') AS status,
  CASE WHEN b.status IN ('SENT', 'CONFIRMED') THEN b.tx_id END AS tx_id`;

/** {@link receiptAnchorColumns} with the leaf as stored. */
const SELECT_RECEIPT_ANCHOR = receiptAnchorColumns('a.leaf');

/** A receipt exists once the batch has a transaction: until then no path is read. */
const HAS_TX = `b.tx_id IS NOT NULL AND b.status IN ('SENT', 'CONFIRMED')`;

/**
 * The sibling nodes of the anchor's proof path, leaf to root, from a whole serialised tree (batches closed
 * before migration 022; core/merkle/serialize.ts), read in the same statement: level j holds ceil(n / 2^j)
 * nodes after the levels below it; the sibling of position p on level j is (p >> j) XOR 1, absent when past
 * the level's end.
 */
const SERIALIZED_PATH_NODES = `(
    SELECT array_agg(substring(b.tree FROM ${HEADER_SIZE + 1} + ${NODE_SIZE} * (l.below + ((${LEAF_INDEX} >> l.j) # 1)) FOR ${NODE_SIZE}) ORDER BY l.j)
    FROM (SELECT j, ((b.leaf_count - 1) >> j) + 1 AS cnt,
                 (sum(((b.leaf_count - 1) >> j) + 1) OVER (ORDER BY j) - (((b.leaf_count - 1) >> j) + 1))::int AS below
          FROM generate_series(0, 30) AS j) l
    WHERE l.cnt > 1 AND ((${LEAF_INDEX} >> l.j) # 1) < l.cnt)`;

/**
 * The sibling nodes from level 1 to the root of a batch stored in parts (migration 022;
 * core/merkle/batch-tree.ts): the stored levels are a tree over the range's span (leaf_count / 2) whose node
 * on level 1 is the anchor's offset; node g of the stored form is in part g / PART_NODES. The leaf level's
 * sibling is derived from the key ({@link toProofData}).
 */
const PART_PATH_NODES = `(
    SELECT array_agg((SELECT substring(t.nodes FROM ((l.below + l.sib) % ${PART_NODES})::int * ${NODE_SIZE} + 1 FOR ${NODE_SIZE})
                      FROM batch_tree_part t WHERE t.batch_id = b.id AND t.part = (l.below + l.sib) / ${PART_NODES}) ORDER BY l.j)
    FROM (SELECT j, cnt, sum(cnt) OVER (ORDER BY j) - cnt AS below, ((a.seq - b.first_seq) >> j) # 1 AS sib
          FROM (SELECT j, (((b.leaf_count >> 1) - 1) >> j) + 1 AS cnt FROM generate_series(0, 30) AS j) c) l
    WHERE l.cnt > 1 AND l.sib < l.cnt)`;

/** The path's nodes as stored (see {@link SERIALIZED_PATH_NODES}, {@link PART_PATH_NODES}); null before a transaction. */
const PATH_NODES = `CASE WHEN ${HAS_TX} THEN CASE WHEN b.tree_key IS NULL THEN ${SERIALIZED_PATH_NODES} ELSE ${PART_PATH_NODES} END END`;

type ReceiptAnchorRow = Pick<
  AnchorRow,
  | 'id'
  | 'kind'
  | 'hash'
  | 'signature'
  | 'pub_key'
  | 'identity_url'
  | 'signed_identity'
  | 'signed_issuer_domain'
  | 'leaf'
  | 'batch_id'
  | 'status'
  | 'tx_id'
>;

type ProofRow = ReceiptAnchorRow & {
  root: Uint8Array | null;
  leaf_count: number | null;
  settled: boolean | null;
  leaf_index: number | null;
  nodes: Uint8Array[] | null;
  tree_key: Uint8Array | null;
};

/** The stored nodes of the path, behind the leaf level's sibling when it is derived from the batch's key. */
function pathNodes(r: ProofRow, leafSibling?: Buffer): Buffer[] {
  const stored = (r.nodes ?? []).map(asBuffer);
  if (r.tree_key === null || r.leaf_index === null) return stored;
  return [leafSibling ?? blindingSiblings(r.tree_key, r.leaf_index / 2, 1), ...stored];
}

const toProofData = (r: ProofRow, leafSibling?: Buffer): AnchorProofData => {
  const anchor = toReceiptAnchor(r);
  const batched = anchor.status !== 'WAIT' && r.root !== null && r.leaf_count !== null && r.leaf_index !== null;
  const batch = batched
    ? {
        root: asBuffer(r.root!),
        leafCount: r.leaf_count!,
        leafIndex: r.leaf_index!,
        nodes: pathNodes(r, leafSibling),
        settled: r.settled === true,
      }
    : null;
  return { anchor, batch };
};

const toReceiptAnchor = (r: ReceiptAnchorRow): ReceiptAnchor => ({
  id: r.id,
  kind: r.kind,
  hash: r.hash,
  signature: r.signature,
  pubKey: r.pub_key,
  identityUrl: r.identity_url,
  signedIdentity: r.signed_identity,
  signedIssuerDomain: r.signed_issuer_domain,
  leaf: asBuffer(r.leaf),
  status: r.status,
  batchId: r.batch_id,
  txId: r.tx_id,
});

const toAnchor = (r: AnchorRow): Anchor => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  kind: r.kind,
  hash: r.hash,
  signature: r.signature,
  pubKey: r.pub_key,
  identityUrl: r.identity_url,
  signedIdentity: r.signed_identity,
  signedIssuerDomain: r.signed_issuer_domain,
  leaf: Buffer.from(r.leaf),
  public: r.public,
  tags: r.tags,
  metadata: r.metadata,
  callbackUrl: r.callback_url,
  created: r.created,
  lastModified: r.last_modified,
  status: r.status,
  batchId: r.batch_id,
  txId: r.tx_id,
  confirmations: r.status === 'WAIT' ? 0 : (r.confirmations ?? 0),
  timestamp: r.status === 'WAIT' || r.block_time === null ? null : r.block_time,
});

/**
 * Many anchors' receipt data at once (`$1` the ids): each anchor with its batch's root, size, position and key;
 * the path's nodes only for batches closed before migration 022 (a whole serialised tree). The nodes of a
 * batch stored in parts are taken from its resident levels or read by {@link PART_NODES_AT}.
 */
const PROOF_ROWS = `SELECT ${receiptAnchorColumns("encode(a.leaf, 'hex') AS leaf")}, encode(b.root, 'hex') AS root,
    b.leaf_count, b.settled, ${LEAF_INDEX} AS leaf_index,
    CASE WHEN ${HAS_TX} AND b.tree_key IS NULL THEN ${SERIALIZED_PATH_NODES} END AS nodes,
    CASE WHEN ${HAS_TX} THEN encode(b.tree_key, 'hex') END AS tree_key
  FROM anchor a ${BATCH_OF_ANCHOR} WHERE a.id = ANY($1::uuid[])`;

/**
 * A row of {@link PROOF_ROWS}: its 32-byte values come as hex text, which both drivers turn into bytes
 * natively (PGlite decodes a bytea's text byte by byte in JavaScript).
 */
type HexProofRow = Omit<ProofRow, 'leaf' | 'root' | 'tree_key'> & {
  leaf: string;
  root: string | null;
  tree_key: string | null;
};

const fromHex = (hex: string | null) => (hex === null ? null : Buffer.from(hex, 'hex'));

const proofRowOf = (r: HexProofRow): ProofRow => ({
  ...r,
  leaf: Buffer.from(r.leaf, 'hex'),
  root: fromHex(r.root),
  tree_key: fromHex(r.tree_key),
});

/**
 * Stored nodes of many paths, one row a path: `$1` the batches, and for each node asked its path (`$2`,
 * numbered from 1), its batch (`$3`, an index into `$1`) and its node number (`$4`); each path's nodes come
 * as the hex of one bytea, 32 bytes a node in the order asked (one row a path, not one a node: fewer rows
 * to decode; hex, which both drivers decode natively, see {@link HexProofRow}).
 */
const PART_NODES_AT = `SELECT q.p::int AS p, encode(string_agg(substring(t.nodes FROM (q.g % ${PART_NODES})::int * ${NODE_SIZE} + 1 FOR ${NODE_SIZE}), ''::bytea ORDER BY q.k), 'hex') AS nodes
  FROM unnest($2::int[], $3::int[], $4::bigint[]) WITH ORDINALITY AS q(p, b, g, k)
  JOIN batch_tree_part t ON t.batch_id = ($1::uuid[])[q.b] AND t.part = (q.g / ${PART_NODES})::int
  GROUP BY q.p`;

/** Bytes `$3` (1-based) to `$3 + $4` of a stored part of a batch (`$1`, part `$2`). */
const PART_SLICE = `SELECT substring(nodes FROM $3::int FOR $4::int) AS nodes FROM batch_tree_part WHERE batch_id = $1 AND part = $2`;

/**
 * An array parameter as PostgreSQL's array text (`{a,b}`), for elements that need no quoting (UUIDs
 * checked by {@link isUuid}, integers): the drivers would otherwise escape and quote each element in JS.
 */
const arrayLiteral = (items: readonly (string | number)[]): string => `{${items.join(',')}}`;

/** A node not read (a path missing it is refused when its receipt is made). */
const EMPTY = Buffer.alloc(0);

/** Nodes read per statement when levels are made resident (512 KB): a small heap, in either store. */
const SLICE_NODES = 16_384;

/** Node numbers, in the stored form, of the path's siblings from level 1 up (see {@link PART_PATH_NODES}). */
function storedPathNodes(span: number, offset: number): number[] {
  const counts = levelCounts(span);
  const out: number[] = [];
  for (let k = 0, below = 0; k < counts.length; below += counts[k]!, k++) {
    const sib = (offset >> k) ^ 1;
    if (counts[k]! > 1 && sib < counts[k]!) out.push(below + sib);
  }
  return out;
}

/** Whether a row's path is read from the parts of its batch (batch with a transaction and a key). */
const inParts = (r: ProofRow): r is ProofRow & { batch_id: string; leaf_count: number; leaf_index: number } =>
  r.tree_key !== null && r.batch_id !== null && r.leaf_count !== null && r.leaf_index !== null;

/** The leaf level's siblings of rows read in parts, one cipher per batch (`blindingSiblingsAt`). */
function leafSiblings(rows: readonly ProofRow[]): Map<ProofRow, Buffer> {
  const byBatch = new Map<string, ProofRow[]>();
  for (const r of rows.filter(inParts)) {
    const same = byBatch.get(r.batch_id);
    if (same) same.push(r);
    else byBatch.set(r.batch_id, [r]);
  }
  const out = new Map<ProofRow, Buffer>();
  for (const same of byBatch.values()) {
    const siblings = blindingSiblingsAt(
      same[0]!.tree_key!,
      same.map((r) => r.leaf_index! / 2),
    );
    same.forEach((r, i) => out.set(r, siblings.subarray(i * NODE_SIZE, (i + 1) * NODE_SIZE)));
  }
  return out;
}

const INSERT_MANY = `
INSERT INTO anchor (id, account_id, name, kind, hash, signature, pub_key, identity_url, signed_identity, signed_issuer_domain,
                    leaf, public, tags, metadata, callback_url, created, last_modified)
SELECT r.id, r.account_id, r.name, r.kind, r.hash, r.signature, r.pub_key, r.identity_url, r.signed_identity, r.signed_issuer_domain,
       decode(r.leaf, 'hex'), r.public, ARRAY(SELECT jsonb_array_elements_text(r.tags)), r.metadata, r.callback_url, r.created, r.created
FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, account_id uuid, name text, kind text, hash text, signature text, pub_key text,
     identity_url text, signed_identity text, signed_issuer_domain text, leaf text, public boolean, tags jsonb, metadata jsonb,
     callback_url text, created bigint)`;

function insertRecord(a: NewAnchor): object {
  return {
    id: a.id,
    account_id: a.accountId,
    name: a.name,
    kind: a.kind,
    hash: a.hash,
    signature: a.signature,
    pub_key: a.pubKey,
    identity_url: a.identityUrl,
    signed_identity: a.signedIdentity,
    signed_issuer_domain: a.signedIssuerDomain,
    leaf: a.leaf.toString('hex'),
    public: a.public,
    tags: a.tags,
    metadata: a.metadata,
    callback_url: a.callbackUrl,
    created: a.created,
  };
}

/** Ids of the batch's anchors that have a callback URL (`$1` the batch): by batch_id, or in its seq range. */
const CALLBACKS_OF_BATCH = `SELECT c.id FROM anchor c WHERE c.batch_id = $1 AND c.callback_url IS NOT NULL
  UNION ALL
  SELECT c.id FROM anchor c JOIN batch x ON x.id = $1
  WHERE c.callback_url IS NOT NULL AND c.batch_id IS NULL AND c.seq BETWEEN x.first_seq AND x.last_seq`;

const SORT_COLUMN: Record<AnchorSearch['sort'], string> = {
  created: 'a.created',
  lastModified: 'a.last_modified',
  name: 'a.name',
};

/**
 * The hash filter on parameters `$n` and `$n+1`: the anchored hash, matched against the leaf (a data
 * anchor's hash, the SHA-256 of a signature anchor's signature; indexed for public anchors by migration
 * 010), and a signature anchor's signed hash.
 */
const hashFilter = (n: number) =>
  `($${n}::bytea IS NULL OR a.leaf = $${n}::bytea) AND ($${n + 1}::text IS NULL OR (a.kind = 'signature' AND a.hash = $${n + 1}))`;

/** The two parameters of {@link hashFilter}; hashes reach here checked (64 lowercase hex). */
function hashParams(f: HashFilter): [Buffer | null, string | null] {
  return [f.hash === undefined ? null : Buffer.from(f.hash, 'hex'), f.signedHash ?? null];
}

export interface AnchorRepositoryOptions {
  /** Group concurrent inserts (the root store); false inside a transaction, where rows are written at once. */
  readonly groupCommit: boolean;
  /** Groups written at once; one per pooled connection used for inserts. */
  readonly maxInFlight: number;
}

export function anchorRepository(sql: Sql, opts: AnchorRepositoryOptions): AnchorRepository {
  // One statement is one transaction of its own (autocommit): its rows commit together or not at all,
  // durably, without the two round trips of BEGIN and COMMIT. In a transaction, sent with what follows.
  const writeRows = (rows: NewAnchor[]) => sql.writeRows(INSERT_MANY, rows.map(insertRecord));
  const insert = opts.groupCommit
    ? groupCommit(writeRows, { maxRows: 1000, maxInFlight: opts.maxInFlight })
    : (a: NewAnchor) => writeRows([a]);

  /** Reads a batch's stored levels as `levels` plans them (512 KB a statement) and keeps them. */
  async function readLevels(levels: ResidentLevels, batchId: string, span: number): Promise<void> {
    const plan = levels.plan(span);
    if (plan === null) return;
    // One buffer for the levels, each slice copied into it as it arrives: no concatenation, little garbage.
    const bytes = Buffer.allocUnsafeSlow(plan.nodes * NODE_SIZE);
    const end = plan.fromNode + plan.nodes;
    for (let g = plan.fromNode; g < end;) {
      const count = Math.min(SLICE_NODES, end - g, PART_NODES - (g % PART_NODES));
      const params = [batchId, Math.floor(g / PART_NODES), (g % PART_NODES) * NODE_SIZE + 1, count * NODE_SIZE];
      const rows = await sql.query<{ nodes: Uint8Array }>(PART_SLICE, params);
      if (rows[0]?.nodes.length !== count * NODE_SIZE) return; // not as planned: keep nothing, read the paths
      bytes.set(rows[0].nodes, (g - plan.fromNode) * NODE_SIZE);
      g += count;
    }
    levels.keep(batchId, span, plan.fromLevel, bytes);
  }

  return {
    insert,
    async findById(id, accountId) {
      if (!isUuid(id)) return null;
      const rows = await sql.query<AnchorRow>(
        `SELECT ${SELECT_ANCHOR} FROM anchor a ${BATCH_OF_ANCHOR}
         WHERE a.id = $1 AND ($2::uuid IS NULL OR a.account_id = $2)`,
        [id, accountId ?? null],
      );
      return rows[0] ? toAnchor(rows[0]) : null;
    },
    async update(id, accountId, c, now) {
      if (!isUuid(id)) return null;
      const rows = await sql.query<AnchorRow>(
        `WITH a AS (
           UPDATE anchor SET name = COALESCE($3, name), public = COALESCE($4, public), tags = COALESCE($5::text[], tags),
             metadata = CASE WHEN $6 THEN $7::jsonb ELSE metadata END, callback_url = CASE WHEN $8 THEN $9 ELSE callback_url END,
             last_modified = $10
           WHERE id = $1 AND account_id = $2 RETURNING *)
         SELECT ${SELECT_ANCHOR} FROM a ${BATCH_OF_ANCHOR}`,
        [
          id,
          accountId,
          c.name ?? null,
          c.public ?? null,
          c.tags ?? null,
          c.metadata !== undefined,
          c.metadata === undefined || c.metadata === null ? null : JSON.stringify(c.metadata),
          c.callbackUrl !== undefined,
          c.callbackUrl ?? null,
          now,
        ],
      );
      return rows[0] ? toAnchor(rows[0]) : null;
    },
    async search(q) {
      const where = `a.account_id = $1 AND ($2::text IS NULL OR a.name ILIKE '%' || $2 || '%' ESCAPE '\\')
        AND ${hashFilter(3)} AND ($5::text[] IS NULL OR a.tags @> $5::text[])`;
      const params = [
        q.accountId,
        q.name === undefined ? null : q.name.replace(/[\\%_]/g, '\\$&'),
        ...hashParams(q),
        q.tags ?? null,
      ];
      const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
      const [rows, count] = await Promise.all([
        sql.query<AnchorRow>(
          `SELECT ${SELECT_ANCHOR} FROM anchor a ${BATCH_OF_ANCHOR} WHERE ${where}
           ORDER BY ${SORT_COLUMN[q.sort]} ${dir}, a.seq ${dir} LIMIT $6 OFFSET $7`,
          [...params, q.size, q.page * q.size],
        ),
        sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM anchor a WHERE ${where}`, params),
      ]);
      return { items: rows.map(toAnchor), total: count[0]?.n ?? 0 };
    },
    async publicIds(filter, page, size) {
      const where = `a.public AND ${hashFilter(1)}`;
      const params = hashParams(filter);
      const [rows, count] = await Promise.all([
        sql.query<{ id: string }>(`SELECT a.id FROM anchor a WHERE ${where} ORDER BY a.seq LIMIT $3 OFFSET $4`, [
          ...params,
          size,
          page * size,
        ]),
        sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM anchor a WHERE ${where}`, params),
      ]);
      return { items: rows.map((r) => r.id), total: count[0]?.n ?? 0 };
    },
    async findProofData(id) {
      if (!isUuid(id)) return null;
      const rows = await sql.query<ProofRow>(
        `SELECT ${SELECT_RECEIPT_ANCHOR}, b.root, b.leaf_count, b.settled, ${LEAF_INDEX} AS leaf_index, ${PATH_NODES} AS nodes,
                CASE WHEN ${HAS_TX} THEN b.tree_key END AS tree_key
         FROM anchor a ${BATCH_OF_ANCHOR} WHERE a.id = $1`,
        [id],
      );
      const r = rows[0];
      return r ? toProofData(r) : null;
    },
    async findProofDataMany(ids, levels) {
      const valid = ids.filter((id) => isUuid(id));
      const found = new Map<string, AnchorProofData>();
      if (valid.length === 0) return found;
      const rows = (await sql.query<HexProofRow>(PROOF_ROWS, [arrayLiteral(valid)])).map(proofRowOf);
      const spans = new Map(rows.filter(inParts).map((r) => [r.batch_id, r.leaf_count / 2]));
      await Promise.all(
        [...spans]
          .filter(([b]) => !levels.has(b))
          .map(([b, span]) => levels.loadOnce(b, () => readLevels(levels, b, span))),
      );
      // The nodes not kept, read for all the paths at once: by path, batch (an index) and node number.
      const batches = new Map<string, number>();
      const ask = { path: [] as number[], batch: [] as number[], node: [] as number[] };
      const missing: { into: Buffer[]; at: number[] }[] = [];
      const stored = new Map<ProofRow, Buffer[]>();
      for (const r of rows.filter(inParts)) {
        const nodes: Buffer[] = [];
        const at: number[] = [];
        for (const g of storedPathNodes(r.leaf_count / 2, r.leaf_index / 2)) {
          const kept = levels.node(r.batch_id, g);
          if (kept === undefined) {
            let b = batches.get(r.batch_id);
            if (b === undefined) batches.set(r.batch_id, (b = batches.size + 1));
            ask.path.push(missing.length + 1);
            ask.batch.push(b);
            ask.node.push(g);
            at.push(nodes.length);
          }
          nodes.push(kept ?? EMPTY);
        }
        if (at.length > 0) missing.push({ into: nodes, at });
        levels.touch(r.batch_id);
        stored.set(r, nodes);
      }
      if (missing.length > 0) {
        const read = await sql.query<{ p: number; nodes: string }>(PART_NODES_AT, [
          arrayLiteral([...batches.keys()]),
          arrayLiteral(ask.path),
          arrayLiteral(ask.batch),
          arrayLiteral(ask.node),
        ]);
        for (const { p, nodes } of read) {
          const m = missing[p - 1]!;
          // A path whose nodes did not all come keeps its empty ones (refused when its receipt is made).
          if (nodes.length !== m.at.length * NODE_SIZE * 2) continue;
          const bytes = Buffer.from(nodes, 'hex');
          m.at.forEach((at, j) => (m.into[at] = bytes.subarray(j * NODE_SIZE, (j + 1) * NODE_SIZE)));
        }
      }
      const siblings = leafSiblings(rows);
      for (const r of rows)
        found.set(r.id, toProofData(stored.has(r) ? { ...r, nodes: stored.get(r)! } : r, siblings.get(r)));
      return found;
    },
    async withCallbackInBatch(batchId) {
      const rows = await sql.query<AnchorRow>(
        `SELECT ${SELECT_ANCHOR} FROM anchor a ${BATCH_OF_ANCHOR} WHERE b.id = $1 AND a.id IN (${CALLBACKS_OF_BATCH}) ORDER BY a.seq`,
        [batchId],
      );
      return rows.map(toAnchor);
    },
  };
}
