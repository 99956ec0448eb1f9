import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addressFromPublicKey, publicKeyOf, signMessage } from '../../../src/core/bitcoin/index.js';
import { buildReceipt, signatureLeaf, type ChainpointReceipt } from '../../../src/core/chainpoint/index.js';
import { messageToSign } from '../../../src/core/identity/index.js';
import { buildMerkleTree, merkleRoot, proofPath } from '../../../src/core/merkle/index.js';
import { verifyReceiptIndependently, type Rpc } from '../../support/independent-verifier.js';

const woleet = JSON.parse(
  readFileSync(new URL('../../vectors/woleet-receipts.json', import.meta.url), 'utf8'),
) as Record<string, ChainpointReceipt>;
const notFound: Rpc = async () => {
  throw new Error('No such mempool or blockchain transaction');
};

describe('independent verifier on the woleet vectors (rpc: not found)', () => {
  it('valid signed receipt: proof and signature verify, tx not found', async () => {
    assert.deepEqual(await verifyReceiptIndependently(woleet.validSignedReceipt, notFound), {
      proofValid: true,
      signature: 'VERIFIED',
      tx: 'NOT_FOUND',
      confirmations: 0,
    });
  });
  it('valid data receipt: proof verifies, no signature', async () => {
    const result = await verifyReceiptIndependently(woleet.validDataReceipt, async () => null);
    assert.deepEqual(result, { proofValid: true, signature: 'NONE', tx: 'NOT_FOUND', confirmations: 0 });
  });
  it('altered receipts fail the proof', async () => {
    assert.equal((await verifyReceiptIndependently(woleet.invalidSignedReceipt, notFound)).proofValid, false);
    assert.equal((await verifyReceiptIndependently(woleet.invalidDataReceipt, notFound)).proofValid, false);
  });
  it('a changed signature is a mismatch; a changed signedHash an invalid signature', async () => {
    const r = structuredClone(woleet.validSignedReceipt);
    r.signature = { ...r.signature!, signedHash: 'a'.repeat(64) };
    assert.equal((await verifyReceiptIndependently(r, notFound)).signature, 'INVALID_SIGNATURE');
    r.signature = { ...r.signature, signature: `I${r.signature.signature.slice(1)}` };
    assert.equal((await verifyReceiptIndependently(r, notFound)).signature, 'SIGNATURE_MISMATCH_RECEIPT');
  });
  it('reads the transaction through rpc: OP_RETURN must carry exactly the root', async () => {
    const r = woleet.validDataReceipt;
    const seen: unknown[][] = [];
    const rpc =
      (hex: string): Rpc =>
      async (method, params) => {
        seen.push([method, ...params]);
        return {
          vout: [{ scriptPubKey: { hex: '0014' + 'ab'.repeat(20) } }, { scriptPubKey: { hex } }],
          confirmations: 7,
          blocktime: 1_500_000_000,
        };
      };
    assert.deepEqual(await verifyReceiptIndependently(r, rpc(`6a20${r.merkleRoot}`)), {
      proofValid: true,
      signature: 'NONE',
      tx: 'FOUND',
      confirmations: 7,
      timestamp: 1_500_000_000_000,
    });
    assert.deepEqual(seen[0], ['getrawtransaction', r.anchors[0].sourceId, true]);
    assert.equal((await verifyReceiptIndependently(r, rpc(`6a21${r.merkleRoot}00`))).tx, 'MISMATCH_RECEIPT');
  });
});

describe('receipts built by core pass the independent verifier', () => {
  it('random batches, signature anchors of every address type, with and without identity', async () => {
    const types = ['p2pkh', 'p2sh-p2wpkh', 'p2wpkh'] as const;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.nat(), fc.boolean(), async (count, seed, withIdentity) => {
        const key = Buffer.alloc(32, (seed % 250) + 1);
        const type = types[seed % 3];
        const pubKey = addressFromPublicKey(publicKeyOf(key), type, seed % 2 === 0 ? 'mainnet' : 'regtest');
        const signedHash = signatureLeaf(`doc ${seed}`);
        const identity = withIdentity ? { signedIdentity: 'CN=Jane Doe', signedIssuerDomain: 'acme.com' } : {};
        const signature = signMessage(messageToSign({ signedHash, ...identity }), key, { addressType: type });
        const leaves = Array.from({ length: count }, (_, i) => Buffer.from(signatureLeaf(`${seed}/${i}`), 'hex'));
        const i = seed % count;
        leaves[i] = Buffer.from(signatureLeaf(signature), 'hex');
        const tree = buildMerkleTree(leaves);
        const receipt = buildReceipt({
          targetHash: leaves[i].toString('hex'),
          merkleRoot: merkleRoot(tree).toString('hex'),
          proof: proofPath(tree, i),
          txId: 'e'.repeat(64),
          signature: { signedHash, pubKey, signature, ...identity },
        });
        const result = await verifyReceiptIndependently(receipt, notFound);
        assert.deepEqual([result.proofValid, result.signature], [true, 'VERIFIED']);
      }),
      { numRuns: 40 },
    );
  });
});
