import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

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
});
