/** issueOtp / verifyOtp / consumeOtp on both stores, with a clock the test moves. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { issueOtp } from '../../../src/app/signature-requests/otp/issue-otp.js';
import { consumeOtp, verifyOtp } from '../../../src/app/signature-requests/otp/verify-otp.js';
import { listSmsOutbox } from '../../../src/app/sms/list-sms-outbox.js';
import { DELIVER_SMS } from '../../../src/app/sms/queue-sms.js';
import type { Store } from '../../../src/app/shared/store.port.js';
import { DomainError, RetryLaterError } from '../../../src/core/errors.js';
import { realRandom, recordingJobs, TEST_SECRET_KEY, testClock } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

function rejectsWith(code: string) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    return true;
  };
}

for (const kind of kinds) {
  describe(`OTP on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let store: Store;
    const jobs = recordingJobs();
    const clock = testClock();
    const deps = () => ({ store, clock, random: realRandom, secretKey: TEST_SECRET_KEY });
    let n = 0;
    let signerKey: string;
    let phone: string;

    before(async () => {
      s = await kind.open();
      store = s.withJobs(() => jobs);
    });
    after(() => s.destroy());
    beforeEach(() => {
      n++;
      signerKey = `request-${n}:signer-1`;
      phone = `+3361200${String(n).padStart(4, '0')}`;
      clock.advance(2 * 3_600_000);
    });

    const issue = (over: Partial<{ signerKey: string; phone: string; lang: string }> = {}) =>
      store.transaction((tx) =>
        issueOtp({ ...deps(), store: tx }, { signerKey, phone, serviceName: 'Acme', lang: 'en', ...over }),
      );

    /** The code, read as a newcomer would: from the SMS outbox (`proofseal outbox sms`). */
    async function lastCodeSentTo(to: string): Promise<string> {
      const sms = (await listSmsOutbox(deps(), { limit: 100 })).find((e) => e.to === to);
      const m = /^(\d{6}) /.exec(sms?.body ?? '');
      assert.ok(m, `an SMS with a code to ${to}`);
      return m[1]!;
    }

    it('issues a 10-minute code, stored hashed, and queues its SMS with a delivery job', async () => {
      const { expiresAt } = await issue();
      assert.equal(expiresAt, clock.now() + 600_000);
      const code = await lastCodeSentTo(phone);
      const row = await store.otps.latestFor(signerKey);
      assert.ok(row && !row.codeHash.includes(code));
      const sms = (await store.sms.list({ limit: 100 })).find((r) => r.to === phone)!;
      assert.equal(sms.status, 'QUEUED');
      assert.equal(sms.notAfter, expiresAt);
      assert.ok(sms.bodySealed && !sms.bodySealed.includes(code), 'the SMS text is sealed at rest');
      assert.deepEqual(jobs.sent.at(-1), { name: DELIVER_SMS, data: { smsId: sms.id } });
      assert.deepEqual(await verifyOtp(deps(), { signerKey, otp: code }), { otpId: row.id });
    });

    it('a new code no sooner than 60 s after the last, and it replaces the old one', async () => {
      await issue();
      const first = await lastCodeSentTo(phone);
      clock.advance(59_000);
      await assert.rejects(
        issue(),
        (e) => rejectsWith('OTP_TOO_SOON')(e) && (e as RetryLaterError).retryAfterSeconds === 1,
      );
      clock.advance(1_000);
      await issue();
      const second = await lastCodeSentTo(phone);
      if (first !== second)
        await assert.rejects(verifyOtp(deps(), { signerKey, otp: first }), rejectsWith('OTP_INVALID'));
      assert.ok(await verifyOtp(deps(), { signerKey, otp: second }));
    });

    it('at most 5 codes per signer in any hour', async () => {
      for (let i = 0; i < 5; i++) {
        await issue();
        clock.advance(60_000);
      }
      await assert.rejects(issue(), rejectsWith('OTP_LIMIT_REACHED'));
      clock.advance(3_600_000 - 5 * 60_000 + 1);
      await issue();
    });

    it('at most 10 codes per phone number in any hour, across signers', async () => {
      for (let i = 0; i < 10; i++) await issue({ signerKey: `${signerKey}-${i}` });
      await assert.rejects(issue({ signerKey: `${signerKey}-x` }), rejectsWith('OTP_LIMIT_REACHED'));
      await issue({ signerKey: `${signerKey}-x`, phone: phone.replace('+33612', '+33622') });
    });

    it('counts the limit on the E.164 form, whatever the spelling given', async () => {
      const national = phone.slice(3);
      for (let i = 0; i < 10; i++)
        await issue({ signerKey: `${signerKey}-${i}`, phone: i % 2 === 0 ? phone : `+33 0${national}` });
      await assert.rejects(
        issue({ signerKey: `${signerKey}-x`, phone: `+330${national}` }),
        rejectsWith('OTP_LIMIT_REACHED'),
      );
      const sent = (await store.sms.list({ limit: 1000 })).filter((r) => r.to.endsWith(national));
      assert.equal(sent.length, 10);
      assert.ok(sent.every((r) => r.to === phone));
    });

    it('refuses a phone number that is not E.164 or cannot receive SMS, writing nothing', async () => {
      await assert.rejects(issue({ phone: '06 12 34 56 78' }), rejectsWith('INVALID_PHONE'));
      await assert.rejects(issue({ phone: '+33123456789' }), rejectsWith('INVALID_PHONE'));
      assert.equal(await store.otps.latestFor(signerKey), undefined);
    });

    it('a rolled-back transaction leaves no code and no SMS', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await issueOtp({ ...deps(), store: tx }, { signerKey, phone, serviceName: 'Acme', lang: 'fr' });
          throw new Error('the caller failed after issuing');
        }),
        /caller failed/,
      );
      assert.equal(await store.otps.latestFor(signerKey), undefined);
      assert.ok(!(await store.sms.list({ limit: 1000 })).some((r) => r.to === phone));
      await issue(); // and no 60-s wait was started by the rolled-back one
    });

    it('OTP_REQUIRED without a code; OTP_INVALID when none was sent', async () => {
      await assert.rejects(verifyOtp(deps(), { signerKey, otp: undefined }), rejectsWith('OTP_REQUIRED'));
      await assert.rejects(verifyOtp(deps(), { signerKey, otp: ' ' }), rejectsWith('OTP_REQUIRED'));
      await assert.rejects(verifyOtp(deps(), { signerKey, otp: '123456' }), rejectsWith('OTP_INVALID'));
    });

    it('5 wrong tries, then even the right code needs a new one', async () => {
      await issue();
      const code = await lastCodeSentTo(phone);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 4; i >= 0; i--)
        await assert.rejects(verifyOtp(deps(), { signerKey, otp: wrong }), (e) => {
          rejectsWith('OTP_INVALID')(e);
          return (e as Error).message.includes(`${i} tr`);
        });
      await assert.rejects(verifyOtp(deps(), { signerKey, otp: code }), rejectsWith('OTP_TOO_MANY_TRIES'));
      clock.advance(60_000);
      await issue();
      assert.ok(await verifyOtp(deps(), { signerKey, otp: await lastCodeSentTo(phone) }));
    });

    it('a right code does not use up a try; 25 parallel wrong guesses count as 5 at most', async () => {
      await issue();
      const code = await lastCodeSentTo(phone);
      for (let i = 0; i < 8; i++) await verifyOtp(deps(), { signerKey, otp: code });
      const guesses = Array.from({ length: 25 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      const results = await Promise.allSettled(guesses.map((otp) => verifyOtp(deps(), { signerKey, otp })));
      const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as DomainError).code : 'OK'));
      assert.equal(codes.filter((c) => c === 'OTP_INVALID').length, 5, codes.join(','));
      assert.equal(codes.filter((c) => c === 'OTP_TOO_MANY_TRIES').length, 20);
      assert.equal((await store.otps.latestFor(signerKey))?.wrongTries, 5);
    });

    it('a code expires after 10 minutes', async () => {
      await issue();
      const code = await lastCodeSentTo(phone);
      clock.advance(600_000 - 1);
      assert.ok(await verifyOtp(deps(), { signerKey, otp: code }));
      clock.advance(1);
      await assert.rejects(verifyOtp(deps(), { signerKey, otp: code }), rejectsWith('OTP_EXPIRED'));
    });

    it('consumeOtp: one use only, and only when the transaction commits', async () => {
      await issue();
      const code = await lastCodeSentTo(phone);
      const { otpId } = await verifyOtp(deps(), { signerKey, otp: code });
      await assert.rejects(
        store.transaction(async (tx) => {
          await consumeOtp(tx, otpId);
          throw new Error('signing failed');
        }),
        /signing failed/,
      );
      await store.transaction((tx) => consumeOtp(tx, otpId));
      await assert.rejects(
        store.transaction((tx) => consumeOtp(tx, otpId)),
        rejectsWith('OTP_INVALID'),
      );
      await assert.rejects(verifyOtp(deps(), { signerKey, otp: code }), rejectsWith('OTP_INVALID'));
    });

    it('two issues at once for one signer: one code, one OTP_TOO_SOON', async () => {
      const results = await Promise.allSettled([issue(), issue()]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      rejectsWith('OTP_TOO_SOON')(rejected.reason);
    });

    it('the SMS text follows the language', async () => {
      await issue({ lang: 'fr' });
      const sms = (await listSmsOutbox(deps(), { limit: 100 })).find((e) => e.to === phone);
      assert.match(sms?.body ?? '', /^\d{6} est votre code de signature Acme\./);
    });
  });
}
