/**
 * checkSpvProof on synthetic blocks of 1 to 7 transactions (odd levels duplicate their last node), every
 * position checked, and hostile input (a truncated transaction, a branch too short for its index, a
 * 64-byte transaction) rejected with a verdict, never a throw. The real regtest block: e2e-regtest.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { blockMerkleBranch, blockMerkleRoot, checkSpvProof, type SpvProof } from '../../../src/core/bitcoin/index.js';
import { anchorTx } from './tx-fixture.js';

const sha256d = (b: Buffer) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
const root = createHash('sha256').update('batch root').digest();

/** A block of `n` transactions, the anchoring one at `at`, and the SPV proof of it. */
function proofIn(n: number, at: number): SpvProof {
  const txs = Array.from({ length: n }, (_, i) => anchorTx(i === at ? root : sha256d(Buffer.from([i])), `tx ${i}`));
  const txids = txs.map((t) => t.id);
  const header = Buffer.concat([
    Buffer.from('00000020', 'hex'),
    Buffer.alloc(32, 7),
    Buffer.from(blockMerkleRoot(txids), 'hex').reverse(),
    Buffer.from('665f1a00ffff7f2001000000', 'hex'),
  ]);
  const branch = blockMerkleBranch(txids, txids[at]!);
  return {
    txid: txids[at]!,
    rawTx: txs[at]!.nonWitnessHex,
    blockHash: Buffer.from(sha256d(header)).reverse().toString('hex'),
    blockHeight: 101,
    blockHeader: header.toString('hex'),
    txIndex: branch.index,
    merkleBranch: branch.siblings,
  };
}

describe('checkSpvProof', () => {
  it('accepts the anchoring transaction at every position of blocks of 1 to 7 transactions', () => {
    for (let n = 1; n <= 7; n++)
      for (let at = 0; at < n; at++)
        assert.deepEqual(checkSpvProof(proofIn(n, at), root.toString('hex')), { valid: true }, `${at} of ${n}`);
  });

  it('rejects a transaction that does not carry the root, and hostile input without throwing', () => {
    const p = proofIn(5, 3);
    assert.equal(checkSpvProof(p, '11'.repeat(32)).valid, false);
    const failed = (q: SpvProof) => (checkSpvProof(q, root.toString('hex')) as { failed?: string }).failed;
    assert.equal(failed({ ...p, rawTx: p.rawTx.slice(0, -8) }), 'MALFORMED');
    assert.equal(failed({ ...p, rawTx: anchorTx(root, 'tx 3').hex }), 'MALFORMED', 'with witness: not all covered');
    assert.equal(failed({ ...p, txIndex: 8 }), 'MALFORMED', 'an index beyond the branch depth');
    assert.equal(failed({ ...p, merkleBranch: p.merkleBranch.slice(1) }), 'MERKLE_BRANCH');
    assert.equal(failed({ ...p, blockHeader: p.blockHeader.slice(2) }), 'MALFORMED');
    assert.equal(failed({ ...p, merkleBranch: [...p.merkleBranch.slice(0, 2), 'zz'] }), 'MALFORMED');
    const tx64 = `01000000 01 ${'00'.repeat(32)} 00000000 00 ffffffff 01 0000000000000000 04 6a020000 00000000`;
    assert.equal(Buffer.from(tx64.replaceAll(' ', ''), 'hex').length, 64);
    const verdict = checkSpvProof({ ...p, rawTx: tx64.replaceAll(' ', '') }, root.toString('hex'));
    assert.match((verdict as { reason: string }).reason, /64 bytes/);
  });
});
