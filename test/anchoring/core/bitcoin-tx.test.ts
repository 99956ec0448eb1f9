import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MerkleTools from 'merkle-tools';
import { NETWORK, p2pkh, p2sh, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  addressFromHash,
  addressFromPublicKey,
  blockMerkleBranch,
  blockMerkleRoot,
  decodeAddress,
  encodeCompactSize,
  hash160,
  opReturnScript,
  parseOpReturn,
  parseRawTransaction,
  readCompactSize,
  type Network,
} from '../../../src/core/bitcoin/index.js';
import { doubleSha256 } from '../../../src/core/hash/index.js';
import { anchorTx } from './tx-fixture.js';

const REGTEST = { ...TEST_NETWORK, bech32: 'bcrt' };
const SCURE_NET: Record<Network, typeof NETWORK> = {
  mainnet: NETWORK,
  testnet: TEST_NETWORK,
  signet: TEST_NETWORK,
  regtest: REGTEST,
};
const keys = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k));
const networks = fc.constantFrom<Network>('mainnet', 'testnet', 'signet', 'regtest');

describe('addresses vs @scure/btc-signer', () => {
  it('derives and decodes P2PKH, P2SH-P2WPKH and P2WPKH on every network', () => {
    fc.assert(
      fc.property(keys, networks, (key, network) => {
        const pub = secp256k1.getPublicKey(key, true);
        const net = SCURE_NET[network];
        const expected = {
          p2pkh: p2pkh(pub, net).address,
          'p2sh-p2wpkh': p2sh(p2wpkh(pub, net), net).address,
          p2wpkh: p2wpkh(pub, net).address,
        } as const;
        for (const type of ['p2pkh', 'p2sh-p2wpkh', 'p2wpkh'] as const) {
          const address = addressFromPublicKey(pub, type, network);
          assert.equal(address, expected[type]);
          const decoded = decodeAddress(address);
          assert.equal(decoded.type, type);
          assert.equal(
            decoded.network,
            network === 'signet' ? 'testnet' : type !== 'p2wpkh' && network === 'regtest' ? 'testnet' : network,
          );
          assert.equal(addressFromHash(decoded.hash, type, network), address);
        }
        assert.equal(
          addressFromPublicKey(secp256k1.getPublicKey(key, false), 'p2pkh', network),
          p2pkh(secp256k1.getPublicKey(key, false), net).address,
        );
      }),
      { numRuns: 50 },
    );
  });
  it('decodes known addresses (BIP-173 P2WPKH, woleet P2PKH)', () => {
    const bip173 = decodeAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    assert.deepEqual(
      { ...bip173, hash: bip173.hash.toString('hex') },
      { type: 'p2wpkh', network: 'mainnet', hash: '751e76e8199196d454941c45d1b3a323f1433bd6' },
    );
    assert.equal(decodeAddress('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4').type, 'p2wpkh');
    assert.equal(decodeAddress('1BGLkyG7SCHH32bALDnMP2YrS84JMCimc3').network, 'mainnet');
  });
  it('refuses P2WSH, taproot, unknown versions, bad checksums and uncompressed segwit keys', () => {
    for (const bad of [
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
      'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
      '1BGLkyG7SCHH32bALDnMP2YrS84JMCimc4',
      'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      '',
      'xyz',
    ]) {
      assert.throws(() => decodeAddress(bad), { code: 'INVALID_PUBKEY' }, bad);
    }
    assert.throws(() => addressFromPublicKey(secp256k1.getPublicKey(Buffer.alloc(32, 1), false), 'p2wpkh', 'mainnet'), {
      code: 'INVALID_PUBKEY',
    });
    assert.throws(() => addressFromHash(Buffer.alloc(19), 'p2pkh', 'mainnet'), {
      code: 'INVALID_PUBKEY',
      message: '"hash" expected 20 bytes, got 19',
    });
  });
  it('hash160 matches RIPEMD-160(SHA-256) from node:crypto', () => {
    const data = Buffer.from('proofseal');
    assert.equal(
      hash160(data).toString('hex'),
      createHash('ripemd160').update(createHash('sha256').update(data).digest()).digest('hex'),
    );
  });
});

describe('OP_RETURN script', () => {
  it('builds 6a20<root> and parses only that form', () => {
    const root = Buffer.alloc(32, 0xab);
    const script = opReturnScript(root);
    assert.equal(script.toString('hex'), `6a20${'ab'.repeat(32)}`);
    assert.deepEqual(parseOpReturn(script), root);
    assert.equal(parseOpReturn(script.subarray(0, 33)), null);
    assert.equal(parseOpReturn(Buffer.concat([Buffer.from('6a21', 'hex'), root, Buffer.alloc(1)])), null);
    assert.equal(parseOpReturn(Buffer.concat([Buffer.from('6b20', 'hex'), root])), null);
    assert.throws(() => opReturnScript(Buffer.alloc(31)), { code: 'INVALID_HASH' });
  });
});

describe('CompactSize', () => {
  it('round-trips across the 1, 3, 5 and 9 byte forms', () => {
    for (const [n, size] of [
      [0, 1],
      [252, 1],
      [253, 3],
      [0xffff, 3],
      [0x10000, 5],
      [0xffffffff, 5],
      [2 ** 40, 9],
    ] as const) {
      const enc = encodeCompactSize(n);
      assert.equal(enc.length, size);
      assert.deepEqual(readCompactSize(enc, 0), { value: n, next: size });
    }
    assert.throws(() => readCompactSize(Buffer.from([0xfd, 1]), 0), { code: 'BAD_REQUEST' });
  });
});

describe('raw transactions vs @scure/btc-signer', () => {
  it('strips the witness: txid and non-witness bytes match, OP_RETURN offset found', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 3 }), (root, extra) => {
        const tx = anchorTx(Buffer.from(root), `tx ${extra}`, extra);
        const parsed = parseRawTransaction(tx.hex);
        assert.equal(parsed.hasWitness, true);
        assert.equal(parsed.txid, tx.id);
        assert.equal(parsed.nonWitness.toString('hex'), tx.nonWitnessHex);
        const out = parsed.outputs[extra];
        assert.deepEqual(parseOpReturn(out.script), Buffer.from(root));
        assert.deepEqual(parsed.nonWitness.subarray(out.scriptOffset + 2, out.scriptOffset + 34), Buffer.from(root));
      }),
      { numRuns: 20 },
    );
  });
  it('parses a legacy transaction as is, and refuses truncated or trailing bytes', () => {
    const tx = anchorTx(Buffer.alloc(32, 1), 'legacy');
    const legacy = parseRawTransaction(tx.nonWitnessHex);
    assert.equal(legacy.hasWitness, false);
    assert.equal(legacy.txid, tx.id);
    assert.throws(() => parseRawTransaction(tx.hex.slice(0, -2)), { code: 'BAD_REQUEST' });
    assert.throws(() => parseRawTransaction(`${tx.hex}00`), { code: 'BAD_REQUEST' });
    assert.throws(() => parseRawTransaction(tx.hex.toUpperCase()), { code: 'BAD_REQUEST' });
  });
});

describe('block Merkle branch (Bitcoin rule: odd level duplicates its last node)', () => {
  const txids = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => createHash('sha256').update(`${seed}/${i}`).digest('hex'));
  it('root matches merkle-tools makeBTCTree(doubleHash) and every branch leads to it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(), (n, seed) => {
        const ids = txids(n, seed);
        const mt = new MerkleTools({ hashType: 'sha256' });
        mt.addLeaves(ids.map((id) => Buffer.from(id, 'hex').reverse().toString('hex')));
        mt.makeBTCTree(true);
        const root = blockMerkleRoot(ids);
        assert.equal(
          root,
          Buffer.from(mt.getMerkleRoot() as Buffer)
            .reverse()
            .toString('hex'),
        );
        const pick = seed % n;
        const branch = blockMerkleBranch(ids, ids[pick]);
        assert.equal(branch.index, pick);
        let node: Buffer = Buffer.from(ids[pick], 'hex').reverse();
        branch.siblings.forEach((s, level) => {
          const sib = Buffer.from(s, 'hex');
          node = doubleSha256((branch.index >> level) & 1 ? Buffer.concat([sib, node]) : Buffer.concat([node, sib]));
        });
        assert.equal(Buffer.from(node).reverse().toString('hex'), root);
      }),
      { numRuns: 60 },
    );
  });
  it('a one-transaction block has an empty branch and the txid as root; an unknown txid is refused', () => {
    const [id] = txids(1, 0);
    assert.deepEqual(blockMerkleBranch([id], id), { siblings: [], index: 0 });
    assert.equal(blockMerkleRoot([id]), id);
    assert.throws(() => blockMerkleBranch([id], 'f'.repeat(64)), { code: 'BAD_REQUEST' });
    assert.throws(() => blockMerkleRoot([]), { code: 'BAD_REQUEST' });
  });
  it('matches the genesis-era block 170 merkle root (2 txs)', () => {
    const ids = [
      'b1fea52486ce0c62bb442b530a3f0132b826c74e473d1f2c220bfa78111c5082',
      'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16',
    ];
    assert.equal(blockMerkleRoot(ids), '7dac2c5666815c17a3b36427de37bb9d2e2c5ccec3f8633eb91a4205cb4c10ff');
  });
});
