/** SMS_URL in the configuration, and the operator's `proofseal outbox sms`. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../../src/adapters/store/create-store.js';
import { issueOtp } from '../../../src/app/signature-requests/otp/issue-otp.js';
import { UsageError } from '../../../src/cli/args.js';
import { outboxCommand } from '../../../src/cli/outbox-command.js';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { realRandom, recordingJobs, TEST_SECRET_KEY, testClock } from '../../support/fixtures.js';

describe('SMS_URL setting', () => {
  it('is unset by default (SMS kept in the store)', () => {
    assert.equal(loadConfig({}).smsUrl, undefined);
  });

  it('takes an account, a token and a sender number; a loopback stand-in is allowed', () => {
    const url = 'http://AC1:tok@127.0.0.1:9999?from=+15005550006';
    assert.equal(loadConfig({ SMS_URL: url }).smsUrl, url);
  });

  it('refuses an incomplete one without printing the token', () => {
    for (const bad of ['https://AC1:s3cr3t@api.twilio.com', 'https://AC1@api.twilio.com?from=+15005550006']) {
      assert.throws(
        () => loadConfig({ SMS_URL: bad }),
        (e) => e instanceof ConfigError && /SMS_URL/.test(e.message) && !e.message.includes('s3cr3t'),
      );
    }
    assert.throws(
      () => loadConfig({ SMS_URL: 'ftp://AC1:s3cr3t@x?from=+15005550006' }),
      (e) => e instanceof ConfigError && !e.message.includes('s3cr3t'),
    );
  });
});

describe('proofseal outbox sms', () => {
  it('lists the SMS, newest first, with the code readable while kept', async () => {
    const opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    try {
      const store = opened.withJobs(() => recordingJobs());
      const deps = { store, clock: testClock(), random: realRandom, secretKey: TEST_SECRET_KEY };
      const lines: string[] = [];
      await outboxCommand(deps, ['sms'], (l) => lines.push(l));
      assert.deepEqual(lines, ['no SMS in the outbox']);
      await store.transaction((tx) =>
        issueOtp({ ...deps, store: tx }, { signerKey: 'r:1', phone: '+33612345678', serviceName: 'Acme', lang: 'en' }),
      );
      await outboxCommand(deps, ['sms'], (l) => lines.push(l));
      assert.match(lines[1]!, /QUEUED  to \+33612345678 {2}\d{6} is your Acme signing code\./);
      const json: string[] = [];
      await outboxCommand(deps, ['sms', '--json', '--limit', '5'], (l) => json.push(l));
      const [entry] = JSON.parse(json[0]!) as { to: string; status: string; body: string }[];
      assert.equal(entry?.to, '+33612345678');
      assert.match(entry?.body ?? '', /^\d{6} /);
      await assert.rejects(
        outboxCommand(deps, ['fax'], () => undefined),
        UsageError,
      );
      await assert.rejects(
        outboxCommand(deps, ['sms', '--limit', '0'], () => undefined),
        UsageError,
      );
    } finally {
      await opened.close();
    }
  });
});
