// tier: slow
/**
 * The log's core (src/core/tlog): RFC 6962 hashing against Certificate Transparency's vectors, the tiled
 * appender against a plain recursive tree, proofs and checkpoints checked by Go's sumdb/tlog and sumdb/note
 * (test/transparency-log/go-checker), the C2SP tile paths, and tampering refused by both.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  nodeHash,
  splitPoint,
  verifyConsistency,
  verifyInclusion,
} from '../../../src/core/tlog/rfc6962.js';
import { openCheckpoint, parseVerifierKey, signCheckpoint, verifierKey } from '../../../src/core/tlog/checkpoint.js';
import { packBundle, parseTilePath, tileIndexPath, tilePath, unpackBundle } from '../../../src/core/tlog/tiles.js';
import { decodeEntry, encodeEntry, type AnchorEntry } from '../../../src/core/tlog/entry.js';
import { startGoChecker, type GoChecker } from '../../support/go-tlog.js';
import { MemoryLog } from '../memory-log.js';

const vectors = JSON.parse(readFileSync(new URL('../../vectors/rfc6962-roots.json', import.meta.url), 'utf8')) as {
  leaves: string[];
  roots: string[];
  emptyRoot: string;
};

/** MTH written straight from RFC 6962 §2.1, over the entries: the reference the tiles must agree with. */
function mth(entries: readonly Buffer[]): Buffer {
  if (entries.length === 0) return EMPTY_ROOT;
  if (entries.length === 1) return leafHash(entries[0]!);
  const k = splitPoint(entries.length);
  return nodeHash(mth(entries.slice(0, k)), mth(entries.slice(k)));
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const randomEntries = (n: number) => Array.from({ length: n }, (_, i) => randomBytes(1 + (i % 50)));

describe('RFC 6962 hashing', () => {
  it('gives the tree heads of the reference vectors, one to eight leaves, and the empty tree', () => {
    const leaves = vectors.leaves.map((h) => Buffer.from(h, 'hex'));
    for (let n = 1; n <= 8; n++) {
      const log = new MemoryLog();
      log.append(leaves.slice(0, n));
      assert.equal(log.root().toString('hex'), vectors.roots[n - 1], `root of ${n}`);
    }
    assert.equal(new MemoryLog().root().toString('hex'), vectors.emptyRoot);
  });

  it('the tiled appender agrees with the recursive definition across tile boundaries, whatever the chunks', () => {
    const entries = randomEntries(66_300);
    const log = new MemoryLog();
    for (let at = 0; at < entries.length;) {
      const n = Math.min(entries.length - at, 1 + Math.floor(Math.random() * 900));
      log.append(entries.slice(at, at + n));
      at += n;
      if (Math.random() < 0.02) assert.ok(log.root().equals(mth(entries.slice(0, at))), `size ${at}`);
    }
    assert.ok(log.root().equals(mth(entries)));
  });
});

describe('proofs and checkpoints, checked by Go (sumdb/tlog, sumdb/note)', () => {
  let go: GoChecker;
  const log = new MemoryLog();
  const seed = randomBytes(32);
  const name = 'example.org/log';
  const vkey = verifierKey(name, ed25519.getPublicKey(seed));
  before(() => {
    go = startGoChecker();
    log.append(randomEntries(1_000));
  });
  after(() => go.close());

  it('inclusion proofs: every index of every size up to 70, by ours and by Go', async () => {
    for (let size = 1; size <= 70; size++) {
      const part = new MemoryLog();
      part.append(log.entries.slice(0, size));
      const root = part.root();
      for (let i = 0; i < size; i++) {
        const proof = inclusionProof(part.hashAt(), i, size);
        assert.ok(verifyInclusion(leafHash(log.entries[i]!), i, size, proof, root), `ours ${i}/${size}`);
        const a = await go.ask({
          op: 'inclusion',
          size,
          root: b64(root),
          index: i,
          entry: b64(log.entries[i]!),
          proof: proof.map(b64),
        });
        assert.ok(a.ok, `go ${i}/${size}: ${a.error}`);
      }
    }
  });

  it('consistency proofs between every pair of sizes up to 40 and random pairs up to 1,000', async () => {
    // Each size's root from a log grown one entry at a time (the appender, checked against MTH above).
    const grown = new MemoryLog();
    const roots: Buffer[] = [EMPTY_ROOT];
    for (const e of log.entries) {
      grown.append([e]);
      roots.push(grown.root());
    }
    const pairs: Array<[number, number]> = [];
    for (let m = 1; m <= 40; m++) for (let n = m; n <= 40; n++) pairs.push([m, n]);
    for (let k = 0; k < 300; k++) {
      const a = 1 + Math.floor(Math.random() * log.size);
      const b = 1 + Math.floor(Math.random() * log.size);
      pairs.push([Math.min(a, b), Math.max(a, b)]);
    }
    for (const [m, n] of pairs) {
      const proof = consistencyProof(log.hashAt(), m, n);
      assert.ok(verifyConsistency(m, n, proof, roots[m]!, roots[n]!), `ours ${m}→${n}`);
      const a = await go.ask({
        op: 'consistency',
        oldSize: m,
        oldRoot: b64(roots[m]!),
        size: n,
        root: b64(roots[n]!),
        proof: proof.map(b64),
      });
      assert.ok(a.ok, `go ${m}→${n}: ${a.error}`);
    }
  });

  it('a checkpoint signed by us opens with sumdb/note under our verifier key', async () => {
    const note = signCheckpoint({ origin: name, size: log.size, root: log.root() }, name, seed);
    const a = await go.ask({ op: 'note', vkey, note });
    assert.ok(a.ok, a.error);
    assert.equal(a.size, log.size);
    assert.equal(a.root, b64(log.root()));
    const ours = openCheckpoint(note, parseVerifierKey(vkey));
    assert.equal(ours.size, log.size);
    assert.ok(ours.root.equals(log.root()));
  });

  it('tampering is refused by Go and by ours: a changed entry, a proof for another index, a forked checkpoint', async () => {
    const size = log.size;
    const root = log.root();
    const proof = inclusionProof(log.hashAt(), 417, size);
    const changed = Buffer.from(log.entries[417]!);
    changed[0]! ^= 1;
    assert.equal(verifyInclusion(leafHash(changed), 417, size, proof, root), false);
    assert.equal(
      (await go.ask({ op: 'inclusion', size, root: b64(root), index: 417, entry: b64(changed), proof: proof.map(b64) }))
        .ok,
      false,
    );
    const entry418 = log.entries[418]!;
    assert.equal(verifyInclusion(leafHash(entry418), 418, size, proof, root), false);
    assert.equal(
      (
        await go.ask({
          op: 'inclusion',
          size,
          root: b64(root),
          index: 418,
          entry: b64(entry418),
          proof: proof.map(b64),
        })
      ).ok,
      false,
    );
    // A fork: the same first 600 entries, then others; its checkpoint is signed by the same key.
    const fork = new MemoryLog();
    fork.append([...log.entries.slice(0, 600), ...randomEntries(400)]);
    const oldRoot = mth(log.entries.slice(0, 700));
    const forkProof = consistencyProof(fork.hashAt(), 700, fork.size);
    assert.equal(verifyConsistency(700, fork.size, forkProof, oldRoot, fork.root()), false);
    const a = await go.ask({
      op: 'consistency',
      oldSize: 700,
      oldRoot: b64(oldRoot),
      size: fork.size,
      root: b64(fork.root()),
      proof: forkProof.map(b64),
    });
    assert.equal(a.ok, false);
    // A checkpoint whose text was changed after signing, or signed by another key.
    const note = signCheckpoint({ origin: name, size, root }, name, seed);
    const altered = note.replace(`\n${size}\n`, `\n${size + 1}\n`);
    assert.equal((await go.ask({ op: 'note', vkey, note: altered })).ok, false);
    assert.throws(() => openCheckpoint(altered, parseVerifierKey(vkey)), /no valid signature/);
    const other = signCheckpoint({ origin: name, size, root }, name, randomBytes(32));
    assert.equal((await go.ask({ op: 'note', vkey, note: other })).ok, false);
    assert.throws(() => openCheckpoint(other, parseVerifierKey(vkey)), /no valid signature/);
  });
});

describe('the C2SP tile layout', () => {
  it('writes and reads tile paths as tlog-tiles spells them', () => {
    assert.equal(tileIndexPath(0), '000');
    assert.equal(tileIndexPath(1234067), 'x001/x234/067');
    assert.equal(tilePath(0, 1234067, 256), 'tile/0/x001/x234/067');
    assert.equal(tilePath(1, 5, 17), 'tile/1/005.p/17');
    assert.equal(tilePath('entries', 1000, 3), 'tile/entries/x001/000.p/3');
    assert.deepEqual(parseTilePath('tile/entries/x001/000.p/3'), { level: 'entries', index: 1000, width: 3 });
    assert.deepEqual(parseTilePath('tile/2/042'), { level: 2, index: 42, width: 256 });
    for (const bad of [
      'tile/0/42',
      'tile/0/x000/042',
      'tile/0/000.p/0',
      'tile/0/000.p/256',
      'tile/00/000',
      'tile/0/000.p/07',
    ])
      assert.equal(parseTilePath(bad), null, bad);
  });

  it('packs entry bundles with big-endian uint16 lengths', () => {
    const entries = [Buffer.from('a'), Buffer.alloc(0), Buffer.alloc(300, 7)];
    const bundle = packBundle(entries);
    assert.deepEqual([...bundle.subarray(0, 3)], [0, 1, 0x61]);
    assert.deepEqual(unpackBundle(bundle), entries);
    assert.deepEqual(unpackBundle(bundle, 2), entries.slice(0, 2));
    assert.throws(() => unpackBundle(bundle.subarray(0, bundle.length - 1)), /ends inside an entry/);
  });
});

describe('entries', () => {
  it('are one canonical JSON text, refused in any other form', () => {
    const e: AnchorEntry = {
      type: 'anchor',
      id: '0b6a4b39-2f0c-4c2e-9d45-3c3c1c6f1a10',
      kind: 'data',
      created: 1,
      public: true,
      leaf: 'ab'.repeat(32),
      signedHash: null,
      pubKey: null,
      signedIdentity: null,
      signedIssuerDomain: null,
    };
    const bytes = encodeEntry(e);
    assert.equal(
      bytes.toString(),
      `{"type":"anchor","id":"${e.id}","kind":"data","created":1,"public":true,"leaf":"${'ab'.repeat(32)}","signedHash":null,"pubKey":null,"signedIdentity":null,"signedIssuerDomain":null}`,
    );
    assert.deepEqual(decodeEntry(bytes), e);
    assert.throws(() => decodeEntry(Buffer.from(bytes.toString().replace(',', ', '))), /canonical/);
  });
});
