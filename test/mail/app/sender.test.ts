// tier: slow (measured: 11.2 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * A requester cannot send as someone else: a `serviceEmail` var outside the operator's domains is refused
 * at creation and PUT (400 FORBIDDEN_SENDER), and a `serviceName` var is shown as given only beside an
 * address of a listed domain, else as "<name> via <SERVICE_NAME>" (mails parsed from a real SMTP server).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { senderOf } from '../../../src/app/mail/sender.js';
import { ConfigError } from '../../../src/config.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { startSmtp } from '../../support/smtp.js';
import { deliverQueued, MAIL } from '../../support/workflow-mail.js';
import { createRequest, requestBody, signer, type Bench } from '../../signature-requests/fixture.js';

const kinds = await storeKinds();
const SETTINGS = { ...MAIL, senderDomains: ['acme.example'] };

describe('the sender of a mail', () => {
  it('MAIL_SENDER_DOMAINS is a comma list of domains, none by default', () => {
    assert.deepEqual(testConfig().mailSenderDomains, []);
    assert.deepEqual(testConfig({ MAIL_SENDER_DOMAINS: ' Acme.example, mail.acme.example ,' }).mailSenderDomains, [
      'acme.example',
      'mail.acme.example',
    ]);
    assert.throws(() => testConfig({ MAIL_SENDER_DOMAINS: 'acme.example,evil@x' }), ConfigError);
  });

  it('keeps a listed domain and its name, and marks a name beside the service’s own address', () => {
    const own = { serviceName: 'proofseal', serviceEmail: 'no-reply@sign.example.com' };
    assert.deepEqual(senderOf(own, { name: 'PayPal Security', address: 'security@paypal.com' }), {
      name: 'PayPal Security via proofseal',
      address: 'no-reply@sign.example.com',
    });
    assert.deepEqual(senderOf(own, { name: 'PayPal', address: 'security@sign.example.com' }), {
      name: 'PayPal via proofseal',
      address: 'security@sign.example.com',
    });
    assert.deepEqual(senderOf(SETTINGS, { name: 'Acme Legal', address: 'legal@ACME.example' }), {
      name: 'Acme Legal',
      address: 'legal@ACME.example',
    });
    assert.deepEqual(senderOf(SETTINGS, { name: 'proofseal', address: 'no-reply@sign.example.com' }), {
      name: 'proofseal',
      address: 'no-reply@sign.example.com',
    });
    const hidden = senderOf(own, { name: 'Bank\u202e\r\nBcc: x@evil.example', address: 1 });
    assert.equal(hidden.name, 'Bank Bcc: x@evil.example via proofseal');
    assert.equal(senderOf(own, { name: '😀'.repeat(80), address: '' }).name, `${'😀'.repeat(50)} via proofseal`);
  });
});

for (const kind of kinds) {
  describe(`sender overrides on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    benchPerSuite(kind, (opened) => (b = opened), { mail: SETTINGS });
    const create = (body: Record<string, unknown>) =>
      b.app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: b.auth, payload: body });

    it('refuses a serviceEmail outside the allowed domains, in request, signer and watcher vars, at creation and PUT', async () => {
      const spoof = { serviceName: 'PayPal Security', serviceEmail: 'security@paypal.com' };
      for (const body of [
        requestBody({ vars: spoof }),
        requestBody({ authorizedSignees: [{ ...signer(1), vars: { serviceEmail: 'a@sub.acme.example' } }] }),
        requestBody({ watchers: [{ email: 'w@example.com', vars: { serviceEmail: 'x@paypal.com' } }] }),
      ]) {
        const res = await create(body);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'FORBIDDEN_SENDER');
      }
      const draft = await create(requestBody({ state: 'DRAFT' }));
      assert.equal(draft.statusCode, 200, draft.body);
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${draft.json().id}`,
        headers: b.auth,
        payload: requestBody({ vars: spoof }),
      });
      assert.equal(put.statusCode, 400, put.body);
      assert.equal(put.json().code, 'FORBIDDEN_SENDER');
    });

    it('sends from an allowed address with its name, and marks a name beside the service address', async () => {
      const smtp = await startSmtp();
      try {
        await deliverQueued(b, smtp);
        smtp.received.length = 0;
        await createRequest(
          b,
          requestBody({
            authorizedSignees: [signer(1)],
            vars: { serviceName: 'Acme Legal', serviceEmail: 'legal@acme.example' },
          }),
        );
        await createRequest(
          b,
          requestBody({ authorizedSignees: [signer(2)], vars: { serviceName: 'PayPal Security' } }),
        );
        const mails = await deliverQueued(b, smtp);
        const from = (to: string) => mails.find((m) => m.to === to)?.mail.from?.value;
        assert.deepEqual(from('signer1@example.com'), [{ name: 'Acme Legal', address: 'legal@acme.example' }]);
        assert.deepEqual(from('signer2@example.com'), [
          { name: 'PayPal Security via proofseal', address: 'no-reply@sign.example.com' },
        ]);
      } finally {
        await smtp.stop();
      }
    });
  });
}
