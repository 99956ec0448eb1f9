// tier: slow (poppler, openssl or qpdf)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { blockMerkleBranch, blockMerkleRoot } from '../../../src/core/bitcoin/index.js';
import { otsVaruint, receiptToOts, type OtsInput } from '../../../src/core/chainpoint/index.js';
import { buildMerkleTree, merkleRoot, proofPath } from '../../../src/core/merkle/index.js';
import { sha256Utf8 } from '../../../src/core/hash/index.js';
import { anchorTx } from './tx-fixture.js';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const CHECKER = new URL('../../support/ots-check.py', import.meta.url).pathname;

interface CheckResult {
  ok: boolean;
  digest: string | null;
  height: number | null;
  commitment: string | null;
  error: string | null;
}

/** python-opentimestamps present? When CI=true its absence is a failure, not a skip. */
async function otsLibraryAvailable(): Promise<boolean> {
  try {
    await access(PYTHON);
    await run(PYTHON, ['-c', 'import opentimestamps.core.timestamp, bitcoin.core']);
    return true;
  } catch (e) {
    if (process.env.CI === 'true') throw new Error(`python3-opentimestamps is required in CI: ${String(e)}`);
    return false;
  }
}

/** 80-byte header: version, prev hash, merkle root (internal order), time, bits, nonce. */
function header(merkleRootDisplay: string, time = 1_700_000_000): string {
  const h = Buffer.alloc(80);
  h.writeInt32LE(0x20000000, 0);
  createHash('sha256').update('prev').digest().copy(h, 4);
  Buffer.from(merkleRootDisplay, 'hex').reverse().copy(h, 36);
  h.writeUInt32LE(time, 68);
  h.writeUInt32LE(0x207fffff, 72);
  return h.toString('hex');
}

/** A batch, its anchoring tx placed at `txIndex` among `blockSize` txids. */
function scenario(leafCount: number, leafIndex: number, blockSize: number, txIndex: number, witness = true) {
  const leaves = Array.from({ length: leafCount }, (_, i) => sha256Utf8(`doc ${i}`));
  const tree = buildMerkleTree(leaves);
  const root = merkleRoot(tree);
  const tx = anchorTx(root, `ots ${leafCount}/${blockSize}`, txIndex % 3);
  const txids = Array.from({ length: blockSize }, (_, i) =>
    i === txIndex ? tx.id : sha256Utf8(`other ${i}`).toString('hex'),
  );
  const input: OtsInput = {
    targetHash: leaves[leafIndex].toString('hex'),
    proof: proofPath(tree, leafIndex),
    merkleRoot: root.toString('hex'),
    rawTxHex: witness ? tx.hex : tx.nonWitnessHex,
    txMerkleBranch: blockMerkleBranch(txids, tx.id),
    blockHeight: 1000 + blockSize,
  };
  return { input, blockRoot: blockMerkleRoot(txids) };
}

describe('receiptToOts checked by python-opentimestamps', () => {
  let available = false;
  let dir = '';
  before(async () => {
    available = await otsLibraryAvailable();
    dir = await mkdtemp(join(tmpdir(), 'proofseal-ots-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  async function check(ots: Buffer, headerHex: string): Promise<CheckResult> {
    const file = join(dir, `${createHash('sha256').update(ots).digest('hex')}.ots`);
    await writeFile(file, ots);
    const { stdout } = await run(PYTHON, [CHECKER, file, headerHex]);
    return JSON.parse(stdout) as CheckResult;
  }

  const shapes: [string, number, number, number, number, boolean][] = [
    ['1 leaf, 1-tx block, segwit tx', 1, 0, 1, 0, true],
    ['5 leaves (odd), leaf 4, 7-tx block, last tx', 5, 4, 7, 6, true],
    ['8 leaves, leaf 3, 4-tx block, tx 1', 8, 3, 4, 1, true],
    ['13 leaves, leaf 6, 3-tx block, tx 2 (duplicated last), legacy tx', 13, 6, 3, 2, false],
  ];
  for (const [name, leaves, leaf, block, txIndex, witness] of shapes) {
    it(name, async (t) => {
      if (!available) return t.skip('python3-opentimestamps not installed (CI=true makes this a failure)');
      const { input, blockRoot } = scenario(leaves, leaf, block, txIndex, witness);
      const ots = receiptToOts(input);
      const good = await check(ots, header(blockRoot));
      assert.equal(good.error, null);
      assert.deepEqual([good.ok, good.digest, good.height], [true, input.targetHash, input.blockHeight]);
      assert.equal(good.commitment, Buffer.from(blockRoot, 'hex').reverse().toString('hex'));
      const wrongRoot = `${blockRoot.slice(0, -1)}${blockRoot.endsWith('0') ? '1' : '0'}`;
      const bad = await check(ots, header(wrongRoot));
      assert.equal(bad.ok, false);
      assert.match(bad.error ?? '', /VerificationError/);
    });
  }
});

describe('receiptToOts input checks', () => {
  const { input } = scenario(4, 1, 2, 0);
  it('starts with the OpenTimestamps magic, version 1, sha256 and the target hash', () => {
    const ots = receiptToOts(input);
    assert.equal(
      ots.subarray(0, 31).toString('latin1'),
      '\x00OpenTimestamps\x00\x00Proof\x00\xbf\x89\xe2\xe8\x84\xe8\x92\x94',
    );
    assert.deepEqual([...ots.subarray(31, 33)], [1, 0x08]);
    assert.equal(ots.subarray(33, 65).toString('hex'), input.targetHash);
  });
  it('encodes varuints like python-opentimestamps', () => {
    assert.deepEqual([...otsVaruint(0)], [0]);
    assert.deepEqual([...otsVaruint(127)], [127]);
    assert.deepEqual([...otsVaruint(128)], [0x80, 0x01]);
    assert.deepEqual([...otsVaruint(840000)], [0xc0, 0xa2, 0x33]);
  });
  it('refuses a broken proof, a tx without the root, a bad branch and a bad height', () => {
    assert.throws(() => receiptToOts({ ...input, merkleRoot: 'a'.repeat(64) }), { code: 'INVALID_RECEIPT' });
    const other = anchorTx(Buffer.alloc(32, 9), 'other');
    assert.throws(() => receiptToOts({ ...input, rawTxHex: other.hex }), {
      code: 'INVALID_RECEIPT',
      message: /no OP_RETURN output carrying merkleRoot/,
    });
    assert.throws(() => receiptToOts({ ...input, txMerkleBranch: { siblings: ['zz'], index: 0 } }), {
      code: 'BAD_REQUEST',
    });
    assert.throws(() => receiptToOts({ ...input, txMerkleBranch: { siblings: [], index: 1 } }), {
      code: 'BAD_REQUEST',
    });
    assert.throws(() => receiptToOts({ ...input, blockHeight: -1 }), { code: 'BAD_REQUEST' });
    assert.throws(() => receiptToOts({ ...input, rawTxHex: '00' }), { code: 'BAD_REQUEST' });
  });
});
