// tier: slow (a bcoin regtest node)
/**
 * End to end on the real embedded bcoin node, both stores: a request signed by delegation to COMPLETED,
 * its audit trail sealed, the batch broadcast and confirmed; every receipt of the proof bundle and the
 * audit-trail receipt are accepted by the independent verifier, and the sealed trail hashes to its receipt;
 * the bundle's SPV data verifies with checkSpvProof and against the node read independently, and any
 * byte changed in it is rejected.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getProofBundle } from '../../../src/app/signature-requests/proof-bundle.js';
import { checkSpvProof, type SpvProof } from '../../../src/core/bitcoin/spv.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { startAnchoring, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { completedRequest } from '../../support/completed-request.js';
import { testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { verifyReceiptIndependently, type ReceiptLike } from '../../support/independent-verifier.js';
import { canonical } from '../../support/canonical-json.js';
import { storeKinds } from '../../support/stores.js';
import { createOwner, platformSignerIn } from '../fixture.js';

const kinds = await storeKinds();

const sha256d = (bytes: Buffer) => createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
const flipByte = (hex: string, at: number) => {
  const b = Buffer.from(hex, 'hex');
  b[at] ^= 0x01;
  return b.toString('hex');
};

/** The SPV entry against the node's own answers, hashed with node:crypto alone. */
async function assertSpvMatchesNode(
  spv: SpvProof,
  rpc: (method: string, params: unknown[]) => Promise<unknown>,
): Promise<void> {
  const header = Buffer.from(spv.blockHeader, 'hex');
  assert.equal(header.length, 80);
  assert.equal(Buffer.from(sha256d(header)).reverse().toString('hex'), spv.blockHash);
  const info = (await rpc('getblockheader', [spv.blockHash, true])) as { height: number; merkleroot: string };
  assert.equal(info.height, spv.blockHeight);
  assert.equal(Buffer.from(header.subarray(36, 68)).reverse().toString('hex'), info.merkleroot);
  assert.equal(await rpc('getblockheader', [spv.blockHash, false]), spv.blockHeader);
  const full = (await rpc('getrawtransaction', [spv.txid, false])) as string;
  assert.equal(
    Buffer.from(sha256d(Buffer.from(spv.rawTx, 'hex')))
      .reverse()
      .toString('hex'),
    spv.txid,
  );
  assert.ok(full.length > spv.rawTx.length, 'the node has the witness, the entry does not');
  const block = (await rpc('getblock', [spv.blockHash, true])) as { tx: string[] };
  assert.equal(block.tx.indexOf(spv.txid), spv.txIndex);
}

/** One byte changed in the transaction, the branch, the header's Merkle root and its nonce. */
function tamperings(spv: SpvProof, root: string): [string, SpvProof, string][] {
  const inRoot = spv.rawTx.indexOf(`6a20${root}`) / 2 + 10;
  assert.ok(inRoot > 10, 'the root is in the transaction');
  return [
    ['rawTx', { ...spv, rawTx: flipByte(spv.rawTx, inRoot) }, 'TXID'],
    [
      'merkleBranch',
      { ...spv, merkleBranch: [flipByte(spv.merkleBranch[0]!, 5), ...spv.merkleBranch.slice(1)] },
      'MERKLE_BRANCH',
    ],
    ['txIndex', { ...spv, txIndex: spv.txIndex ^ 1 }, 'MERKLE_BRANCH'],
    ['header root', { ...spv, blockHeader: flipByte(spv.blockHeader, 40) }, 'MERKLE_BRANCH'],
    ['header nonce', { ...spv, blockHeader: flipByte(spv.blockHeader, 79) }, 'BLOCK_HASH'],
  ];
}

for (const kind of kinds) {
  describe(`signature request end to end on bcoin regtest, ${kind.name} store`, { skip: kind.skip }, () => {
    let f: AnchoringFixture;
    let app: FastifyInstance;
    let deps: AppDeps;
    let auth: { authorization: string };

    before(async () => {
      f = await startAnchoring(kind);
      const store = f.s.withJobs(() => f.jobs);
      const platformSigner = await platformSignerIn(store, { now: Date.now });
      deps = testDeps(store, { chain: f.chain, jobs: f.jobs, platformSigner });
      app = await testApp(store, { deps, config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }) });
      auth = (await createOwner(deps)).auth;
    });
    after(async () => {
      await app?.close();
      await f?.close();
    });

    it('COMPLETED, sealed, confirmed: every receipt verifies independently', async () => {
      const file = Buffer.from(`lease signed on ${new Date().toISOString()}\n`);
      const hashToSign = createHash('sha256').update(file).digest('hex');
      const { id, anchorCount, txid } = await completedRequest({ f, app, deps, auth, hashToSign });
      assert.equal(anchorCount, 3);
      const proofMailsDue = await deps.store.requestMailMarks.dueProofMails(10);
      assert.equal(proofMailsDue.length, 2, "each signer's proof mail is due once its batch (a range) is CONFIRMED");

      const res = await app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: auth });
      assert.equal(res.statusCode, 200, res.body);
      const bundle = res.json<{
        signatureReceipts: ReceiptLike[];
        auditTrailReceipt: ReceiptLike & { signature: { signedHash: string } };
        auditTrailData: unknown;
        bitcoinSpv: SpvProof[];
        complete: boolean;
      }>();
      assert.equal(bundle.complete, true);
      assert.equal(bundle.signatureReceipts.length, 2);
      const rpc = (method: string, params: unknown[]) => f.chain.call(method, params);
      for (const receipt of [...bundle.signatureReceipts, bundle.auditTrailReceipt]) {
        const checked = await verifyReceiptIndependently(receipt, rpc);
        assert.deepEqual(
          [checked.proofValid, checked.signature, checked.tx, checked.confirmations],
          [true, 'VERIFIED', 'FOUND', 6],
        );
      }
      for (const receipt of bundle.signatureReceipts)
        assert.equal((receipt as unknown as { signature: { signedHash: string } }).signature.signedHash, hashToSign);
      const trailHash = createHash('sha256').update(canonical(bundle.auditTrailData)).digest('hex');
      assert.equal(bundle.auditTrailReceipt.signature.signedHash, trailHash);

      assert.deepEqual(
        bundle.bitcoinSpv.map((e) => e.txid),
        [txid],
        'one batch, one transaction: its SPV data once',
      );
      const spv = bundle.bitcoinSpv[0]!;
      for (const receipt of [...bundle.signatureReceipts, bundle.auditTrailReceipt]) {
        assert.equal(receipt.anchors[0]!.sourceId, spv.txid);
        assert.deepEqual(checkSpvProof(spv, receipt.merkleRoot), { valid: true });
      }
      await assertSpvMatchesNode(spv, (method, params) => f.chain.call(method, params));
      let headerReads = 0;
      const counting = Object.create(f.chain) as typeof f.chain;
      counting.getBlockHeaderHex = (hash) => ((headerReads += 1), f.chain.getBlockHeaderHex(hash));
      const completed = (await deps.store.signatureRequests.findById(id))!;
      const shared = await getProofBundle({ ...deps, chain: counting }, completed);
      assert.equal(headerReads, 0, 'the header was stored at the first confirmation: the node is not asked');
      assert.deepEqual(shared.bitcoinSpv, bundle.bitcoinSpv, 'the public bundle carries the same SPV data');
      assert.deepEqual(
        (await getProofBundle({ ...deps, chain: undefined }, completed)).bitcoinSpv,
        bundle.bitcoinSpv,
        'a process with no node (an api process of a split) serves the same SPV data',
      );

      const root = bundle.auditTrailReceipt.merkleRoot;
      assert.equal(checkSpvProof(spv, '00'.repeat(32)).valid, false, 'another root is not in the transaction');
      for (const [what, tampered, failed] of tamperings(spv, root))
        assert.deepEqual([what, (checkSpvProof(tampered, root) as { failed?: string }).failed], [what, failed]);
    });
  });
}
