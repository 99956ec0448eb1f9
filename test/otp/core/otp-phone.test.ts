/**
 * Issue 21 item 8: the OTP limits count on the phone number, not on its spelling. Requests are created over
 * HTTP with the three spellings of one UK mobile number, on both stores; the codes go to the E.164
 * number and share its hourly limit; numbers that cannot receive SMS are refused at creation and at PUT.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listSmsOutbox } from '../../../src/app/sms/list-sms-outbox.js';
import { normaliseE164, normaliseSmsPhone } from '../../../src/core/signature-requests/phone.js';
import { DomainError } from '../../../src/core/errors.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, getRequest, openBench, requestBody, type Bench } from '../../signature-requests/fixture.js';

const kinds = await storeKinds();

/** A UK mobile number (07400 range). The 07700 900123 is Ofcom's drama range: no SMS ever reaches it. */
const E164 = '+447400123456';
const SPELLINGS = [
  { countryCallingCode: '44', phone: '7400123456' },
  { countryCallingCode: '44', phone: '07400123456' },
  { countryCallingCode: '+44', phone: '007400123456' },
];

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    return err.code;
  }
};

describe('normaliseSmsPhone', () => {
  it('gives one E.164 form for every spelling of a number', () => {
    for (const s of SPELLINGS)
      assert.deepEqual(normaliseSmsPhone(s.countryCallingCode, s.phone), {
        e164: E164,
        countryCallingCode: '44',
        nationalNumber: '7400123456',
      });
    assert.equal(normaliseSmsPhone('33', '0612345678').e164, '+33612345678');
    assert.equal(normaliseE164('+44 07400 123456').e164, E164);
    // A leading 0 that belongs to the national number (Côte d'Ivoire) is kept.
    assert.equal(normaliseSmsPhone('225', '0707070707').e164, '+2250707070707');
    // Ranges that may be mobile (North America) receive SMS.
    assert.equal(normaliseSmsPhone('1', '2015550123').e164, '+12015550123');
  });

  it('refuses landlines, unassigned ranges, wrong lengths and calling codes with INVALID_PHONE', () => {
    for (const [cc, phone] of [
      ['33', '123456789'], // a French fixed line
      ['44', '2071234567'], // a London fixed line
      ['44', '7700900123'], // the drama range
      ['33', '61234567'], // too short
      ['33', '6123456789'], // too long
      ['4', '47400123456'], // no such calling code: the digits would make another country's number
      ['0', '612345678'],
      ['33', '06 12 34 56 78 x'],
    ])
      assert.equal(
        codeOf(() => normaliseSmsPhone(cc!, phone!)),
        'INVALID_PHONE',
        `${cc} ${phone}`,
      );
    assert.equal(
      codeOf(() => normaliseE164('+33123456789')),
      'INVALID_PHONE',
    );
  });
});

for (const kind of kinds) {
  describe(`OTP phone numbers on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind);
    });
    after(async () => b?.close());

    const signerWith = (i: number, phone: object) => ({
      commonName: `Signer ${i}`,
      email: `phone${i}@example.com`,
      requiresOTP: true,
      ...phone,
    });
    const askCode = (id: string, signeeId: string) =>
      b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${signeeId}` });

    it("the issue's three spellings are one number: stored in one form, sent to E.164, one hourly limit", async () => {
      const { id, signeeIds } = await createRequest(
        b,
        requestBody({ authorizedSignees: SPELLINGS.map((s, i) => signerWith(i, s)) }),
      );
      const view = await getRequest(b, id);
      for (const s of view.authorizedSignees) {
        assert.equal(s.countryCallingCode, '44');
        assert.equal(s.phone, '7400123456');
      }
      // 4 + 4 + 2 codes: under each signer's limit of 5, and 10 in all for the number.
      const plan = [0, 1, 2, 0, 1, 2, 0, 1, 0, 1];
      for (const who of plan) {
        const res = await askCode(id, signeeIds[who]!);
        assert.equal(res.statusCode, 200, res.body);
        b.clock.advance(61_000);
      }
      const refused = await askCode(id, signeeIds[2]!);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().code, 'OTP_LIMIT_REACHED');
      assert.match(refused.json().message, /per phone number/);
      const sent = (await listSmsOutbox(b.deps, { limit: 100 })).filter(
        (m) => m.to.replace(/\D/g, '') === '447400123456',
      );
      assert.equal(sent.length, 10);
      assert.ok(sent.every((m) => m.to === E164));
    });

    it('refuses at creation and at PUT a number that is invalid or a landline', async () => {
      for (const phone of [
        { countryCallingCode: '33', phone: '123456789' },
        { countryCallingCode: '44', phone: '7700900123' },
        { countryCallingCode: '33', phone: '99999' },
      ]) {
        const res = await b.app.inject({
          method: 'POST',
          url: '/v1/signatureRequest',
          headers: b.auth,
          payload: requestBody({ authorizedSignees: [signerWith(9, phone)] }),
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'INVALID_PHONE');
        assert.match(res.json().message, /authorizedSignees\[0\]\.phone/);
      }
      const draft = await createRequest(b, requestBody({ state: 'DRAFT' }));
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${draft.id}`,
        headers: b.auth,
        payload: requestBody({ authorizedSignees: [signerWith(9, { countryCallingCode: '33', phone: '123456789' })] }),
      });
      assert.equal(put.statusCode, 400, put.body);
      assert.equal(put.json().code, 'INVALID_PHONE');
      const kept = await getRequest(b, draft.id);
      assert.equal(kept.authorizedSignees[0].email, 'signer1@example.com');
    });
  });
}
