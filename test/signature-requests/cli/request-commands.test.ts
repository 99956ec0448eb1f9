// tier: slow (measured: 10.0 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * `proofseal request …` in process against a stand-in of the signature-request API (node:http): what
 * create/show/list/transition send and print, and `proofs` saving a bundle of real receipts (signed by
 * a real identity key) and verifying each one as `verify` does, with every NOT VERIFIED case.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import type { IdentityDeps } from '../../../src/app/identity/identity-deps.js';
import { signHash } from '../../../src/app/identity/sign-hash.js';
import { auditTrailHash, parseSigner, requestCommand, signerOf, splitE164 } from '../../../src/cli/request-commands.js';
import type { ClientContext } from '../../../src/cli/seal-command.js';
import { buildReceipt, signatureLeaf } from '../../../src/core/chainpoint/receipt.js';
import { testClientContext } from '../../support/client-context.js';
import { realRandom, testClock } from '../../support/fixtures.js';

const sha256Hex = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const VERIFIED = {
  code: 'VERIFIED',
  text: 'ok',
  timestamp: 1_700_000_000_000,
  confirmations: 6,
  timestampVerificationStatus: 'VERIFIED',
  signatureVerificationStatus: 'VERIFIED',
  identityVerificationStatus: 'VERIFIED',
};

interface Api {
  url: string;
  server: http.Server;
  requests: { method: string; url: string; body: unknown; auth?: string }[];
  requests_: Map<string, Record<string, unknown>>;
  bundle: { status: number; body: object };
}

async function stubApi(): Promise<Api> {
  const api: Api = {
    url: '',
    server: http.createServer(),
    requests: [],
    requests_: new Map(),
    bundle: { status: 202, body: {} },
  };
  api.server.on('request', (req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const json = /json/.test(req.headers['content-type'] ?? '');
      const body: unknown = text && json ? JSON.parse(text) : text || null;
      api.requests.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const [route, id, action] = (req.url ?? '').split('?')[0]!.split('/').slice(2);
      // Receipt verification answers VERIFIED: the chain is not under test here.
      if (route === 'receipt' && id === 'verify') return send(200, VERIFIED);
      const known = id ? api.requests_.get(id) : undefined;
      if (req.method === 'POST' && route === 'signatureRequest' && !id) {
        const b = body as Record<string, unknown>;
        const created = { id: randomUUID(), created: 1, lastModified: 1, ...b, state: b.state ?? 'IN_PROGRESS' };
        api.requests_.set(created.id, created);
        return send(200, created);
      }
      if (route === 'signatureRequests')
        return send(200, {
          content: [...api.requests_.values()],
          page: 0,
          size: 20,
          totalElements: api.requests_.size,
          totalPages: 1,
          first: true,
          last: true,
        });
      if (!known)
        return send(404, { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: 'no such request' });
      if (req.method === 'GET' && !action) return send(200, known);
      if (req.method === 'POST' && action === 'transition') {
        if (typeof body !== 'string')
          return send(400, {
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            error: 'Bad Request',
            message: 'a JSON string',
          });
        if (known.state === 'IN_PROGRESS' && body === 'PENDING')
          return send(403, {
            statusCode: 403,
            code: 'TRANSITION_NOT_ALLOWED',
            error: 'Forbidden',
            message: 'IN_PROGRESS → PENDING is not allowed',
          });
        known.state = body === 'PENDING' ? 'IN_PROGRESS' : body;
        return send(200, known);
      }
      if (action === 'proofbundle') return send(api.bundle.status, api.bundle.body);
      if (req.method === 'POST' && action === 'file') return send(200, { ...known, isUploaded: true });
      return send(404, { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: 'no route' });
    });
  });
  await new Promise<void>((r) => api.server.listen(0, '127.0.0.1', r));
  api.url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  return api;
}

describe('proofseal request', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-request-'));
  const doc = path.join(dir, 'contract.pdf');
  let opened: OpenedStore;
  let deps: IdentityDeps;
  let api: Api;
  let verifier: http.Server;
  let lines: string[];
  let ctx: ClientContext;

  before(async () => {
    writeFileSync(doc, `contract ${randomBytes(8).toString('hex')}`);
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    deps = {
      store: opened.store,
      clock: testClock(Date.now()),
      random: realRandom,
      identity: { secretKey: 's'.repeat(40), publicUrl: 'https://id.example.com' },
    };
    await createIdentityKey(deps, {
      name: 'platform',
      identity: { commonName: 'Platform', emailAddress: 'p@example.com' },
    });
    api = await stubApi();
    verifier = api.server;
  });
  after(async () => {
    await new Promise((r) => verifier.close(r));
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  const flags = () => ['--api-url', api.url, '--token', 'ps_test'];
  const run = async (...args: string[]) => {
    lines = [];
    ctx = testClientContext(dir, (l) => lines.push(l));
    await requestCommand([...args, ...flags()], ctx);
    return lines;
  };

  async function receiptOf(hashToSign: string, identityToSign?: string) {
    const signed = await signHash(deps, { hashToSign, identityToSign });
    const leaf = signatureLeaf(signed.signature);
    return buildReceipt({ targetHash: leaf, merkleRoot: leaf, proof: [], txId: 'ab'.repeat(32), signature: signed });
  }

  it('create: hashes the file, sends the signers (the i-th --otp to the i-th signer), prints the next step', async () => {
    await run(
      'create',
      doc,
      '--signer',
      'Jane Doe <jane@example.com>',
      '--signer',
      'Bob <bob@example.com>',
      '--otp',
      '+33612345678',
      '--draft',
    );
    const sent = api.requests.find((r) => r.method === 'POST' && r.url === '/v1/signatureRequest')!;
    assert.equal(sent.auth, 'Bearer ps_test');
    assert.deepEqual(sent.body, {
      name: 'contract.pdf',
      hashToSign: sha256Hex(readFileSync(doc)),
      fileName: 'contract.pdf',
      authorizedSignees: [
        {
          commonName: 'Jane Doe',
          email: 'jane@example.com',
          countryCallingCode: '33',
          phone: '612345678',
          requiresOTP: true,
        },
        { commonName: 'Bob', email: 'bob@example.com' },
      ],
      state: 'DRAFT',
    });
    assert.match(lines[0]!, /^request [0-9a-f-]{36}: contract\.pdf/);
    assert.ok(
      lines.some((l) => l.includes('signer    Jane Doe <jane@example.com> (SMS code to +33612345678): not signed yet')),
    );
    assert.match(lines.at(-1)!, /request transition [0-9a-f-]{36} PENDING/);
  });

  it('create refuses bad signers and phones before calling anything', async () => {
    const before = api.requests.length;
    await assert.rejects(run('create', doc), { name: 'UsageError' });
    await assert.rejects(run('create', doc, '--signer', 'jane@example.com'), /"Name <email>"/);
    await assert.rejects(run('create', doc, '--signer', 'J <j@x.io>', '--otp', '0612345678'), /E\.164/);
    await assert.rejects(
      run('create', doc, '--signer', 'J <j@x.io>', '--otp', '+33612345678', '--otp', '+33612345679'),
      /more --otp/,
    );
    assert.equal(api.requests.length, before);
    assert.deepEqual(parseSigner(' Jean-Marc Dupont <jm.dupont@example.fr> '), {
      commonName: 'Jean-Marc Dupont',
      email: 'jm.dupont@example.fr',
    });
  });

  it('show, list, transition (a bare JSON string), with --json and the service error codes', async () => {
    const [id] = [...api.requests_.keys()];
    assert.match((await run('show', id!))[0]!, /\n {2}state {5}DRAFT\n/);
    assert.equal(JSON.parse((await run('show', id!, '--json'))[0]!).id, id);
    assert.deepEqual(await run('transition', id!, 'PENDING'), [`request ${id} is now IN_PROGRESS`]);
    assert.equal(api.requests.at(-1)!.body, 'PENDING');
    await assert.rejects(run('transition', id!, 'PENDING'), { code: 'TRANSITION_NOT_ALLOWED' });
    await assert.rejects(run('show', randomUUID()), { code: 'NOT_FOUND' });
    assert.match((await run('list', '--state', 'IN_PROGRESS'))[0]!, new RegExp(`^${id}  IN_PROGRESS +contract\\.pdf$`));
    assert.ok(api.requests.at(-1)!.url.includes('state=IN_PROGRESS'));
    assert.equal(JSON.parse((await run('list', '--json'))[0]!).totalElements, 1);
  });

  it('proofs: saves the bundle and verifies every receipt; exit 0 only when complete and all hold', async () => {
    const [id] = [...api.requests_.keys()];
    const hashToSign = sha256Hex(readFileSync(doc));
    const trail = JSON.stringify({
      auditContext: { id, name: 'contract.pdf', hashToSign },
      auditEvents: [{ date: 1, type: 'CREATED' }],
    });
    const good = {
      signatureReceipts: [await receiptOf(hashToSign, 'ALL'), await receiptOf(hashToSign, 'ALL')],
      auditTrailReceipt: await receiptOf(auditTrailHash(trail)),
      auditTrailData: trail,
      complete: true,
    };
    api.bundle = { status: 200, body: good };
    const out = path.join(dir, 'bundle.json');
    await run('proofs', id!, '--out', out);
    assert.equal(process.exitCode, 0, lines.join('\n'));
    assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), JSON.parse(JSON.stringify(good)));
    assert.equal(lines.at(-1), 'VERIFIED: 3 receipts, the bundle is complete');
    assert.deepEqual(
      lines.filter((l) => l.endsWith(':')),
      ['signature 1:', 'signature 2:', 'audit trail:'],
    );
    const json = JSON.parse((await run('proofs', id!, '--out', out, '--json'))[0]!);
    assert.equal(json.verdict, 'VERIFIED');

    const cases: [{ status: number; body: object }, RegExp][] = [
      [{ status: 202, body: { ...good, complete: false } }, /not complete yet/],
      [
        { status: 200, body: { ...good, signatureReceipts: [await receiptOf(sha256Hex('another file'))] } },
        /is not the hash the receipt proves/,
      ],
      [{ status: 200, body: { ...good, auditTrailData: `${trail} ` } }, /is not the hash the receipt proves/],
      [
        { status: 200, body: { ...good, signatureReceipts: [{ type: 'nonsense' }] } },
        /not a valid Chainpoint v2 receipt/,
      ],
      [{ status: 200, body: { complete: true } }, /holds no receipt/],
    ];
    for (const [bundle, why] of cases) {
      api.bundle = bundle;
      await run('proofs', id!, '--out', out);
      assert.equal(process.exitCode, 1);
      assert.match(lines.at(-1)!, new RegExp(`^NOT VERIFIED: .*${why.source}`));
    }
  });

  it('an E.164 number splits into the country calling code and the national number', () => {
    const cases: [string, string, string][] = [
      ['+33612345678', '33', '612345678'],
      ['+14155552671', '1', '4155552671'],
      ['+79161234567', '7', '9161234567'],
      ['+447911123456', '44', '7911123456'],
      ['+352621123456', '352', '621123456'],
      ['+2348031234567', '234', '8031234567'],
      ['+27821234567', '27', '821234567'],
    ];
    for (const [e164, countryCallingCode, phone] of cases)
      assert.deepEqual(splitE164(e164), { countryCallingCode, phone });
    assert.throws(() => splitE164('0612345678'), /E\.164/);
    // Read with the service's numbering plans: trunk prefixes dropped, landlines refused before any call.
    assert.deepEqual(splitE164('+44 07400 123456'), { countryCallingCode: '44', phone: '7400123456' });
    assert.deepEqual(splitE164('+2250707070707'), { countryCallingCode: '225', phone: '0707070707' });
    assert.throws(() => splitE164('+33123456789'), /fixed-line/);
    assert.throws(() => splitE164('+4407700900123'), /not a valid mobile/);
  });

  it('the audit-trail hash of an object is the SHA-256 of its JSON with sorted keys', () => {
    assert.equal(auditTrailHash({ b: 1, a: [{ d: 'x', c: null }] }), sha256Hex('{"a":[{"c":null,"d":"x"}],"b":1}'));
    assert.equal(auditTrailHash('{"b":1}'), sha256Hex('{"b":1}'));
  });

  it('without credentials it says how to give them', async () => {
    lines = [];
    const bare: ClientContext = { ...ctx, dataDir: dir, out: () => undefined };
    await assert.rejects(requestCommand(['show', randomUUID(), '--api-url', api.url], bare), /no account credentials/);
  });
});

describe('request delegate: the signer from an invitation link', () => {
  const id = '21921ace-2e2d-44f3-bc05-eede152b27f0';
  const requestUrl = `http://localhost:3000/v1/signatureRequest/${id}?signeeId=s3cr3t-_AZ`;
  it('takes the link of the mail, the signatureRequestURL, or an id with --signee-id', () => {
    const link = `http://localhost:3000/sign?signatureRequestURL=${encodeURIComponent(requestUrl)}`;
    assert.deepEqual(signerOf(link, undefined), { id, signerSecret: 's3cr3t-_AZ' });
    assert.deepEqual(signerOf(requestUrl, undefined), { id, signerSecret: 's3cr3t-_AZ' });
    assert.deepEqual(signerOf(id, 'other'), { id, signerSecret: 'other' });
  });
  it('refuses what names no signer', () => {
    assert.throws(() => signerOf(id, undefined), { name: 'UsageError' });
    assert.throws(() => signerOf('http://localhost:3000/sign?x=1', undefined), { name: 'UsageError' });
  });
});
