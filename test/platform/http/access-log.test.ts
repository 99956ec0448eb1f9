// tier: slow (measured: 16.4 s in a full CI run, over the 10 s bound of the fast tier)
/** One access line per request at info (the default level); the "incoming request" line only at debug. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../../src/http/app.js';
import { testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const [embedded] = await storeKinds();

interface AccessLine {
  msg: string;
  reqId: string;
  req: { method: string; url: string; remoteAddress: string };
  res: { statusCode: number };
  responseTime: number;
}

async function logsOf(level: string, request: { method: 'GET'; url: string; headers?: Record<string, string> }) {
  const s = await embedded!.open();
  const lines: string[] = [];
  const app = await buildApp({ ...testDeps(s.store), readiness: {} }, testConfig({ LOG_LEVEL: level }), [], {
    logStream: { write: (l) => void lines.push(l) },
  });
  try {
    await app.ready();
    const before = lines.length;
    const res = await app.inject(request);
    const written = lines.slice(before).map((l) => JSON.parse(l) as AccessLine);
    return { res, written };
  } finally {
    await app.close();
    await s.destroy();
  }
}

describe('access log', () => {
  it('at info, one line per request: method, URL, remote address, status, response time and request id', async () => {
    const { res, written } = await logsOf('info', {
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'access-log-1' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-request-id'], 'access-log-1', 'the request id is still answered');
    assert.equal(written.length, 1, JSON.stringify(written));
    const line = written[0]!;
    assert.equal(line.msg, 'request completed');
    assert.equal(line.reqId, 'access-log-1');
    assert.equal(line.req.method, 'GET');
    assert.equal(line.req.url, '/health');
    assert.equal(typeof line.req.remoteAddress, 'string');
    assert.equal(line.res.statusCode, 200);
    assert.equal(typeof line.responseTime, 'number');
  });

  it('a refused request is logged once too, with its status', async () => {
    const { res, written } = await logsOf('info', { method: 'GET', url: '/v1/tokens' });
    assert.equal(res.statusCode, 401);
    const completed = written.filter((l) => l.msg === 'request completed');
    assert.equal(completed.length, 1, JSON.stringify(written));
    assert.equal(completed[0]!.res.statusCode, 401);
    assert.ok(!written.some((l) => l.msg === 'incoming request'));
  });

  it('at debug, the request is also logged when it arrives', async () => {
    const { written } = await logsOf('debug', { method: 'GET', url: '/health' });
    const incoming = written.find((l) => l.msg === 'incoming request');
    assert.ok(incoming, JSON.stringify(written));
    assert.equal(incoming.req.url, '/health');
    assert.ok(written.some((l) => l.msg === 'request completed'));
  });
});
