/**
 * Issue 33 §3: the requester is named, never by an empty string nor by an internal address. The rule itself
 * (src/core/signature-requests/requester.ts), then the default run's unnamed account over HTTP and a real SMTP
 * server: before `proofseal account update` its invitations, the signer's view and the sharing view name the
 * service; after it, the name given.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LOCAL_LOGIN } from '../../../src/app/accounts/bootstrap-default-run.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { UsageError } from '../../../src/cli/args.js';
import { accountCommand } from '../../../src/cli/operator-commands.js';
import { DomainError } from '../../../src/core/errors.js';
import {
  isInternalAddress,
  requesterEmail,
  requesterName,
  type RequesterSource,
} from '../../../src/core/signature-requests/requester.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { randomHash } from '../../support/anchors.js';
import { TEST_SECRET_KEY } from '../../support/fixtures.js';
import type { TestSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';
import { deliverQueued, mailBenchPerSuite } from '../../support/workflow-mail.js';
import type { Bench } from '../fixture.js';

const source = (over: Partial<RequesterSource> = {}): RequesterSource => ({
  varName: null,
  varEmail: null,
  account: { firstName: '', lastName: '', email: 'owner@example.com' },
  serviceName: 'Acme Sign',
  ...over,
});

describe('the requester rule', () => {
  it('internal addresses: the localhost domain and those under it only', () => {
    for (const a of [LOCAL_LOGIN, 'a@localhost', 'A@X.LOCALHOST']) assert.equal(isInternalAddress(a), true, a);
    for (const a of ['a@example.com', 'a@localhost.example.com', 'localhost@example.org', 'a@mylocalhost'])
      assert.equal(isInternalAddress(a), false, a);
  });

  it('the var, else the full name, else a real address, else the service', () => {
    assert.equal(requesterName(source({ varName: 'Acme Legal' })), 'Acme Legal');
    const named = { firstName: 'Ada', lastName: 'Lovelace', email: LOCAL_LOGIN };
    assert.equal(requesterName(source({ account: named })), 'Ada Lovelace');
    assert.equal(requesterName(source()), 'owner@example.com');
    const local = { firstName: ' ', lastName: '', email: LOCAL_LOGIN };
    assert.equal(requesterName(source({ account: local })), 'Acme Sign');
    assert.equal(requesterEmail(source({ account: local })), null, 'an internal address is no contact');
    assert.equal(requesterName(source({ account: local, varEmail: 'legal@acme.example' })), 'legal@acme.example');
    assert.equal(requesterName(source({ account: null })), 'Acme Sign');
  });

  it('never empty, never an internal address, whatever the names', () => {
    const blankish = fc.constantFrom('', ' ', '  ', 'Ada');
    fc.assert(
      fc.property(blankish, blankish, fc.constantFrom(LOCAL_LOGIN, 'x@y.localhost', 'o@example.com'), (f, l, email) => {
        const name = requesterName(source({ account: { firstName: f, lastName: l, email } }));
        assert.notEqual(name.trim(), '');
        assert.ok(!isInternalAddress(name) || !name.includes('@'), name);
      }),
    );
  });
});

const embedded = (await storeKinds()).filter((k) => k.name === 'embedded');

for (const kind of embedded) {
  describe(`the default run's account, named with proofseal account update, on ${kind.name}`, () => {
    let b: Bench;
    let smtp: TestSmtp;
    mailBenchPerSuite(kind, (opened) => ({ b, smtp } = opened));

    /** A request of the local account to one signer: its invitation, the signer's view and the sharing view. */
    async function asSeen(auth: { authorization: string }) {
      const res = await b.app.inject({
        method: 'POST',
        url: '/v1/signatureRequest',
        headers: auth,
        payload: {
          name: 'Lease',
          hashToSign: randomHash(),
          authorizedSignees: [{ commonName: 'Bob', email: 'bob@example.net' }],
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().id as string;
      const stored = (await b.deps.store.signatureRequests.findById(id))!;
      const signeeId = signerSecretOf(b.deps, stored.signers[0]!);
      const signer = (await b.app.inject({ url: `/v1/signatureRequest/${id}?signeeId=${signeeId}` })).json();
      const shared = (
        await b.app.inject({ url: `/v1/signatureRequest/${id}/shared/${deriveSharingToken(TEST_SECRET_KEY, id)}` })
      ).json();
      const mails = await deliverQueued(b, smtp);
      const invitation = mails.find((m) => m.type === 'signatureRequestSigneeEmail' && m.mail.text?.includes(id));
      assert.ok(invitation, 'the invitation was sent');
      return { signer: signer.requester, shared: shared.requester, invitation: invitation.mail };
    }

    it('unnamed: the service; named: the name given; the internal address is never shown', async () => {
      const account = await createAccount(b.deps, { email: LOCAL_LOGIN, password: 'correct horse battery' });
      const { token } = await createApiToken(b.deps, { accountId: account.id });
      const auth = { authorization: `Bearer ${token}` };

      const before = await asSeen(auth);
      assert.deepEqual(before.signer, { name: 'proofseal' });
      assert.deepEqual(before.shared, { name: 'proofseal' });
      assert.equal(before.invitation.subject, 'proofseal invites you to sign "Lease"');
      assert.ok(!before.invitation.text?.includes(LOCAL_LOGIN), 'the mail names no internal address');

      const lines: string[] = [];
      await accountCommand(b.deps, ['update', '--first-name', 'Ada', '--last-name', 'Lovelace'], (l) => lines.push(l));
      assert.deepEqual(lines, [`account ${LOCAL_LOGIN} is now named "Ada Lovelace"`]);

      const after = await asSeen(auth);
      assert.deepEqual(after.signer, { name: 'Ada Lovelace' });
      assert.deepEqual(after.shared, { name: 'Ada Lovelace' });
      assert.equal(after.invitation.subject, 'Ada Lovelace invites you to sign "Lease"');
      assert.match(after.invitation.text ?? '', /Ada Lovelace asks you to sign the document "Lease"\./);
    });

    it('account update refuses no name, a blank one and an unknown account', async () => {
      const run = (args: string[]) => accountCommand(b.deps, ['update', ...args], () => undefined);
      await assert.rejects(run([]), UsageError);
      await assert.rejects(run(['--first-name', ' ', '--last-name', '']), UsageError);
      await assert.rejects(
        run(['--email', 'nobody@example.com', '--first-name', 'N']),
        (err: unknown) => err instanceof DomainError && err.code === 'NOT_FOUND',
      );
    });
  });
}
