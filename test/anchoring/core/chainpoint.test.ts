import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MerkleTools, { type Proof } from 'merkle-tools';
import {
  buildReceipt,
  checkReceiptPath,
  receiptText,
  receiptTextWithTx,
  signatureLeaf,
  signatureMatchesTarget,
  validateReceipt,
  type ChainpointReceipt,
} from '../../../src/core/chainpoint/index.js';
import { buildMerkleTree, merkleRoot, nodeAt, proofNodeLocations, proofPath } from '../../../src/core/merkle/index.js';
import { sha256Utf8 } from '../../../src/core/hash/index.js';

type Vectors = Record<
  'validSignedReceipt' | 'validDataReceipt' | 'invalidSignedReceipt' | 'invalidDataReceipt',
  ChainpointReceipt
>;
const woleet = JSON.parse(
  readFileSync(new URL('../../vectors/woleet-receipts.json', import.meta.url), 'utf8'),
) as Vectors;
const clone = <T>(v: T): T => structuredClone(v);

describe('woleet vectors', () => {
  it('the valid receipts validate and their paths reach the root', () => {
    for (const name of ['validSignedReceipt', 'validDataReceipt'] as const) {
      const receipt = validateReceipt(clone(woleet[name]));
      assert.equal(checkReceiptPath(receipt), true, name);
      assert.deepEqual(receipt.proof, woleet[name].proof);
    }
  });
  it('the altered receipts validate in shape but fail the path check', () => {
    for (const name of ['invalidSignedReceipt', 'invalidDataReceipt'] as const) {
      assert.equal(checkReceiptPath(validateReceipt(clone(woleet[name]))), false, name);
    }
  });
  it('the signed receipt targetHash is SHA-256 of the base64 signature', () => {
    const receipt = validateReceipt(clone(woleet.validSignedReceipt));
    assert.equal(signatureLeaf(receipt.signature?.signature ?? ''), receipt.targetHash);
    assert.equal(signatureMatchesTarget(receipt), true);
    assert.equal(signatureMatchesTarget({ ...receipt, targetHash: 'a'.repeat(64) }), false);
  });
  it('validation returns the canonical field order', () => {
    assert.deepEqual(Object.keys(validateReceipt(clone(woleet.validSignedReceipt))), [
      '@context',
      'type',
      'targetHash',
      'merkleRoot',
      'proof',
      'anchors',
      'signature',
    ]);
  });
});

describe('buildReceipt', () => {
  it('builds receipts that validate and whose paths merkle-tools accepts (random batches)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.nat(), (count, pick) => {
        const leaves = Array.from({ length: count }, (_, i) => sha256Utf8(`${pick}-${i}`));
        const tree = buildMerkleTree(leaves);
        const i = pick % count;
        const receipt = buildReceipt({
          targetHash: leaves[i].toString('hex'),
          merkleRoot: merkleRoot(tree).toString('hex'),
          proof: proofPath(tree, i),
          txId: 'c'.repeat(64),
        });
        assert.deepEqual(validateReceipt(clone(receipt)), receipt);
        const mt = new MerkleTools({ hashType: 'sha256' });
        assert.equal(
          mt.validateProof(receipt.proof as unknown as Proof<string>, receipt.targetHash, receipt.merkleRoot),
          true,
        );
      }),
      { numRuns: 40 },
    );
  });
  it('writes the fixed field order, with the signature object last for signature anchors', () => {
    const sig = woleet.validSignedReceipt.signature;
    assert.ok(sig);
    const receipt = buildReceipt({
      targetHash: woleet.validSignedReceipt.targetHash,
      merkleRoot: woleet.validSignedReceipt.merkleRoot,
      proof: woleet.validSignedReceipt.proof,
      txId: woleet.validSignedReceipt.anchors[0].sourceId,
      signature: {
        signedIssuerDomain: 'acme.com',
        signature: sig.signature,
        pubKey: sig.pubKey,
        signedHash: sig.signedHash,
      },
    });
    assert.equal(
      JSON.stringify(Object.keys(receipt)),
      '["@context","type","targetHash","merkleRoot","proof","anchors","signature"]',
    );
    assert.equal(
      JSON.stringify(Object.keys(receipt.signature ?? {})),
      '["signedHash","pubKey","signature","signedIssuerDomain"]',
    );
    assert.deepEqual(receipt.anchors, [
      { type: 'BTCOpReturn', sourceId: 'cf85e40a989414fcba072434fbead5d7b51899c95e63bdc641561294fbaf7687' },
    ]);
  });
  it('refuses a proof that misses the root and a signature that is not the leaf', () => {
    const d = woleet.invalidDataReceipt;
    assert.throws(
      () =>
        buildReceipt({
          targetHash: d.targetHash,
          merkleRoot: d.merkleRoot,
          proof: d.proof,
          txId: d.anchors[0].sourceId,
        }),
      { code: 'INVALID_RECEIPT' },
    );
    const s = woleet.validSignedReceipt;
    const signature = { ...s.signature!, signature: `I${s.signature!.signature.slice(1)}` };
    assert.throws(
      () =>
        buildReceipt({
          targetHash: s.targetHash,
          merkleRoot: s.merkleRoot,
          proof: s.proof,
          txId: s.anchors[0].sourceId,
          signature,
        }),
      { code: 'INVALID_RECEIPT', message: '"targetHash" is not the SHA-256 of the signature' },
    );
  });
});

describe('receiptText', () => {
  /** The parts of leaf `i`'s receipt in a tree of `leaves`, as bytes, and the same as buildReceipt takes them. */
  const partsOf = (leaves: Buffer[], i: number) => {
    const tree = buildMerkleTree(leaves);
    const locations = proofNodeLocations(tree.leafCount, i);
    return {
      bytes: {
        target: leaves[i]!,
        root: merkleRoot(tree),
        locations,
        nodes: locations.map((l) => nodeAt(tree, l.level, l.index)),
      },
      hex: {
        targetHash: leaves[i]!.toString('hex'),
        merkleRoot: merkleRoot(tree).toString('hex'),
        proof: proofPath(tree, i),
      },
    };
  };

  it('is byte for byte the JSON text of buildReceipt (random batches, data anchors)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), (count, pick) => {
        const leaves = Array.from({ length: count }, (_, k) => sha256Utf8(`${pick}-${k}`));
        const { bytes, hex } = partsOf(leaves, pick % count);
        const txId = sha256Utf8(`tx-${pick}`).toString('hex');
        assert.equal(receiptTextWithTx(receiptText(bytes), txId), JSON.stringify(buildReceipt({ ...hex, txId })));
      }),
      { numRuns: 60 },
    );
  });

  it('is byte for byte the JSON text of buildReceipt for signature anchors, identity text escaped alike', () => {
    const sig = woleet.validSignedReceipt.signature!;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.nat(),
        fc.string(),
        fc.string({ unit: 'binary' }),
        (count, pick, url, id) => {
          const signature = {
            signedHash: sig.signedHash,
            pubKey: sig.pubKey,
            signature: sig.signature,
            ...(pick % 2 === 0 ? { identityURL: `https://id.example/${url}"\\\n\u2028` } : {}),
            ...(pick % 3 === 0 ? { signedIdentity: id } : {}),
            signedIssuerDomain: `acme.com${url}`,
          };
          const leaves = Array.from({ length: count }, (_, k) => sha256Utf8(`${pick}-${k}`));
          const i = pick % count;
          leaves[i] = Buffer.from(woleet.validSignedReceipt.targetHash, 'hex');
          const { bytes, hex } = partsOf(leaves, i);
          const txId = 'ab'.repeat(32);
          assert.equal(
            receiptTextWithTx(receiptText({ ...bytes, signature }), txId),
            JSON.stringify(buildReceipt({ ...hex, txId, signature })),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses what buildReceipt refuses: a path that misses the root, a signature not the leaf, a bad txId', () => {
    const leaves = Array.from({ length: 9 }, (_, k) => sha256Utf8(`x-${k}`));
    const { bytes } = partsOf(leaves, 4);
    const wrong = Buffer.from(bytes.nodes[1]!);
    wrong[0]! ^= 1;
    const nodes = [bytes.nodes[0]!, wrong, ...bytes.nodes.slice(2)];
    assert.throws(() => receiptText({ ...bytes, nodes }), { code: 'INVALID_RECEIPT' });
    assert.throws(() => receiptText({ ...bytes, root: Buffer.alloc(32) }), { code: 'INVALID_RECEIPT' });
    const signature = { ...woleet.validSignedReceipt.signature! };
    assert.throws(() => receiptText({ ...bytes, signature }), {
      code: 'INVALID_RECEIPT',
      message: '"targetHash" is not the SHA-256 of the signature',
    });
    const text = receiptText(bytes);
    assert.throws(() => receiptTextWithTx(text, 'AB'.repeat(32)), { code: 'INVALID_HASH' });
    assert.throws(() => receiptTextWithTx(text, `${'ab'.repeat(31)}"}`), { code: 'INVALID_HASH' });
  });
});

describe('validateReceipt refuses malformed receipts with INVALID_RECEIPT', () => {
  const base = () => clone(woleet.validSignedReceipt) as unknown as Record<string, unknown>;
  const cases: [string, (r: Record<string, unknown>) => unknown, RegExp][] = [
    ['not an object', () => [], /"receipt" expected an object, got an array/],
    ['null', () => null, /got null/],
    ['unknown field', (r) => ({ ...r, extra: 1 }), /unknown field "extra"/],
    ['wrong type', (r) => ({ ...r, type: 'ChainpointSHA512v2' }), /"type" expected "ChainpointSHA256v2"/],
    [
      'missing type',
      (r) => {
        delete r.type;
        return r;
      },
      /got nothing/,
    ],
    ['wrong context', (r) => ({ ...r, '@context': 'x' }), /"@context"/],
    [
      'upper-case targetHash',
      (r) => ({ ...r, targetHash: (r.targetHash as string).toUpperCase() }),
      /"targetHash" expected lowercase hex, got upper-case/,
    ],
    ['short merkleRoot', (r) => ({ ...r, merkleRoot: 'ab' }), /"merkleRoot" expected 64 lowercase hex chars, got 2$/],
    ['proof not array', (r) => ({ ...r, proof: {} }), /"proof" expected an array, got object/],
    [
      'proof step with both sides',
      (r) => ({ ...r, proof: [{ left: 'a'.repeat(64), right: 'a'.repeat(64) }] }),
      /exactly one of/,
    ],
    [
      'proof step with another key',
      (r) => ({ ...r, proof: [{ up: 'a'.repeat(64) }] }),
      /"proof\[0\]" has an unknown field "up"/,
    ],
    [
      'proof too long',
      (r) => ({ ...r, proof: Array.from({ length: 65 }, () => ({ left: 'a'.repeat(64) })) }),
      /0..64 items, got 65/,
    ],
    ['no anchor', (r) => ({ ...r, anchors: [] }), /"anchors" expected 1..16 items, got 0/],
    [
      'other anchor type',
      (r) => ({ ...r, anchors: [{ type: 'ETHData', sourceId: 'a'.repeat(64) }] }),
      /"anchors\[0\].type" expected "BTCOpReturn"/,
    ],
    ['bad sourceId', (r) => ({ ...r, anchors: [{ type: 'BTCOpReturn', sourceId: 'xyz' }] }), /"anchors\[0\].sourceId"/],
    ['signature not object', (r) => ({ ...r, signature: 'x' }), /"signature" expected an object, got string/],
    [
      'signature missing pubKey',
      (r) => ({ ...r, signature: { ...(r.signature as object), pubKey: undefined } }),
      /"signature.pubKey" expected a non-empty string/,
    ],
    [
      'signature extra field',
      (r) => ({ ...r, signature: { ...(r.signature as object), foo: 'x' } }),
      /"signature" has an unknown field "foo"/,
    ],
    [
      'signature identity not string',
      (r) => ({ ...r, signature: { ...(r.signature as object), signedIdentity: 5 } }),
      /"signature.signedIdentity"/,
    ],
  ];
  for (const [name, mutate, message] of cases) {
    it(name, () => assert.throws(() => validateReceipt(mutate(base())), { code: 'INVALID_RECEIPT', message }));
  }
  it('accepts a receipt without @context and with optional identity fields', () => {
    const r = base();
    delete r['@context'];
    r.signature = {
      ...(r.signature as object),
      identityURL: 'https://id.acme.com/identity',
      signedIdentity: 'CN=Jane',
    };
    const receipt = validateReceipt(r);
    assert.equal(receipt['@context'], 'https://w3id.org/chainpoint/v2');
    assert.equal(receipt.signature?.signedIdentity, 'CN=Jane');
  });
});
