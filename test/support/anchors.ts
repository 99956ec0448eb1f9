/** Helpers of the anchor tests: signers, anchor bodies, and a batch row written as the batching jobs would. */
import { randomBytes, randomUUID } from 'node:crypto';
import { addressFromPublicKey } from '../../src/core/bitcoin/addresses.js';
import { publicKeyOf, signMessage } from '../../src/core/bitcoin/signed-message.js';
import { messageToSign } from '../../src/core/identity/identity-message.js';
import { buildMerkleTree, merkleRoot, serializeTree } from '../../src/core/merkle/index.js';
import type { Sql } from '../../src/adapters/store/sql.js';
import type { Store } from '../../src/app/shared/store.port.js';
import type { SpvProof } from '../../src/core/bitcoin/spv.js';
import { spvEntryFor } from './spv-fixture.js';

export interface Signer {
  readonly privateKey: Buffer;
  readonly address: string;
  readonly publicKeyHex: string;
  sign(message: string): string;
}

export function newSigner(): Signer {
  const privateKey = randomBytes(32);
  const pub = publicKeyOf(privateKey);
  return {
    privateKey,
    address: addressFromPublicKey(pub, 'p2pkh', 'mainnet'),
    publicKeyHex: pub.toString('hex'),
    sign: (message) => signMessage(message, privateKey),
  };
}

export const randomHash = () => randomBytes(32).toString('hex');

/** A valid signature-anchor body for a fresh hash. */
export function signatureBody(signer: Signer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const signedHash = randomHash();
  const identity = {
    signedIdentity: extra.signedIdentity as string | undefined,
    signedIssuerDomain: extra.signedIssuerDomain as string | undefined,
  };
  return {
    name: 'doc.pdf',
    signedHash,
    signature: signer.sign(messageToSign({ signedHash, ...identity })),
    pubKey: signer.address,
    ...extra,
  };
}

export interface BatchRow {
  readonly id: string;
  readonly root: Buffer;
  readonly txId: string;
}

/**
 * Puts these anchors (by id, in this order) in a new batch of the given status, with a tree built by
 * the merkle module over their stored leaves plus `extraLeaves` filler leaves.
 */
export async function insertBatch(
  sql: Sql,
  anchorIds: string[],
  opts: {
    status?: 'WAIT' | 'SENT' | 'CONFIRMED';
    extraLeaves?: number;
    confirmations?: number;
    blockTime?: number;
  } = {},
): Promise<BatchRow> {
  const rows = await sql.query<{ id: string; leaf: Uint8Array }>(
    'SELECT id, leaf FROM anchor WHERE id = ANY($1::uuid[])',
    [anchorIds],
  );
  const leafOf = new Map(rows.map((r) => [r.id, Buffer.from(r.leaf)]));
  const leaves = [
    ...anchorIds.map((id) => leafOf.get(id)!),
    ...Array.from({ length: opts.extraLeaves ?? 0 }, () => randomBytes(32)),
  ];
  const tree = buildMerkleTree(leaves);
  const root = Buffer.from(merkleRoot(tree));
  const spv = opts.status === 'CONFIRMED' ? spvEntryFor(root.toString('hex')) : null;
  const batch = { id: randomUUID(), root, txId: spv?.txid ?? randomHash() };
  const now = Date.now();
  await sql.query(
    `INSERT INTO batch (id, status, root, leaf_count, tree, tx_id, confirmations, block_time, created, last_modified)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$9)`,
    [
      batch.id,
      opts.status ?? 'SENT',
      batch.root,
      tree.leafCount,
      serializeTree(tree),
      batch.txId,
      opts.confirmations ?? 0,
      opts.blockTime ?? null,
      now,
    ],
  );
  for (const [i, id] of anchorIds.entries())
    await sql.query('UPDATE anchor SET batch_id = $2, leaf_index = $3 WHERE id = $1', [id, batch.id, i]);
  if (spv) await writeBlockData(sql, batch.id, spv, opts.blockTime ?? now);
  return batch;
}

/**
 * A batch of {@link insertBatch} confirmed as confirmBatches leaves it: CONFIRMED, six deep, with the block data
 * of a synthetic block whose transaction carries the batch's root (so its SPV data check out).
 */
export async function confirmInsertedBatch(sql: Sql, batch: BatchRow, blockTime = Date.now()): Promise<void> {
  const spv = spvEntryFor(batch.root.toString('hex'));
  await sql.query(`UPDATE batch SET status = 'CONFIRMED', confirmations = 6 WHERE id = $1`, [batch.id]);
  await writeBlockData(sql, batch.id, spv, blockTime);
}

async function writeBlockData(sql: Sql, batchId: string, spv: SpvProof, blockTime: number): Promise<void> {
  await sql.query(
    `UPDATE batch SET tx_id = $2, block_hash = $3, block_height = $4, block_time = $5, raw_tx = $6,
       tx_merkle_branch = $7::jsonb, block_header = $8 WHERE id = $1`,
    [
      batchId,
      spv.txid,
      spv.blockHash,
      spv.blockHeight,
      blockTime,
      spv.rawTx,
      JSON.stringify({ siblings: spv.merkleBranch, index: spv.txIndex }),
      spv.blockHeader,
    ],
  );
}

/**
 * Data anchors written straight into the store, one per leaf, in the leaves' order (so their `seq`
 * follows it): the bulk set-up of the batching and crash tests, without the API. Returns their ids in
 * that order.
 */
export async function insertDataAnchors(
  sql: Sql,
  accountId: string,
  leaves: Buffer[],
  name = 'bulk',
): Promise<string[]> {
  const rows = await sql.query<{ id: string; seq: string | number }>(
    `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, created, last_modified)
     SELECT gen_random_uuid(), $1, $3, 'data', encode(l, 'hex'), l, 0, 0
     FROM unnest($2::bytea[]) WITH ORDINALITY AS t(l, o) ORDER BY o RETURNING id, seq`,
    [accountId, leaves, name],
  );
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.id);
}

/** `n` random 32-byte leaves. */
export const randomLeaves = (n: number): Buffer[] => Array.from({ length: n }, () => randomBytes(32));

/**
 * Records a SENT batch's transaction as confirmed at `height` in a made-up block, then with 6 confirmations
 * (CONFIRMED): what confirmBatches writes, without a chain. `txId`: confirmed in another transaction than
 * its own (a reorg that put the batch into a replacement).
 */
export async function confirmBatchAt(store: Store, batchId: string, height: number, txId?: string): Promise<void> {
  const b = (await store.batches.findById(batchId))!;
  const proof = {
    txId: txId ?? b.txId!,
    blockHash: randomHash(),
    blockHeight: height,
    blockTime: Date.now(),
    rawTx: '00',
    txMerkleBranch: { siblings: [], index: 0 },
    blockHeader: '00'.repeat(80),
  };
  await store.batches.recordConfirmation(batchId, proof, 6, Date.now());
  await store.batches.setConfirmations(batchId, { confirmations: 6, confirmed: true }, Date.now());
}
