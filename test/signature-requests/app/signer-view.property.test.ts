/** Property: a signer's view never shows another signer's secret (signeeId) or phone, whatever the request. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { newSigners, signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { ownerView, signerViewOf } from '../../../src/app/signature-requests/signature-request-view.js';
import type { SignatureRequest, Signer } from '../../../src/app/signature-requests/signature-request.port.js';
import { realRandom, TEST_SECRET_KEY } from '../../support/fixtures.js';

const deps = { random: realRandom, secretKey: TEST_SECRET_KEY };

const signerInput = fc.record({
  commonName: fc.string({ minLength: 1, maxLength: 20 }),
  email: fc.option(fc.emailAddress(), { nil: undefined }),
  phone: fc.option(fc.stringMatching(/^[0-9]{6,12}$/), { nil: undefined }),
  countryCallingCode: fc.constant('33'),
  requiresOTP: fc.boolean(),
});

const request = fc.record({
  inputs: fc.array(signerInput, { minLength: 1, maxLength: 8 }),
  signed: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  vars: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { nil: null }),
});

function build(r: {
  inputs: Parameters<typeof newSigners>[2];
  signed: boolean[];
  vars: Record<string, string> | null;
}): SignatureRequest {
  const id = realRandom.uuid();
  const signers: Signer[] = newSigners(deps, id, r.inputs).map(({ secretHash: _unused, ...s }, i) => ({
    ...s,
    viewedOn: null,
    signedOn: r.signed[i] ? 1 : null,
    anchorId: r.signed[i] ? realRandom.uuid() : null,
    method: r.signed[i] ? 'delegated' : null,
    declinedOn: null,
    declineReason: null,
    remindedOn: null,
  }));
  return {
    id,
    accountId: realRandom.uuid(),
    name: 'Contract',
    hashToSign: '11'.repeat(32),
    state: 'IN_PROGRESS',
    fileName: null,
    fileUrl: null,
    deadline: null,
    activation: null,
    lang: null,
    ordered: false,
    public: true,
    callbackUrl: 'https://hooks.example.com/x',
    identityUrl: null,
    vars: r.vars,
    auditTrailAnchorId: null,
    proofBundleComplete: false,
    created: 0,
    lastModified: 0,
    signers: signers,
    watchers: [{ email: 'watcher@example.com' }],
  };
}

describe('signer view (property)', () => {
  it('shows the signer first with its own signeeId, and never another signer secret, phone or the watchers', () => {
    fc.assert(
      fc.property(request, fc.nat(), (r, pick) => {
        const req = build(r);
        const me = req.signers[pick % req.signers.length]!;
        const view = signerViewOf(deps, req, me);
        const json = JSON.stringify(view);
        assert.equal(view.authorizedSignees[0]!.signeeId, signerSecretOf(deps, me));
        assert.equal(view.authorizedSignees.filter((s) => s.signeeId !== undefined).length, 1);
        for (const other of req.signers.filter((s) => s.id !== me.id)) {
          assert.ok(!json.includes(signerSecretOf(deps, other)));
          if (other.phone !== null && other.phone !== me.phone) assert.ok(!json.includes(`"${other.phone}"`));
        }
        assert.equal(view.watchers, undefined);
        assert.equal(view.callbackURL, undefined);
        assert.ok(!JSON.stringify(ownerView(req)).includes('signeeId'));
      }),
      { numRuns: 200 },
    );
  });
});
