/**
 * The offline bundle verification on hostile bundles and failing header sources: a verdict with the failed
 * check named, never an exception; and the audit-trail link on its own (core).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HeaderSource } from '../../../src/app/anchoring/header-source.port.js';
import { isProofBundle, verifyProofBundle } from '../../../src/app/signature-requests/verify-proof-bundle.js';
import { pkijsTimestampTokenReader } from '../../../src/adapters/pdf/timestamp-token-reader.js';
import { checkAuditTrailLink } from '../../../src/core/signature-requests/trail-link.js';
import { sha256Hex } from '../../../src/core/hash/sha256.js';

const headers: HeaderSource = {
  description: 'a test source',
  blockHashAt: async () => null,
  tipHeight: async () => 0,
};
const failing: HeaderSource = {
  description: 'a dead explorer',
  blockHashAt: async () => {
    throw new Error('ECONNREFUSED');
  },
  tipHeight: async () => {
    throw new Error('ECONNREFUSED');
  },
};
const hash = 'ab'.repeat(32);
const timestamps = pkijsTimestampTokenReader();

describe('verifyProofBundle on hostile input', () => {
  it('tells a bundle from a receipt', () => {
    assert.equal(isProofBundle({ signatureReceipts: [] }), true);
    assert.equal(isProofBundle({ targetHash: hash }), false);
    assert.equal(isProofBundle(null), false);
    assert.equal(isProofBundle([]), false);
  });

  for (const bundle of [
    null,
    {},
    { signatureReceipts: [] },
    { signatureReceipts: [null, 5, 'x', {}], bitcoinSpv: 'x', auditTrailReceipt: 3 },
    { signatureReceipts: [{ targetHash: hash }], bitcoinSpv: [null, 1, { txid: 5 }], auditTrailData: { a: 1.5 } },
    { signatureReceipts: [], rfc3161Timestamps: 'x' },
    { signatureReceipts: [], rfc3161Timestamps: [null, 7, { merkleRoot: hash, token: '%%%' }, { merkleRoot: 5 }] },
  ])
    it(`fails, without throwing: ${JSON.stringify(bundle)}`, async () => {
      const v = await verifyProofBundle({ headers, timestamps }, { bundle, documentHash: hash });
      assert.equal(v.verified, false);
      assert.ok(v.items.some((i) => i.checks.some((c) => c.ok === false)));
      assert.deepEqual(v.blocks, []);
    });

  it('a header source that fails is a failed check naming it', async () => {
    const v = await verifyProofBundle(
      { headers: failing, timestamps },
      { bundle: { signatureReceipts: [] }, documentHash: hash },
    );
    assert.equal(v.verified, false);
    assert.equal(v.headerSource, 'a dead explorer');
  });
});

describe('checkAuditTrailLink', () => {
  const trail = { format: 2, auditContext: { id: 'r1', name: 'Lease', hashToSign: hash }, auditEvents: [] };
  // RFC 8785: keys sorted, no white space.
  const canonical = `{"auditContext":{"hashToSign":"${hash}","id":"r1","name":"Lease"},"auditEvents":[],"format":2}`;
  const proven = sha256Hex(Buffer.from(canonical));

  it('links the trail to the hash its receipt proves (signed or not)', () => {
    assert.deepEqual(checkAuditTrailLink({ signature: { signedHash: proven } }, trail), { linked: true, hash: proven });
    assert.deepEqual(checkAuditTrailLink({ targetHash: proven }, trail), { linked: true, hash: proven });
    assert.equal(checkAuditTrailLink({ targetHash: proven }, canonical).linked, true, 'a trail given as its text');
  });

  it('names what is wrong: another trail, no trail, a value canonical JSON cannot take', () => {
    const other = checkAuditTrailLink({ signature: { signedHash: proven } }, { ...trail, format: 3 });
    assert.equal(other.linked, false);
    assert.equal(!other.linked && other.reason, 'HASH_DIFFERS');
    assert.match(!other.linked ? other.text : '', new RegExp(`the audit-trail receipt proves ${proven}`));
    const none = checkAuditTrailLink({ targetHash: proven }, undefined);
    assert.equal(!none.linked && none.reason, 'NO_TRAIL');
    const bad = checkAuditTrailLink({ targetHash: proven }, { n: 0.5 });
    assert.equal(!bad.linked && bad.reason, 'NOT_JSON');
  });
});
