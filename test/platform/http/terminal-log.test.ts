/**
 * The logs on a terminal (src/adapters/log/terminal-log.ts, with the options http/logging.ts gives pino's
 * transport): one line per entry, an HTTP request as `GET /health 200 1.3 ms`, its URL redacted as in the JSON
 * lines. The real app writes into the formatter here, in this thread; on a terminal pino runs it in its transport
 * worker (test/platform/e2e/first-run.test.ts sees that through `npm start` on a pseudo-terminal).
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import terminalLog, { terminalMessage, type TerminalLogOptions } from '../../../src/adapters/log/terminal-log.js';
import { buildApp } from '../../../src/http/app.js';
import { logTransport } from '../../../src/http/logging.js';
import { testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const [embedded] = await storeKinds();
const ACCESS = 'request completed';

/** The lines a terminal shows for the requests made by `requests`, through the options the service gives. */
async function terminalLines(requests: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<unknown>) {
  const transport = logTransport({ pretty: true }).transport as unknown as {
    target: string;
    options: TerminalLogOptions;
  };
  // The module pino's worker loads: this one (src/ under tsx; dist/…/terminal-log.js once built).
  assert.ok(transport.target.endsWith('/src/adapters/log/terminal-log.ts'), transport.target);
  assert.equal(transport.options.accessMessage, ACCESS);
  let shown = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      shown += chunk.toString();
      done();
    },
  });
  const pretty = terminalLog({ ...transport.options, colorize: false, destination });
  const s = await embedded!.open();
  const app = await buildApp({ ...testDeps(s.store), readiness: {} }, testConfig({ LOG_LEVEL: 'info' }), [], {
    logStream: pretty,
  });
  try {
    await app.ready();
    await requests(app);
  } finally {
    await app.close();
    await s.destroy();
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  return shown.split('\n').filter((line) => line !== '');
}

describe('logs on a terminal', () => {
  it("one line per request: method, redacted URL, status, time; the JSON line's other fields left out", async () => {
    const token = 'A'.repeat(43);
    const lines = await terminalLines(async (app) => {
      assert.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
      await app.inject({ method: 'GET', url: `/v1/nothing?token=secret-value&signeeId=${token}` });
    });
    const requestLines = lines.filter((line) => /INFO: (GET|POST) /.test(line));
    assert.equal(requestLines.length, 2, lines.join('\n'));
    assert.match(requestLines[0]!, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/health 200 \d+\.\d ms$/);
    assert.match(
      requestLines[1]!,
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/nothing\?token=\[redacted\]&signeeId=\[redacted\] 404 \d+\.\d ms$/,
    );
    const all = lines.join('\n');
    assert.doesNotMatch(all, /secret-value|AAAAAAAAAA|remoteAddress|responseTime|reqId|"method"/);
  });

  it('a line about a request says it and its id; another keeps its message; control characters dropped', () => {
    const req = { method: 'POST', url: '/v1/anchor', remoteAddress: '127.0.0.1', id: 'r-1' };
    assert.equal(
      terminalMessage(
        { msg: 'request errored', req, res: { statusCode: 500 }, responseTime: 12.345, reqId: 'r-1' },
        'msg',
        ACCESS,
      ),
      'request errored: POST /v1/anchor 500 12.3 ms (request r-1)',
    );
    assert.equal(
      terminalMessage({ msg: 'incoming request', req, reqId: 'r-1' }, 'msg', ACCESS),
      'incoming request: POST /v1/anchor (request r-1)',
    );
    assert.equal(terminalMessage({ msg: 'otp sent', reqId: 'r-2' }, 'msg', ACCESS), 'otp sent (request r-2)');
    assert.equal(terminalMessage({ msg: 'proofseal started', role: 'all' }, 'msg', ACCESS), 'proofseal started');
    assert.equal(terminalMessage({ msg: 'a\u001b]0;title\u0007b\u009bc' }, 'msg', ACCESS), 'a]0;titlebc');
  });
});
