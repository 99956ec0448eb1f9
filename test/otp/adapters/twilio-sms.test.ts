// tier: slow (over 10 s of tests)
/**
 * SMS through Twilio's Messages API, over real HTTP to a local stand-in that speaks it (Basic auth,
 * form fields, Twilio's answers, 500s on demand), on both stores: a code issued in a transaction is
 * delivered by the job engine with retries, read from what the stand-in received, and verified.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createJobEngine, type JobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { parseSmsUrl, twilioSms } from '../../../src/adapters/sms/twilio-sms.js';
import { issueOtp } from '../../../src/app/signature-requests/otp/issue-otp.js';
import { verifyOtp } from '../../../src/app/signature-requests/otp/verify-otp.js';
import { deliverSms } from '../../../src/app/sms/deliver-sms.js';
import { queueSms } from '../../../src/app/sms/queue-sms.js';
import type { SmsProvider } from '../../../src/app/sms/sms.port.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import type { Store } from '../../../src/app/shared/store.port.js';
import { deliverSmsJob } from '../../../src/jobs/sms/deliver-sms.job.js';
import { realRandom, recordingJobs, silentLog, TEST_SECRET_KEY, testClock } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'auth-token-0123456789';

interface Received {
  readonly path: string;
  readonly form: URLSearchParams;
  readonly status: number;
}

/** A stand-in for api.twilio.com: checks what Twilio checks and answers as Twilio does. */
async function twilioStandIn() {
  const received: Received[] = [];
  const state = { failNext: 0, failWith: 500 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      const [status, body] = answer(req, form);
      received.push({ path: req.url ?? '', form, status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  function answer(req: http.IncomingMessage, form: URLSearchParams): [number, object] {
    const basic = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
    if (req.headers.authorization !== basic) return [401, { code: 20003, message: 'Authenticate', status: 401 }];
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`)
      return [404, { code: 20404, message: 'The requested resource was not found', status: 404 }];
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return [400, { code: 21601, message: 'unexpected content type', status: 400 }];
    if (!/^\+[1-9]\d{6,14}$/.test(form.get('To') ?? ''))
      return [
        400,
        { code: 21211, message: `The 'To' number ${form.get('To')} is not a valid phone number.`, status: 400 },
      ];
    if (!form.get('From') || !form.get('Body'))
      return [400, { code: 21602, message: 'Message body and From are required', status: 400 }];
    if (state.failNext > 0) {
      state.failNext--;
      return [state.failWith, { code: 20500, message: 'Internal Server Error', status: state.failWith }];
    }
    const sid = `SM${String(received.length).padStart(32, '0')}`;
    const f = (k: string) => form.get(k);
    return [201, { sid, account_sid: SID, to: f('To'), from: f('From'), body: f('Body'), status: 'queued' }];
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { received, state, url: `http://${SID}:${TOKEN}@127.0.0.1:${port}?from=+15005550006`, server };
}

describe('SMS_URL', () => {
  it('gives the account, the token, the sender number (+ unencoded or %2B) and the alphanumeric choice', () => {
    const s = parseSmsUrl(`https://${SID}:${TOKEN}@api.twilio.com?from=+15005550006`);
    assert.deepEqual(s, {
      baseUrl: 'https://api.twilio.com',
      accountSid: SID,
      authToken: TOKEN,
      from: '+15005550006',
      alphanumericSender: false,
    });
    const t = parseSmsUrl(`http://${SID}:${TOKEN}@127.0.0.1:8080/twilio/?from=%2B33612345678&alphanumeric=true`);
    assert.equal(t.baseUrl, 'http://127.0.0.1:8080/twilio');
    assert.equal(t.from, '+33612345678');
    assert.equal(t.alphanumericSender, true);
    assert.throws(() => parseSmsUrl(`https://${SID}@api.twilio.com?from=+15005550006`), /auth token/);
    assert.throws(() => parseSmsUrl(`https://${SID}:${TOKEN}@api.twilio.com`), /from=/);
  });
});

for (const kind of kinds) {
  describe(`SMS through Twilio on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let twilio: Awaited<ReturnType<typeof twilioStandIn>>;
    let provider: SmsProvider;
    const clock = testClock(Date.now());
    const plain = () => s.withJobs(() => recordingJobs());
    const depsOn = (store: Store, sms?: SmsProvider) => ({
      store,
      clock,
      random: realRandom,
      secretKey: TEST_SECRET_KEY,
      sms,
    });

    before(async () => {
      s = await kind.open();
      twilio = await twilioStandIn();
      provider = twilioSms(parseSmsUrl(twilio.url));
    });
    after(async () => {
      twilio.server.close();
      await s.destroy();
    });

    async function queued(to = '+33612345678', notAfter?: number): Promise<string> {
      const body = '123456 is your Acme signing code.';
      return (await queueSms(depsOn(plain()), { to, senderName: 'Acme', body, purpose: 'otp', notAfter })).smsId;
    }

    it('a code issued in a transaction is delivered by the job engine, retried after 500s, and verifies', async () => {
      const engine: JobEngine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      await engine.start();
      try {
        const store = s.withJobs(engine.sendOn);
        const deps = { ...depsOn(store, provider), jobs: engine } as AppDeps;
        const def = deliverSmsJob(deps, { retryDelaySeconds: 1 });
        await engine.declare([def]);
        await engine.work([def]);
        twilio.state.failNext = 2;
        const before = twilio.received.length;
        const signerKey = `req-${realRandom.uuid()}:0`;
        await store.transaction((tx) =>
          issueOtp({ ...deps, store: tx }, { signerKey, phone: '+33612345678', serviceName: 'Acme', lang: 'en' }),
        );
        const end = Date.now() + 30_000;
        while (!twilio.received.slice(before).some((r) => r.status === 201) && Date.now() < end)
          await new Promise((r) => setTimeout(r, 100));
        const mine = twilio.received.slice(before);
        assert.deepEqual(
          mine.map((r) => r.status),
          [500, 500, 201],
        );
        const form = mine[2]!.form;
        assert.equal(form.get('To'), '+33612345678');
        assert.equal(form.get('From'), '+15005550006', 'the number: this account has no alphanumeric sender');
        const code = /^(\d{6}) is your Acme signing code\./.exec(form.get('Body') ?? '')?.[1];
        assert.ok(code, form.get('Body') ?? '');
        assert.ok(await verifyOtp(deps, { signerKey, otp: code }));
        const row = (await store.sms.list({ limit: 10 })).find((r) => r.to === '+33612345678' && r.status === 'SENT');
        assert.ok(row, 'the outbox row is SENT');
        assert.equal(row.attempts, 3);
        assert.equal(row.providerId, `SM${String(before + 2).padStart(32, '0')}`);
        assert.equal(row.bodySealed, null, 'the text (and its code) is erased once delivered');
      } finally {
        await engine.stop();
      }
    });

    it('never sends twice: a second run of a delivered SMS does nothing', async () => {
      const id = await queued();
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: id, maxAttempts: 3 }), 'sent');
      const count = twilio.received.length;
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: id, maxAttempts: 3 }), 'skipped');
      assert.equal(twilio.received.length, count);
    });

    it('a refusal (4xx) is final; a 500 on the last allowed attempt too', async () => {
      const bad = await queued('+1');
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: bad, maxAttempts: 3 }), 'failed');
      const row = await plain().sms.findById(bad);
      assert.equal(row?.status, 'FAILED');
      assert.match(row?.lastError ?? '', /HTTP 400: 21211/);
      twilio.state.failNext = 1;
      const last = await queued();
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: last, maxAttempts: 1 }), 'failed');
    });

    it('a 500 with tries left puts the SMS back in the queue and asks the engine to retry', async () => {
      twilio.state.failNext = 1;
      const id = await queued();
      await assert.rejects(
        deliverSms(depsOn(plain(), provider), { smsId: id, maxAttempts: 3 }),
        /DELIVERY_FAILED|not taken/,
      );
      assert.equal((await plain().sms.findById(id))?.status, 'QUEUED');
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: id, maxAttempts: 3 }), 'sent');
    });

    it('a wrong auth token is refused by the provider (401) and not retried', async () => {
      const wrong = twilioSms({ ...parseSmsUrl(twilio.url), authToken: 'wrong' });
      const id = await queued();
      assert.equal(await deliverSms(depsOn(plain(), wrong), { smsId: id, maxAttempts: 3 }), 'failed');
      assert.match((await plain().sms.findById(id))?.lastError ?? '', /HTTP 401: 20003/);
    });

    it('a provider that cannot be reached is retried (nothing can have been sent)', async () => {
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      const down = twilioSms({ ...parseSmsUrl(twilio.url), baseUrl: `http://127.0.0.1:${port}` });
      const id = await queued();
      await assert.rejects(deliverSms(depsOn(plain(), down), { smsId: id, maxAttempts: 3 }), /ECONNREFUSED/);
      assert.equal((await plain().sms.findById(id))?.status, 'QUEUED');
    });

    it('the service name is the sender where the account allows alphanumeric senders', async () => {
      const alpha = twilioSms(parseSmsUrl(`${twilio.url}&alphanumeric=true`));
      const id = await queued('+33612345679');
      assert.equal(await deliverSms(depsOn(plain(), alpha), { smsId: id, maxAttempts: 3 }), 'sent');
      assert.equal(twilio.received.at(-1)?.form.get('From'), 'Acme');
      assert.equal((await plain().sms.findById(id))?.sender, 'Acme');
    });

    it('without SMS_URL the SMS is kept with its text; a row left SENDING is failed, not resent; a stale one dropped', async () => {
      const kept = await queued();
      assert.equal(await deliverSms(depsOn(plain()), { smsId: kept, maxAttempts: 3 }), 'kept');
      const row = await plain().sms.findById(kept);
      assert.equal(row?.status, 'KEPT');
      assert.ok(row?.bodySealed);
      const inFlight = await queued();
      await plain().sms.claim(inFlight);
      const count = twilio.received.length;
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: inFlight, maxAttempts: 3 }), 'failed');
      assert.equal(twilio.received.length, count);
      const stale = await queued('+33612345678', clock.now());
      assert.equal(await deliverSms(depsOn(plain(), provider), { smsId: stale, maxAttempts: 3 }), 'dropped');
      assert.equal(twilio.received.length, count);
    });
  });
}
