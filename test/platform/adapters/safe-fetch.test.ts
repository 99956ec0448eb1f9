/** The outbound fetch refuses private targets before any connection, pins the address, bounds time and size. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeFetch, isBlockedAddress } from '../../../src/adapters/net/safe-fetch.js';
import { OutboundError } from '../../../src/app/shared/http-client.port.js';

let server: http.Server;
let port: number;
let connections = 0;

before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') res.end(Buffer.alloc(10_000));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000);
    else if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    else res.end(`hello ${req.headers.host}`);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

async function refused(p: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => err instanceof OutboundError && err.reason === reason);
}

describe('safe fetch, private addresses refused', () => {
  const lookups: string[] = [];
  const strict = createSafeFetch({
    allowPrivateUrls: false,
    lookup: async (host) => {
      lookups.push(host);
      return host === 'rebind.test'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ]
        : (await import('node:dns/promises')).lookup(host, { all: true });
    },
  });

  for (const url of [
    'http://127.0.0.1:PORT/',
    'http://10.1.2.3:PORT/',
    'http://[::1]:PORT/',
    'http://169.254.169.254/latest/meta-data',
    'http://localhost:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::ffff:7f00:1]:PORT/',
    'http://100.64.0.1/',
    'http://192.168.1.1/',
    'http://172.16.0.1/',
    'http://0.0.0.0:PORT/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://2130706433:PORT/',
    'http://0x7f.1:PORT/',
    'http://rebind.test:PORT/',
  ]) {
    it(`refuses ${url} before connecting`, async () => {
      const before = connections;
      await refused(strict.request({ method: 'GET', url: url.replace('PORT', String(port)) }), 'FORBIDDEN_URL');
      assert.equal(connections, before, 'no connection was opened');
    });
  }

  it('refuses other schemes and credentials in the URL', async () => {
    await refused(strict.request({ method: 'GET', url: 'ftp://example.com/' }), 'FORBIDDEN_URL');
    await refused(strict.request({ method: 'GET', url: 'file:///etc/passwd' }), 'FORBIDDEN_URL');
    await refused(strict.request({ method: 'GET', url: 'http://user:pw@example.com/' }), 'FORBIDDEN_URL');
    await refused(strict.request({ method: 'GET', url: 'not a url' }), 'INVALID_URL');
  });

  it('checkUrl refuses private literals without any lookup', () => {
    const n = lookups.length;
    assert.throws(() => strict.checkUrl('http://127.0.0.1/'), OutboundError);
    assert.throws(() => strict.checkUrl('http://[::1]/'), OutboundError);
    strict.checkUrl('https://example.com/hook');
    assert.equal(lookups.length, n);
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.1.1',
      '169.254.169.254',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      'ff02::1',
    ])
      assert.ok(isBlockedAddress(a), a);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) assert.ok(!isBlockedAddress(a), a);
  });
});

describe('safe fetch, private addresses allowed (test setting)', () => {
  let resolved = 0;
  const open = createSafeFetch({
    allowPrivateUrls: true,
    lookup: async () => {
      resolved += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });

  it('fetches, pinned to the address resolved once, with the Host header kept', async () => {
    const res = await open.request({ method: 'GET', url: `http://receiver.test:${port}/` });
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), `hello receiver.test:${port}`);
    assert.equal(resolved, 1);
  });

  it('does not follow redirects', async () => {
    const res = await open.request({ method: 'GET', url: `http://127.0.0.1:${port}/redirect` });
    assert.equal(res.status, 302);
  });

  it('bounds the response size and the time', async () => {
    await refused(
      open.request({ method: 'GET', url: `http://127.0.0.1:${port}/big`, maxResponseBytes: 1000 }),
      'TOO_LARGE',
    );
    await refused(open.request({ method: 'GET', url: `http://127.0.0.1:${port}/slow`, timeoutMs: 200 }), 'TIMEOUT');
  });

  it('reports a refused connection as NETWORK', async () => {
    await refused(open.request({ method: 'GET', url: 'http://127.0.0.1:1/' }), 'NETWORK');
  });
});

describe('safe fetch, checkTarget (a URL checked when a user gives it)', () => {
  const lookups: string[] = [];
  const client = createSafeFetch({
    allowPrivateUrls: false,
    lookup: async (host) => {
      lookups.push(host);
      if (host === 'loopback.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
      if (host === 'nowhere.test') throw new Error('ENOTFOUND');
      return [{ address: '93.184.216.34', family: 4 }];
    },
  });

  it('refuses every spelling of a private address, localhost and names resolving inside', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f000001/',
      'http://127.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost:3001/',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/',
      'http://loopback.test/',
      'http://metadata.test/x',
    ])
      await refused(client.checkTarget(url), 'FORBIDDEN_URL');
  });

  it('takes a public name, and one that does not resolve now (the fetch checks it again)', async () => {
    await client.checkTarget('https://hooks.example.com/in');
    await client.checkTarget('https://nowhere.test/in');
  });

  it('remembers a URL it took for a minute: no second lookup (clients send one identityURL with each anchor)', async () => {
    await client.checkTarget('https://cached.test/a');
    await client.checkTarget('https://nowhere.test/b');
    const n = lookups.length;
    await client.checkTarget('https://cached.test/a');
    await client.checkTarget('https://nowhere.test/b');
    assert.equal(lookups.length, n);
    await refused(client.checkTarget('http://loopback.test/'), 'FORBIDDEN_URL');
    await refused(client.checkTarget('http://loopback.test/'), 'FORBIDDEN_URL');
  });
});

describe('safe fetch, the own identity server as the one allowed private origin', () => {
  const client = createSafeFetch({
    allowPrivateUrls: false,
    allowedOrigins: [`http://127.0.0.1:${0}`],
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
  });
  let own: ReturnType<typeof createSafeFetch>;
  before(() => {
    own = createSafeFetch({
      allowPrivateUrls: false,
      allowedOrigins: [`http://127.0.0.1:${port}/`],
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
  });

  it('fetches and accepts exactly that origin', async () => {
    await own.checkTarget(`http://127.0.0.1:${port}/v1/identity/x`);
    const res = await own.request({ method: 'GET', url: `http://127.0.0.1:${port}/` });
    assert.equal(res.status, 200);
  });

  it('refuses any other private origin: another port, another spelling, another scheme', async () => {
    for (const url of [
      `http://127.0.0.1:${port + 1}/`,
      `http://localhost:${port}/`,
      `https://127.0.0.1:${port}/`,
      `http://2130706433:${port + 1}/`,
    ]) {
      await refused(own.checkTarget(url), 'FORBIDDEN_URL');
      await refused(own.request({ method: 'GET', url }), 'FORBIDDEN_URL');
    }
    await refused(client.checkTarget(`http://127.0.0.1:${port}/`), 'FORBIDDEN_URL');
  });
});

describe('safe fetch, a name with several addresses', () => {
  it('tries the next checked address when one refuses the connection (localhost as ::1 then 127.0.0.1)', async () => {
    // The default run's identity server listens on IPv4; on most systems `localhost` resolves to ::1 first.
    const own = createSafeFetch({
      allowPrivateUrls: false,
      allowedOrigins: [`http://localhost:${port}`],
      lookup: async () => [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const res = await own.request({ method: 'GET', url: `http://localhost:${port}/` });
    assert.equal(res.status, 200);
  });

  it('still refuses the whole name when any address is private, and fails when every address refuses', async () => {
    const mixed = createSafeFetch({
      allowPrivateUrls: false,
      lookup: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    await refused(mixed.request({ method: 'GET', url: 'http://mixed.test/' }), 'FORBIDDEN_URL');
    const closed = createSafeFetch({
      allowPrivateUrls: true,
      lookup: async () => [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    await refused(closed.request({ method: 'GET', url: `http://closed.test:1/` }), 'NETWORK');
  });
});
