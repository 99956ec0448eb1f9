/** The worker-thread verifier gives what the core's verifySignedMessage gives, item by item, in batches. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { signatureVerifyPool } from '../../../src/adapters/system/signature-verify-pool.js';
import { verifySignedMessage } from '../../../src/core/bitcoin/signed-message.js';
import { DomainError } from '../../../src/core/errors.js';
import { newSigner, randomHash } from '../../support/anchors.js';

describe('signature verification in worker threads', () => {
  const pool = signatureVerifyPool(2);
  after(() => pool.close());
  const alice = newSigner();
  const bob = newSigner();

  it('answers each item of a burst as the core does: verified, another key, another message', async () => {
    const items = Array.from({ length: 300 }, (_, i) => {
      const hash = randomHash();
      const signature = (i % 3 === 1 ? bob : alice).sign(hash);
      return {
        message: i % 3 === 2 ? randomHash() : hash,
        signature,
        pubKey: i % 2 ? alice.address : alice.publicKeyHex,
      };
    });
    const outcomes = await Promise.all(items.map((x) => pool.verify(x.message, x.signature, x.pubKey)));
    outcomes.forEach((outcome, i) => {
      const { message, signature, pubKey } = items[i]!;
      const inline = verifySignedMessage(message, signature, pubKey);
      assert.deepEqual(outcome, inline.ok ? { ok: true } : { ok: false, reason: inline.reason }, `item ${i}`);
    });
    assert.equal(outcomes.filter((o) => o.ok).length, 100);
  });

  it('refuses malformed input with the domain errors, without failing the other items of the batch', async () => {
    const hash = randomHash();
    const [bad, badKey, good] = await Promise.allSettled([
      pool.verify(hash, 'not base64!', alice.address),
      pool.verify(hash, alice.sign(hash), '1NotAnAddress'),
      pool.verify(hash, alice.sign(hash), alice.address),
    ]);
    assert.equal(bad.status, 'rejected');
    assert.ok(bad.reason instanceof DomainError);
    assert.equal(bad.reason.code, 'INVALID_SIGNATURE');
    assert.equal(badKey.status, 'rejected');
    assert.equal((badKey.reason as DomainError).code, 'INVALID_PUBKEY');
    assert.deepEqual(good, { status: 'fulfilled', value: { ok: true } });
  });

  it('refuses work once closed', async () => {
    const closed = signatureVerifyPool(1);
    const hash = randomBytes(32).toString('hex');
    assert.deepEqual(await closed.verify(hash, alice.sign(hash), alice.address), { ok: true });
    await closed.close();
    await assert.rejects(closed.verify(hash, alice.sign(hash), alice.address), /closed/);
  });
});
