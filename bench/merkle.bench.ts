/**
 * Merkle batch figures: build time and memory for 100,000 and 1,000,000 leaves, serialisation, and
 * proof derivations per second (in memory, and from the serialised form reading only the needed
 * nodes). For comparison, the same tree kept as arrays of 32-byte Buffers (the layout not chosen).
 * Run: node --expose-gc --import tsx bench/merkle.bench.ts   (prints figures; never fails on a timing)
 * Peak RSS is the process-wide maximum so far (getrusage); "retained" is RSS growth while the result is alive.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  buildMerkleTreeFromPacked,
  merkleRoot,
  proofPath,
  proofPathFromReader,
  serializeTree,
} from '../src/core/merkle/index.js';

const MB = 1024 * 1024;
const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

function timed<T>(fn: () => T): { value: T; ms: number; retainedMb: number; peakRssMb: number } {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const start = performance.now();
  const value = fn();
  const ms = performance.now() - start;
  globalThis.gc?.();
  return {
    value,
    ms: Math.round(ms),
    retainedMb: Math.round((process.memoryUsage().rss - before) / MB),
    peakRssMb: peakRssMb(),
  };
}

function proofsPerSecond(run: (i: number) => unknown, leafCount: number): number {
  const n = 100_000;
  const start = performance.now();
  for (let k = 0; k < n; k++) run((k * 7919) % leafCount);
  return Math.round(n / ((performance.now() - start) / 1000));
}

/** The rejected layout: every node its own Buffer. */
function arrayOfBuffersTree(packed: Buffer): Buffer[][] {
  let level: Buffer[] = Array.from({ length: packed.length / 32 }, (_, i) =>
    Buffer.from(packed.subarray(i * 32, i * 32 + 32)),
  );
  const levels: Buffer[][] = [level];
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(
        i + 1 < level.length
          ? createHash('sha256')
              .update(level[i])
              .update(level[i + 1])
              .digest()
          : level[i],
      );
    levels.push((level = next));
  }
  return levels;
}

for (const leafCount of [100_000, 1_000_000]) {
  const leaves = randomBytes(leafCount * 32);
  const built = timed(() => buildMerkleTreeFromPacked(leaves));
  const tree = built.value;
  const serialised = timed(() => serializeTree(tree));
  const data = serialised.value;
  console.log(
    JSON.stringify({
      leaves: leafCount,
      root: merkleRoot(tree).toString('hex').slice(0, 16),
      build: { ms: built.ms, retainedMb: built.retainedMb, peakRssMb: built.peakRssMb },
      serialise: { ms: serialised.ms, sizeMb: +(data.length / MB).toFixed(1), peakRssMb: serialised.peakRssMb },
      proofsPerSec: {
        inMemory: proofsPerSecond((i) => proofPath(tree, i), leafCount),
        fromSerialised: proofsPerSecond(
          (i) => proofPathFromReader(leafCount, i, (o) => data.subarray(o, o + 32)),
          leafCount,
        ),
      },
    }),
  );
}

const naive = timed(() => arrayOfBuffersTree(randomBytes(1_000_000 * 32)));
console.log(
  JSON.stringify({
    comparison: 'arrays of Buffers, 1,000,000 leaves',
    ms: naive.ms,
    retainedMb: naive.retainedMb,
    peakRssMb: naive.peakRssMb,
  }),
);
