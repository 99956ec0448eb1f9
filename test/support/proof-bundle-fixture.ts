/**
 * A proof bundle as the service makes one for a completed request, built from its parts: a signature receipt
 * per signer (platform key, identity `CN=<name>,EMAILADDRESS=sha256:<commitment>`, issuer domain), the sealed
 * trail (format 2) and its receipt, the SPV entry of each receipt's transaction (bitcoinSpv) and the openings
 * of the owner's copy. Real signatures and Merkle proofs; only the chain is synthetic (spv-fixture.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SpvProof } from '../../src/core/bitcoin/index.js';
import { buildReceipt, signatureLeaf, type ChainpointReceipt } from '../../src/core/chainpoint/receipt.js';
import { messageToSign } from '../../src/core/identity/identity-message.js';
import { buildMerkleTree, merkleRoot, proofPath } from '../../src/core/merkle/index.js';
import { commitmentOf } from '../../src/core/signature-requests/audit-commitment.js';
import { canonicalJson } from '../../src/core/signature-requests/audit-trail.js';
import { newSigner, type Signer } from './anchors.js';
import { spvEntryFor } from './spv-fixture.js';

export interface SignedPart {
  readonly receipt: ChainpointReceipt;
  readonly spv: SpvProof;
}

/** A receipt of a signature of `signedHash` by `signer` (with the identity fields given), in its own block. */
export function signedPart(
  signer: Signer,
  signedHash: string,
  fields: { signedIdentity?: string; signedIssuerDomain?: string; identityURL?: string } = {},
  block: { height?: number; time?: number } = {},
): SignedPart {
  const signature = {
    signedHash,
    pubKey: signer.address,
    ...fields,
    signature: signer.sign(messageToSign({ signedHash, ...fields })),
  };
  const leaves = [randomBytes(32), Buffer.from(signatureLeaf(signature.signature), 'hex'), randomBytes(32)];
  const tree = buildMerkleTree(leaves);
  const root = Buffer.from(merkleRoot(tree)).toString('hex');
  const spv = spvEntryFor(root, block);
  const receipt = buildReceipt({
    targetHash: leaves[1]!.toString('hex'),
    merkleRoot: root,
    proof: proofPath(tree, 1),
    txId: spv.txid,
    signature,
  });
  return { receipt, spv };
}

/** An SPV entry the tests may alter. */
export type MutableSpv = { -readonly [K in keyof SpvProof]: SpvProof[K] };

export interface BundleFixture {
  readonly bundle: {
    signatureReceipts: ChainpointReceipt[];
    auditTrailReceipt: ChainpointReceipt;
    auditTrailData: unknown;
    bitcoinSpv: MutableSpv[];
    complete: boolean;
    signatureOpenings?: { auditTrailId: string; salt: string; value: string }[];
  };
  readonly platform: Signer;
  readonly identityURL: string;
}

/** The bundle of `content` signed by each of `signers` (name and e-mail), sealed by a platform key. */
export function proofBundle(
  content: Buffer,
  signers: { name: string; email: string }[],
  opts: { identityURL?: string; openings?: boolean } = {},
): BundleFixture {
  const platform = newSigner();
  const identityURL = opts.identityURL ?? `https://id.example.org/identity?pubKey=${platform.address}`;
  const domain = new URL(identityURL).hostname;
  const hashToSign = createHash('sha256').update(content).digest('hex');
  const openings: { auditTrailId: string; salt: string; value: string }[] = [];
  const parts = signers.map((s, i) => {
    const salt = randomBytes(16).toString('hex');
    const auditTrailId = randomBytes(32).toString('hex');
    openings.push({ auditTrailId, salt, value: s.email });
    const signedIdentity = `CN=${s.name},EMAILADDRESS=sha256:${commitmentOf(salt, s.email)}`;
    return signedPart(
      platform,
      hashToSign,
      { signedIdentity, signedIssuerDomain: domain, identityURL },
      { height: 560 + 10 * i, time: 1_700_000_000 + 600 * i },
    );
  });
  const trail = {
    format: 2,
    auditContext: { id: '00000000-0000-4000-8000-000000000001', name: 'Lease', hashToSign },
    auditEvents: [
      { date: 1_699_999_000_000, type: 'CREATED', actorEmail: randomBytes(32).toString('hex') },
      ...signers.map((s, i) => ({
        date: 1_699_999_500_000 + i * 60_000,
        type: 'DELEGATE',
        actor: s.name,
        auditTrailId: openings[i]!.auditTrailId,
        ip: randomBytes(32).toString('hex'),
      })),
      { date: 1_699_999_900_000, type: 'COMPLETED', actor: 'platform' },
    ],
  };
  const trailHash = createHash('sha256').update(canonicalJson(trail), 'utf8').digest('hex');
  const trailPart = signedPart(platform, trailHash, { identityURL }, { height: 590, time: 1_700_003_000 });
  return {
    bundle: {
      signatureReceipts: parts.map((p) => p.receipt),
      auditTrailReceipt: trailPart.receipt,
      auditTrailData: trail,
      bitcoinSpv: [
        ...parts.map((p) => ({ ...p.spv, merkleBranch: [...p.spv.merkleBranch] })),
        { ...trailPart.spv, merkleBranch: [...trailPart.spv.merkleBranch] },
      ],
      complete: true,
      ...(opts.openings ? { signatureOpenings: openings } : {}),
    },
    platform,
    identityURL,
  };
}
