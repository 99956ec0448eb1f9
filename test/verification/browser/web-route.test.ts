// tier: slow (measured: 15.3 s in a full CI run, over the 10 s bound of the fast tier)
/** GET /verify and /assets/*: languages, security headers, no inline code, the bundle free of node-only code. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { CONTENT_SECURITY_POLICY } from '../../../src/http/routes/web/web.route.js';
import { pickLang, t, type MessageKey } from '../../../src/web/i18n.js';
import { testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';
import { testWebAssets } from '../../support/web-bundle.js';

const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;

describe('pickLang', () => {
  it('prefers ?lang=, then Accept-Language by q, then English', () => {
    assert.equal(pickLang('fr', 'en'), 'fr');
    assert.equal(pickLang('de', 'fr-CA,fr;q=0.9,en;q=0.8'), 'fr');
    assert.equal(pickLang(undefined, 'de, en;q=0.5, fr;q=0.7'), 'fr');
    assert.equal(pickLang(undefined, 'fr;q=0, en;q=0.1'), 'en');
    assert.equal(pickLang(undefined, 'de'), 'en');
    assert.equal(pickLang(undefined, undefined), 'en');
  });
});

describe('web pages served by the API', () => {
  let s: TestStore;
  let app: FastifyInstance;
  let bundleDir: string;

  before(async () => {
    s = await embedded.open();
    const { dir, assets } = await testWebAssets();
    bundleDir = dir;
    const deps = { ...testDeps(s.store), readiness: { store: () => s.store.ping() } };
    app = await buildApp(deps, testConfig(), [], { webAssets: assets });
  });
  after(async () => {
    await app?.close();
    await s?.destroy();
  });

  it('GET /favicon.ico: a 16×16 icon with the security headers, linked from every page', async () => {
    const res = await app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/x-icon');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const ico = res.rawPayload;
    assert.deepEqual([...ico.subarray(0, 8)], [0, 0, 1, 0, 1, 0, 16, 16], 'an icon, one image of 16×16');
    assert.equal(ico.readUInt32LE(14), ico.length - 22, 'the image fills the file after its directory');
    for (const url of ['/verify', '/sign', `/share/x/y`]) {
      const page = await app.inject({ method: 'GET', url });
      assert.match(page.body, /<link rel="icon" href="\/favicon\.ico"/, url);
    }
  });

  it('GET /share/x/y: a 404 page that says the address is not a sharing link, in the page itself', async () => {
    for (const url of ['/share/x/y', `/share/0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20/${'A'.repeat(42)}`]) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.match(res.body, /<section id="failure" class="card failure"[^>]* data-failure="badLink">/, url);
      assert.match(res.body, /This address is not a sharing link/);
      assert.match(res.body, /<p id="loading" role="status" hidden>/);
    }
    const unknown = await app.inject({
      method: 'GET',
      url: `/share/0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20/${'A'.repeat(43)}`,
    });
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.body, /data-failure="notFound"/);
    assert.match(unknown.body, /No signature request answers this sharing link/);
  });

  it('GET /verify: HTML with the strict CSP and privacy headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/verify' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    for (const directive of ["default-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"])
      assert.ok(CONTENT_SECURITY_POLICY.includes(directive), directive);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval|https?:/);
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.body, /<html lang="en">/);
    assert.match(res.body, /<main id="main"[^>]* data-network="regtest"/);
    assert.match(res.body, /<label for="file">/);
    assert.match(res.body, /<label for="headers">Headers file \(optional\)<\/label>/);
    assert.match(res.body, /<label for="receipt">/);
  });

  it("GET /, the service link in every mail's footer, leads to the verification page, not a JSON 404", async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/verify');
    const fr = await app.inject({ method: 'GET', url: '/?lang=fr' });
    assert.equal(fr.headers.location, '/verify?lang=fr');
    const page = await app.inject({ method: 'GET', url: res.headers.location });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
  });

  it('no inline script or style, and only same-origin asset URLs', async () => {
    const body = (await app.inject({ method: 'GET', url: '/verify' })).body;
    for (const tag of body.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, / src="\/assets\/[^"]+"/, tag);
    assert.doesNotMatch(body, /<script\b[^>]*>[^<\s]/);
    assert.doesNotMatch(body, /<style\b| style=| on[a-z]+=/i);
    assert.doesNotMatch(body, /(src|href)="(https?:)?\/\//);
  });

  it('the form says a signed copy may be given alone, in English and in French (a space before each colon)', async () => {
    const keys: MessageKey[] = ['verifyIntro', 'fileHint', 'receiptHint', 'dropHint', 'needBoth'];
    const en = await app.inject({ method: 'GET', url: '/verify?lang=en' });
    assert.match(en.body, /or a signed copy alone: it holds both/);
    assert.match(en.body, /Any file, or a signed copy alone \(the PDF with its proofs attached\)/);
    assert.match(t('en', 'needBoth'), /or a signed copy alone \(it carries both\)/);
    const fr = await app.inject({ method: 'GET', url: '/verify?lang=fr' });
    assert.match(fr.body, /ou une copie signée seule\u00a0: elle contient les deux/);
    assert.match(fr.body, /Laissez-le vide pour une copie signée/);
    assert.match(t('fr', 'needBoth'), /ou une copie signée seule \(elle contient les deux\)/);
    for (const key of keys) {
      assert.doesNotMatch(t('fr', key), /[^\s]:/, `${key}: French puts a space before ':'`);
      assert.notEqual(t('fr', key), t('en', key));
    }
  });

  it('French from Accept-Language or ?lang=, English otherwise', async () => {
    const fromHeader = await app.inject({
      method: 'GET',
      url: '/verify',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    assert.match(fromHeader.body, /<html lang="fr">/);
    assert.match(fromHeader.body, /Vérifier un document et sa preuve/);
    assert.equal(fromHeader.headers['content-language'], 'fr');
    const fromQuery = await app.inject({ method: 'GET', url: '/verify?lang=fr', headers: { 'accept-language': 'en' } });
    assert.match(fromQuery.body, /<html lang="fr">/);
    const unknown = await app.inject({ method: 'GET', url: '/verify?lang=xx', headers: { 'accept-language': 'de' } });
    assert.match(unknown.body, /<html lang="en">/);
  });

  it('serves the bundled script and stylesheet under their hashed names, immutable', async () => {
    const body = (await app.inject({ method: 'GET', url: '/verify' })).body;
    const script = /<script type="module" src="([^"]+)"/.exec(body)![1]!;
    const style = /<link rel="stylesheet" href="([^"]+)"/.exec(body)![1]!;
    const js = await app.inject({ method: 'GET', url: script });
    assert.equal(js.statusCode, 200);
    assert.match(String(js.headers['content-type']), /^text\/javascript/);
    assert.match(String(js.headers['cache-control']), /immutable/);
    assert.equal(js.headers['x-content-type-options'], 'nosniff');
    assert.equal(js.body, readFileSync(path.join(bundleDir, path.basename(script)), 'utf8'));
    const css = await app.inject({ method: 'GET', url: style });
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  it('unknown or malformed asset names: 404 NOT_FOUND / 400, never a file outside the bundle', async () => {
    const missing = await app.inject({ method: 'GET', url: '/assets/nope.js' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'NOT_FOUND');
    const traversal = await app.inject({ method: 'GET', url: '/assets/..%2Fmanifest.json' });
    assert.ok([400, 404].includes(traversal.statusCode), String(traversal.statusCode));
    assert.equal((await app.inject({ method: 'GET', url: '/assets/manifest.json' })).statusCode, 404);
  });

  it('GET /sign names the PDF.js worker, served from our own /assets/ like every asset', async () => {
    const page = await app.inject({ method: 'GET', url: '/sign' });
    assert.equal(page.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    const worker = /<div id="viewer" data-worker="(\/assets\/pdf-worker-[A-Z0-9]+\.js)"/.exec(page.body)?.[1];
    assert.ok(worker, 'the page names the worker');
    const res = await app.inject({ method: 'GET', url: worker });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    assert.match(String(res.headers['cache-control']), /immutable/);
    assert.match(res.body, /PDFWorker|WorkerMessageHandler/);
    const { assets } = await testWebAssets();
    const sign = assets.files.get(path.basename(assets.scripts.get('sign-page.js')!))!.body.toString('utf8');
    assert.match(sign, /isEvalSupported/, 'PDF.js is bundled into the sign page');
    assert.doesNotMatch(
      sign,
      /https?:\/\/(?!www\.w3\.org|mozilla\.org|github\.com)[a-z0-9.-]+\/[^"'\s]*\.(m?js|wasm)\b/i,
    );
  });

  it('the bundle holds the core verification code and nothing node-only', async () => {
    const { assets } = await testWebAssets();
    const js = assets.files.get(path.basename(assets.script))!.body.toString('utf8');
    assert.doesNotMatch(js, /\b(require\(|from\s*["']node:|import\(["']node:)/);
    assert.match(js, /Bitcoin Signed Message/);
    assert.match(js, /ChainpointSHA256v2/);
  });
});
