/**
 * A synthetic Bitcoin block around an anchoring transaction, with its SPV entry as a proof bundle carries
 * it (`bitcoinSpv`): a few transactions, the anchoring one among them, a header under the regtest target
 * (nonce ground until the header's SHA-256d meets its own bits). Hashes computed with node:crypto.
 */
import { createHash } from 'node:crypto';
import { blockMerkleBranch, blockMerkleRoot, type SpvProof } from '../../src/core/bitcoin/index.js';
import { anchorTx } from '../anchoring/core/tx-fixture.js';

const sha256d = (b: Buffer) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/** The SPV entry of a transaction carrying `root` (hex) in a block of `size` transactions at `height`. */
export function spvEntryFor(
  root: string,
  opts: { height?: number; size?: number; at?: number; time?: number } = {},
): SpvProof {
  const size = opts.size ?? 3;
  const at = opts.at ?? 1;
  const txs = Array.from({ length: size }, (_, i) =>
    anchorTx(i === at ? Buffer.from(root, 'hex') : sha256d(Buffer.from(`${root} ${i}`)), `${root} tx ${i}`),
  );
  const txids = txs.map((t) => t.id);
  const time = Buffer.alloc(4);
  time.writeUInt32LE(opts.time ?? 1_700_000_000);
  const bits = Buffer.from('ffff7f20', 'hex'); // 0x207fffff, regtest's target: half of all hashes meet it
  let header = Buffer.alloc(0);
  for (let nonce = 0; ; nonce++) {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(nonce);
    header = Buffer.concat([
      Buffer.from('00000020', 'hex'),
      sha256d(Buffer.from(`parent of ${root}`)),
      Buffer.from(blockMerkleRoot(txids), 'hex').reverse(),
      time,
      bits,
      n,
    ]);
    if (sha256d(header)[31]! < 0x80) break; // little-endian: the top byte of the number is the last one
  }
  const branch = blockMerkleBranch(txids, txids[at]!);
  return {
    txid: txids[at]!,
    rawTx: txs[at]!.nonWitnessHex,
    blockHash: Buffer.from(sha256d(header)).reverse().toString('hex'),
    blockHeight: opts.height ?? 581,
    blockHeader: header.toString('hex'),
    txIndex: branch.index,
    merkleBranch: branch.siblings,
  };
}

/** A header whose SHA-256d meets regtest's target: `fields` (76 bytes: version … bits) with a nonce ground. */
function mined(fields: Buffer): Buffer {
  for (let nonce = 0; ; nonce++) {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(nonce);
    const header = Buffer.concat([fields, n]);
    if (sha256d(header)[31]! < 0x80) return header;
  }
}

/**
 * A headers file (text form, `<height> <hex>` a line, as `proofseal verify --headers` takes it) of one linked
 * chain holding the blocks of `entries`, from the lowest of their heights to `tipAbove` blocks above the highest;
 * the entries are returned re-mined into that chain (same transactions and time, their previous-block hash the
 * chain's), so a bundle carrying them is confirmed by the file.
 */
export function chainedHeaders(entries: readonly SpvProof[], tipAbove = 5): { entries: SpvProof[]; text: string } {
  const byHeight = new Map(entries.map((e) => [e.blockHeight, e]));
  const heights = entries.map((e) => e.blockHeight);
  const [low, high] = [Math.min(...heights), Math.max(...heights) + tipAbove];
  const lines: string[] = [];
  const rebuilt = new Map<number, SpvProof>();
  let previous = Buffer.alloc(32);
  for (let h = low; h <= high; h++) {
    const own = byHeight.get(h);
    const fields = own
      ? Buffer.from(own.blockHeader, 'hex').subarray(0, 76)
      : Buffer.concat([Buffer.from('00000020', 'hex'), Buffer.alloc(64), Buffer.from('00f15365ffff7f20', 'hex')]); // time 1.7e9, regtest bits
    const header = mined(Buffer.concat([fields.subarray(0, 4), previous, fields.subarray(36, 76)]));
    const hash = Buffer.from(sha256d(header)).reverse().toString('hex');
    if (own) rebuilt.set(h, { ...own, blockHeader: header.toString('hex'), blockHash: hash });
    lines.push(`${h} ${header.toString('hex')}`);
    previous = sha256d(header);
  }
  return { entries: entries.map((e) => rebuilt.get(e.blockHeight)!), text: `${lines.join('\n')}\n` };
}
