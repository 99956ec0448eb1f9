import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, loadTestHooks, settingNames } from '../../../src/config.js';

describe('config', () => {
  it('defaults give the embedded run', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.identityPort, 3001);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.bitcoinRpcUrl, undefined);
    assert.equal(c.bitcoinNetwork, 'regtest');
    assert.equal(c.publicUrl, 'http://localhost:3000');
    assert.ok(c.batchIntervalSeconds <= 10);
    assert.equal(c.confirmationsRequired, 6);
    assert.equal(c.batchMaxSize, 100_000, 'the embedded store keeps batches small');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x' }).batchMaxSize, 1_000_000);
    assert.ok(Object.isFrozen(c));
  });

  it('mainnet batches every 3 hours and needs a node', () => {
    assert.throws(() => loadConfig({ BITCOIN_NETWORK: 'mainnet' }), /BITCOIN_RPC_URL is required/);
    const c = loadConfig({ BITCOIN_NETWORK: 'mainnet', BITCOIN_RPC_URL: 'http://u:p@127.0.0.1:8332' });
    assert.equal(c.batchIntervalSeconds, 10800);
  });

  it('the object store, static receipts and the receipt redirect: each needs the one before, no secret printed', () => {
    const store = 'https://AK:s%2Fecret@s3.eu-west-3.amazonaws.com/bucket-1?region=eu-west-3&style=virtual';
    const c = loadConfig({
      OBJECT_STORE_URL: store,
      STATIC_RECEIPTS_URL: 'https://cdn.example/r',
      RECEIPT_REDIRECT: 'true',
    });
    assert.equal(c.objectStoreUrl, store);
    assert.equal(c.staticReceiptsUrl, 'https://cdn.example/r/');
    assert.equal(c.receiptRedirect, true);
    assert.equal(loadConfig({}).receiptRedirect, false);
    assert.throws(() => loadConfig({ STATIC_RECEIPTS_URL: 'https://cdn.example/r/' }), /needs OBJECT_STORE_URL/);
    assert.throws(() => loadConfig({ OBJECT_STORE_URL: store, RECEIPT_REDIRECT: 'true' }), /needs STATIC_RECEIPTS_URL/);
    for (const bad of [
      'https://s3.example/bucket-1',
      'https://AK:hunter2@s3.example/',
      'https://AK:hunter2@s3.example/B',
    ])
      assert.throws(
        () => loadConfig({ OBJECT_STORE_URL: bad }),
        (e: Error) => /OBJECT_STORE_URL must be/.test(e.message) && !e.message.includes('hunter2'),
      );
  });

  it('DATABASE_REPLICA_URLS: a comma list of postgres URLs beside DATABASE_URL, passwords never printed', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:p@primary/x',
      DATABASE_REPLICA_URLS: 'postgres://u:p@r1/x, postgresql://u:p@r2:5433/x',
      DATABASE_REPLICA_MAX_LAG_SECONDS: '5',
    });
    assert.deepEqual(c.databaseReplicaUrls, ['postgres://u:p@r1/x', 'postgresql://u:p@r2:5433/x']);
    assert.equal(c.databaseReplicaMaxLagSeconds, 5);
    assert.equal(c.databasePreparedStatements, true);
    assert.deepEqual(loadConfig({}).databaseReplicaUrls, []);
    assert.equal(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements, false);
    assert.throws(
      () => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://u:p@r1/x' }),
      /DATABASE_REPLICA_URLS needs DATABASE_URL/,
    );
    assert.throws(
      () =>
        loadConfig({
          DATABASE_URL: 'postgres://p/x',
          DATABASE_REPLICA_URLS: 'postgres://a:s3cret1@r1/x,mysql://b:s3cret2@r2/x',
        }),
      (err: Error) =>
        /DATABASE_REPLICA_URLS must be a comma list of postgres/.test(err.message) &&
        !err.message.includes('s3cret1') &&
        !err.message.includes('s3cret2'),
    );
  });

  it('lists every problem at once, without printing secrets', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        BITCOIN_NETWORK: 'moon',
        DATABASE_URL: 'mysql://root:hunter2@db/x',
        SECRET_KEY: 'short',
        TRUST_PROXY: 'maybe',
      });
      assert.fail('should throw');
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      assert.equal(err.problems.length, 5, err.message);
      assert.match(err.message, /PORT must be an integer/);
      assert.match(err.message, /BITCOIN_NETWORK must be one of/);
      assert.match(err.message, /DATABASE_URL must be a postgres: or postgresql: URL/);
      assert.match(err.message, /SECRET_KEY must be at least 32/);
      assert.ok(!err.message.includes('hunter2'), 'the password in a URL is hidden');
    }
  });

  it('reads each kind of setting from its text', () => {
    const c = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://seal.example/base//',
      ALLOW_PRIVATE_URLS: 'YES',
      RECEIPT_LEVELS_MB: '3',
      MAIL_SENDER_DOMAINS: ' Acme.example, ,mail.acme.example',
      TSA_URLS: 'https://tsa.example/a , http://10.0.0.5:318/',
      LOG_LEVEL: 'debug',
      DATA_DIR: '/tmp/proofseal-config-test',
      HOST: '',
    });
    assert.equal(c.port, 8080);
    assert.equal(c.publicUrl, 'https://seal.example/base', 'trailing slashes are dropped');
    assert.equal(c.identityPublicUrl, 'http://localhost:3001');
    assert.equal(c.serviceEmail, 'no-reply@seal.example', "SERVICE_EMAIL's default follows PUBLIC_URL");
    assert.equal(c.allowPrivateUrls, true);
    assert.equal(c.receiptLevelsBytes, 3 * 1024 * 1024);
    assert.deepEqual(c.mailSenderDomains, ['acme.example', 'mail.acme.example']);
    assert.deepEqual(c.tsaUrls, ['https://tsa.example/a', 'http://10.0.0.5:318/']);
    assert.equal(c.logLevel, 'debug');
    assert.equal(c.host, '0.0.0.0', 'an empty variable is an unset one');
    assert.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080');
  });

  it('TRUST_PROXY: false, a hop count or addresses; never every hop', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'no' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).trustProxy, [
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
    ]);
    for (const bad of ['true', '10.0.0.1/33', '300.0.0.1', 'proxy.example'])
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), /TRUST_PROXY must be false, a hop count/, bad);
  });

  it('names the variable, the rule and the value of each bad setting', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        assert.ok(err instanceof ConfigError);
        return err.problems;
      }
      return assert.fail(`accepted ${JSON.stringify(env)}`);
    };
    for (const raw of ['1.5', '1e3', '-1', '65536', ' 80'])
      assert.deepEqual(problem({ PORT: raw }), [`PORT must be an integer from 0 to 65535, got "${raw}"`]);
    assert.deepEqual(problem({ ALLOW_PRIVATE_URLS: 'maybe' }), [
      'ALLOW_PRIVATE_URLS must be true or false, got "maybe"',
    ]);
    assert.deepEqual(problem({ LOG_LEVEL: 'loud' }), [
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
    assert.deepEqual(problem({ SMTP_URL: 'http://u:pw@mail' }), [
      'SMTP_URL must be a smtp: or smtps: URL, got "http://u:***@mail"',
    ]);
    assert.deepEqual(problem({ SERVICE_NAME: 'a\nb' }), ['SERVICE_NAME must not contain line breaks, <, > or "']);
    assert.deepEqual(problem({ SERVICE_EMAIL: 'nobody' }), ['SERVICE_EMAIL must be an e-mail address']);
    assert.match(
      problem({ MAIL_SENDER_DOMAINS: 'a..b' })[0]!,
      /^MAIL_SENDER_DOMAINS must be a comma list of domain names/,
    );
    assert.deepEqual(problem({ REORG_WATCH_DEPTH: '5' }), [
      'REORG_WATCH_DEPTH must be an integer from 6 to 10000, got "5"',
    ]);
    assert.deepEqual(problem({ FEE_RATE_SAT_VB: '100', FEE_CAP_SAT_VB: '50' }), [
      'FEE_CAP_SAT_VB must be at least FEE_RATE_SAT_VB',
    ]);
    assert.deepEqual(problem({ PDF_SIGNING_P12_PASSWORD: 'pw' }), [
      'PDF_SIGNING_P12_PASSWORD is set without PDF_SIGNING_P12',
    ]);
    assert.deepEqual(problem({ PLATFORM_IDENTITY_URL: 'http://id.example' }), [
      'PLATFORM_IDENTITY_TOKEN is required when PLATFORM_IDENTITY_URL is set',
    ]);
  });

  it('keeps the test hooks out of Config', () => {
    const c = loadConfig({ PROOFSEAL_TEST_CRASH_AFTER_BROADCAST: 'true' }) as unknown as Record<string, unknown>;
    for (const hook of ['crashAfterBroadcast', 'pauseInClose', 'pauseInSend']) assert.equal(hook in c, false, hook);
    assert.deepEqual(loadTestHooks({}), { crashAfterBroadcast: false, pauseInClose: false, pauseInSend: false });
    assert.equal(loadTestHooks({ PROOFSEAL_TEST_PAUSE_IN_SEND: '1' }).pauseInSend, true);
    assert.throws(
      () => loadTestHooks({ PROOFSEAL_TEST_PAUSE_IN_CLOSE: 'later' }),
      /PROOFSEAL_TEST_PAUSE_IN_CLOSE must be true or false/,
    );
  });

  it('each setting has one variable and one field, and Config has exactly those fields', () => {
    const names = settingNames();
    assert.equal(new Set(names.map((n) => n.env)).size, names.length, 'a variable is read twice');
    assert.deepEqual(Object.keys(loadConfig({})).sort(), names.map((n) => n.field).sort());
    for (const { env } of names) assert.match(env, /^[A-Z][A-Z0-9_]*$/);
  });
});
