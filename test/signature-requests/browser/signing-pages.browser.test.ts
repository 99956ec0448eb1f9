// tier: slow (Chromium)
/**
 * The signature page, the custom signature page example and the sharing page in a real browser (Debian's
 * chromium driven by playwright-core) over the real API on the embedded store: a signer signs with and without
 * an SMS code (read from the SMS outbox), by keyboard alone, in French; every failure page; the custom page on
 * another origin signs through the link the invitation e-mail carries when `vars.signingURL` is set; the
 * sharing page follows a COMPLETED request and verifies its signatures. No page raises a CSP violation and
 * no request leaves the service's origin (the custom page's own origin excepted). Screenshots at phone and
 * desktop width go to $WEB_ARTIFACTS_DIR (default a tmp dir).
 */
import assert from 'node:assert/strict';
import { auditEvent } from '../../../src/app/signature-requests/audit.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { createVelocityEngine } from '../../../src/adapters/templates/velocity-engine.js';
import type { ChainPort, RawTransactionInfo } from '../../../src/app/anchoring/chain.port.js';
import { renderEmail } from '../../../src/app/mail/render-email.js';
import { listSmsOutbox } from '../../../src/app/sms/list-sms-outbox.js';
import { opReturnScript } from '../../../src/core/bitcoin/op-return.js';
import { mailContext, signatureRequestUrl, signingLink } from '../../../src/core/mail/mail-context.js';
import { sharingPath } from '../../../src/core/signature-requests/sharing-token.js';
import { chromiumSkip, launchChromium, recordPageProblems, webArtifactsDir } from '../../support/chromium.js';
import { insertBatch } from '../../support/anchors.js';
import { TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { logoServer, type LogoServer } from '../../support/logo-server.js';
import { storeKinds } from '../../support/stores.js';
import { testWebAssets } from '../../support/web-bundle.js';
import { createRequest, delegate, openBench, otpSigner, requestBody, signer, type Bench } from '../fixture.js';
// @ts-expect-error: a plain .mjs example without type declarations
import { startCustomPage } from '../../../examples/custom-signature-page/server.mjs';

const skip = chromiumSkip();
const artifacts = webArtifactsDir();
const docsImg = path.resolve(import.meta.dirname, '../../../docs/img');
const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const txs = new Map<string, RawTransactionInfo>();
const chain = { getRawTransaction: async (txid: string) => txs.get(txid) ?? null } as unknown as ChainPort;

describe('signature, custom and sharing pages in chromium', { skip }, () => {
  let b: Bench;
  let browser: Browser;
  let base: string;
  let custom: Server;
  let customBase: string;
  let logo: LogoServer;
  const problems: string[] = [];

  before(async () => {
    const { assets } = await testWebAssets();
    const config = testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' });
    logo = await logoServer();
    const images = cachedBrandImages(createSafeFetch({ allowPrivateUrls: true }));
    const attestation = {
      renderer: pdfAttestationRenderer(),
      images,
      publicUrl: 'https://proofseal.example.com',
      serviceName: 'proofseal',
    };
    b = await openBench(embedded, { chain, attestation }, { webAssets: assets, config });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    custom = (await startCustomPage(0, '127.0.0.1')) as Server;
    customBase = `http://localhost:${(custom.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => custom?.close(resolve));
    await b?.close();
    logo?.server.close();
    assert.deepEqual(problems, []);
  });

  /** A page that records CSP violations, script errors and any request to an origin not in `allowed`. */
  async function open(url: string, viewport = DESKTOP, allowed = [base]): Promise<Page> {
    const page = await browser.newPage({ viewport });
    recordPageProblems(page, problems);
    page.on('request', (r) => {
      if (!allowed.includes(new URL(r.url()).origin)) problems.push(`request left the origin: ${r.url()}`);
    });
    const res = await page.goto(url);
    if (url.startsWith(base)) assert.equal(res?.headers()['referrer-policy'], 'no-referrer');
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  /** The default signing link of a signer, as the invitation e-mail forms it. */
  const signLink = (id: string, signeeId: string) =>
    signingLink(`${base}/sign`, signatureRequestUrl(base, id, signeeId));
  const signedOn = async (id: string, n: number) => {
    const r = await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: b.auth });
    return r.json().authorizedSignees[n].signedOn as number | undefined;
  };
  const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').trim();
  /** The banner shows the request's logo, loaded from this origin, with the service name as its alt text. */
  async function assertLogo(page: Page, alt: string): Promise<string> {
    const img = await page.waitForSelector('.brand img.logo');
    assert.ok(
      (await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)) > 0,
      'the logo loaded',
    );
    assert.equal(await img.getAttribute('alt'), alt);
    return String(await img.getAttribute('src'));
  }

  it('a signer checks the file and signs (phone and desktop), and the CSP holds', async () => {
    const content = randomBytes(3000);
    const hashToSign = createHash('sha256').update(content).digest('hex');
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const body = requestBody({ hashToSign, fileName: 'lease.pdf', fileURL: 'https://files.example.com/lease.pdf' });
      const { id, signeeIds } = await createRequest(b, body);
      const page = await open(signLink(id, signeeIds[0]!), viewport);
      assert.equal(await text(page, '#title'), 'Contract');
      assert.equal(await text(page, '#requester'), 'owner@example.com');
      assert.equal(await text(page, '#document'), 'lease.pdf');
      assert.equal(await text(page, '#hash'), hashToSign);
      assert.deepEqual(await page.$$eval('#signers li', (els) => els.map((e) => e.textContent)), [
        'Signer 1 (you) — not signed yet',
        'Signer 2 — not signed yet',
      ]);
      assert.equal(await page.getAttribute('#file-link', 'href'), 'https://files.example.com/lease.pdf');
      await page.setInputFiles('#file-check', {
        name: 'other.pdf',
        mimeType: 'application/pdf',
        buffer: randomBytes(10),
      });
      await page.waitForSelector('#file-result.fail');
      await page.setInputFiles('#file-check', { name: 'lease.pdf', mimeType: 'application/pdf', buffer: content });
      await page.waitForSelector('#file-result.ok');
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(overflow <= 0, `the ${name} page scrolls sideways by ${overflow}px`);
      await page.screenshot({ path: path.join(artifacts, `sign-${name}.png`), fullPage: true });
      await page.click('#sign-button');
      await page.waitForSelector('#done:not([hidden])');
      assert.equal(await page.evaluate('document.activeElement?.id'), 'done-heading');
      assert.match(await text(page, '#done-text'), /Your signature of “lease.pdf” is recorded/);
      assert.ok(await signedOn(id, 0));
      await page.screenshot({ path: path.join(artifacts, `sign-done-${name}.png`), fullPage: true });
      await page.close();
    }
  });

  it('keyboard only: tab to the sign button, press Enter, then follow redirectURL', async () => {
    const { id, signeeIds } = await createRequest(b, requestBody({ vars: { redirectURL: `${base}/verify` } }));
    const page = await open(signLink(id, signeeIds[1]!));
    const visited: string[] = [];
    for (let i = 0; i < 15 && (await page.evaluate('document.activeElement?.id')) !== 'sign-button'; i++) {
      await page.keyboard.press('Tab');
      visited.push(String(await page.evaluate('document.activeElement?.id || document.activeElement?.tagName')));
    }
    assert.equal(await page.evaluate('document.activeElement?.id'), 'sign-button', visited.join(' → '));
    assert.ok(visited.includes('file-check'), visited.join(' → '));
    await page.keyboard.press('Enter');
    await page.waitForSelector('#redirect:not([hidden])');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'done-heading');
    await page.waitForURL(`${base}/verify`, { timeout: 10_000 });
    assert.ok(await signedOn(id, 1));
    await page.close();
  });

  const latestCode = async () => {
    const [sms] = await listSmsOutbox(b.deps, { limit: 1 });
    return /^(\d{6})/.exec(sms?.body ?? '')![1]!;
  };
  const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

  it('with an SMS code: send it, a wrong code is refused by the form, the right one signs', async () => {
    const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [otpSigner] }));
    const page = await open(signLink(id, signeeIds[0]!), PHONE);
    await page.waitForSelector('#otp:not([hidden])');
    await page.click('#otp-send');
    await page.waitForSelector('#otp-status:not(:empty)');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'otp-code');
    const code = await latestCode();
    await page.fill('#otp-code', wrongCode(code));
    await page.click('#sign-button');
    await page.waitForSelector('#sign-error:not(:empty)');
    assert.equal(await text(page, '#sign-error'), 'This code is wrong. Check it and try again.');
    assert.equal(await signedOn(id, 0), undefined);
    await page.screenshot({ path: path.join(artifacts, 'sign-otp-wrong-phone.png'), fullPage: true });
    await page.fill('#otp-code', code);
    await page.click('#sign-button');
    await page.waitForSelector('#done:not([hidden])');
    assert.ok(await signedOn(id, 0));
    await page.close();
  });

  it('too many wrong codes: the failure page, with a way to start again', async () => {
    const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [otpSigner] }));
    const page = await open(signLink(id, signeeIds[0]!));
    await page.click('#otp-send');
    await page.waitForSelector('#otp-status:not(:empty)');
    const wrong = wrongCode(await latestCode());
    for (let i = 0; i < 6 && (await page.isHidden('#failure')); i++) {
      await page.fill('#otp-code', wrong);
      await page.click('#sign-button');
      await page.waitForSelector('#sign-error:not(:empty), #failure:not([hidden])');
      await page.evaluate("document.getElementById('sign-error').textContent = ''");
    }
    await page.waitForSelector('#failure:not([hidden])');
    assert.match(await text(page, '#failure-text'), /^Too many wrong codes were entered/);
    assert.equal(await page.evaluate('document.activeElement?.id'), 'failure-heading');
    assert.ok(await page.isVisible('#retry-link'));
    assert.ok(await page.isHidden('#sign-form'));
    await page.close();
  });

  it('failure pages: bad link, another origin, unknown signer, canceled, expired; a used link says when it was signed', async () => {
    const failureOf = async (url: string) => {
      const page = await open(url);
      await page.waitForSelector('#failure:not([hidden])');
      const out = { text: await text(page, '#failure-text'), form: await page.isHidden('#sign-form') };
      await page.close();
      assert.ok(out.form, 'the sign form stays hidden');
      return out.text;
    };
    const { id, signeeIds } = await createRequest(b);
    assert.match(await failureOf(`${base}/sign`), /^The link is incomplete or wrong/);
    assert.match(await failureOf(`${base}/sign?signatureRequestURL=not%20a%20url`), /^The link is incomplete/);
    const foreign = signatureRequestUrl('https://evil.example.com', id, signeeIds[0]!);
    assert.match(
      await failureOf(signingLink(`${base}/sign`, foreign)),
      /another server \(https:\/\/evil\.example\.com\)/,
    );
    assert.match(await failureOf(signLink(id, 'A'.repeat(43))), /^The link is incomplete or wrong/);
    assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
    // A used link is no failure: it says when the signer signed (test/signature-requests/browser/sign-document.browser.test.ts).
    const used = await open(signLink(id, signeeIds[0]!));
    await used.waitForSelector('#done:not([hidden])');
    assert.match(await text(used, '#done-text'), /^You signed this document on /);
    assert.ok((await used.isHidden('#failure')) && (await used.isHidden('#sign-form')));
    await used.close();
    const canceled = await createRequest(b);
    const res = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${canceled.id}/transition`,
      headers: { ...b.auth, 'content-type': 'application/json' },
      payload: '"CANCELED"',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(await failureOf(signLink(canceled.id, canceled.signeeIds[0]!)), /^The requester canceled/);
    const expired = await createRequest(b);
    assert.ok(
      await b.deps.store.signatureRequests.setState(
        expired.id,
        'IN_PROGRESS',
        'EXPIRED',
        auditEvent({ type: 'EXPIRED', date: Date.now(), actor: 'platform' }),
      ),
    );
    assert.match(
      await failureOf(signLink(expired.id, expired.signeeIds[0]!)),
      /^The deadline to sign this document has passed/,
    );
  });

  it("in the signer's language (fr), with the request's branding and logo (served by this origin)", async () => {
    const vars = {
      serviceName: 'Acme Signature',
      brandColor1: '#6a1b9a',
      textColor1: '#ffff00',
      serviceLogoURL: logo.url,
    };
    const body = requestBody({ authorizedSignees: [{ ...signer(1), lang: 'fr' }], vars });
    const { id, signeeIds } = await createRequest(b, body);
    const page = await open(signLink(id, signeeIds[0]!), PHONE);
    await page.waitForURL(/lang=fr/);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.equal(await text(page, '#sign-button'), 'Signer le document');
    assert.equal(await text(page, '.brand'), 'Acme Signature');
    const accent = await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--ps-accent')");
    assert.equal(String(accent).trim(), '#6a1b9a');
    const textColor = await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--ps-text')");
    assert.equal(String(textColor).trim(), '#1a1a1a', 'a text colour without contrast on white is not applied');
    assert.match(await assertLogo(page, 'Acme Signature'), /^\/v1\/signatureRequest\/[^/]+\/logo\?signeeId=/);
    await page.screenshot({ path: path.join(artifacts, 'sign-phone-fr-branded.png'), fullPage: true });
    await page.close();
  });

  it('vars.signingURL: the invitation e-mail links to the custom page, which signs from its own origin', async () => {
    const { id, signeeIds, body } = await createRequest(b, requestBody({ vars: { signingURL: `${customBase}/` } }));
    const stored = (await b.deps.store.signatureRequests.findById(id))!;
    const context = mailContext({
      baseUrl: base,
      platform: { serviceName: 'proofseal', serviceEmail: 'no-reply@example.com' },
      defaultSigningUrl: `${base}/sign`,
      request: { ...stored, fileURL: stored.fileUrl, vars: stored.vars ?? {} },
      requester: { firstName: '', lastName: '', email: 'owner@example.com' },
      sharingUrl: base + sharingPath(TEST_SECRET_KEY, id),
      recipient: {
        kind: 'signee',
        ...signer(1),
        signerSecret: signeeIds[0]!,
        requiresOTP: false,
        lang: null,
        vars: {},
      },
    });
    const mail = renderEmail(createVelocityEngine(), { type: 'signatureRequestSigneeEmail', context });
    const link = /(https?:\/\/\S+\?signatureRequestURL=[^\s"<]+)/.exec(mail.text)?.[1];
    assert.ok(link?.startsWith(`${customBase}/?signatureRequestURL=`), `${link} in ${mail.text}`);
    const page = await open(link!, DESKTOP, [base, customBase]);
    assert.equal(await text(page, '#title'), body.name);
    await page.click('#sign');
    await page.waitForSelector('#result:not(:empty)');
    assert.equal(await text(page, '#result'), 'Signed. Thank you!');
    assert.ok(await signedOn(id, 0));
    await page.close();
  });

  it('the sharing page follows a COMPLETED request and verifies its signatures in the browser', async () => {
    const vars = { serviceName: 'Acme Signature', brandColor1: '#6a1b9a', serviceLogoURL: logo.url };
    const { id, signeeIds } = await createRequest(b, requestBody({ vars }));
    for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
    const anchors = (await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: b.auth })).json().anchors;
    const batch = await insertBatch(b.s.db, anchors, { status: 'CONFIRMED', confirmations: 6, extraLeaves: 3 });
    txs.set(batch.txId, {
      txid: batch.txId,
      hex: '',
      confirmations: 6,
      blockHash: randomUUID().replace(/-/g, '').repeat(2),
      blockTime: 1_700_000_000,
      vout: [{ n: 0, valueSat: 0, scriptHex: opReturnScript(batch.root).toString('hex') }],
    });
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const page = await open(base + sharingPath(TEST_SECRET_KEY, id), viewport);
      assert.equal(await page.getAttribute('#state', 'data-state'), 'COMPLETED');
      assert.match(await assertLogo(page, 'Acme Signature'), /^\/v1\/signatureRequest\/[^/]+\/shared\/[^/]+\/logo$/);
      const accent = await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--ps-accent')");
      assert.equal(String(accent).trim(), '#6a1b9a');
      assert.equal(await text(page, '#state'), 'Completed: everyone signed');
      assert.deepEqual(
        await page.$$eval('#signers li', (els) =>
          els.map((e) => /proof confirmed in Bitcoin/.test(e.textContent ?? '')),
        ),
        [true, true],
      );
      assert.ok(await page.isVisible('#attestation-link'));
      assert.equal(await page.isVisible('#verdict'), false, 'no empty verdict box before a verification');
      await page.click('#verify-button');
      await page.waitForSelector('#verdict.ok, #verdict.fail, #verdict.pending, #verdict.partial');
      assert.equal(await page.getAttribute('#verdict', 'class'), 'verdict ok', await text(page, '#cards'));
      assert.match(await text(page, '#verdict'), /signed this document; proved by a Bitcoin transaction/);
      assert.deepEqual(await page.$$eval('#cards article', (els) => els.map((e) => e.getAttribute('data-kind'))), [
        'signer',
        'signer',
      ]);
      assert.equal(((await text(page, '#cards')).match(/The signature is valid/g) ?? []).length, 2);
      await page.screenshot({ path: path.join(artifacts, `share-${name}.png`), fullPage: true });
      if (name === 'desktop')
        await page.screenshot({ path: path.join(docsImg, 'share-page-desktop.png'), fullPage: true });
      await page.close();
    }
    // A request without a logo: its sharing page asks for none.
    const plain = await createRequest(b, requestBody({ vars: { serviceName: 'Plain' } }));
    await delegate(b, plain.id, plain.signeeIds[0]!);
    const asked: string[] = [];
    const noLogo = await browser.newPage({ viewport: DESKTOP });
    noLogo.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await noLogo.goto(base + sharingPath(TEST_SECRET_KEY, plain.id));
    await noLogo.waitForSelector('body[data-ready="true"]');
    assert.ok(
      asked.some((u) => u.includes('/shared/')),
      'the page read its request',
    );
    assert.deepEqual(
      asked.filter((u) => u.endsWith('/logo')),
      [],
    );
    await noLogo.close();
    const wrong = await open(`${base}/share/${id}/${'A'.repeat(43)}`);
    await wrong.waitForSelector('#failure:not([hidden])');
    assert.match(await text(wrong, '#failure-text'), /^No signature request answers this sharing link/);
    assert.equal(await text(wrong, '#failure-heading'), 'This sharing link does not work');
    await wrong.close();
  });

  it('the sharing page names people as the attestation does: e-mails, and a decline with its reason', async () => {
    const { id, signeeIds } = await createRequest(b);
    assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
    const refused = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${id}/event`,
      payload: { signeeId: signeeIds[1], type: 'SIGN_REFUSED', comment: 'Wrong amount' },
    });
    assert.equal(refused.statusCode, 200, refused.body);
    const page = await open(base + sharingPath(TEST_SECRET_KEY, id));
    assert.equal(await text(page, '#requester'), 'owner@example.com');
    const signers = await page.$$eval('#signers li', (els) =>
      els.map((e) => [e.textContent ?? '', e.querySelector('span')?.className ?? '']),
    );
    assert.match(signers[0]![0], /^Signer 1 <signer1@example\.com> — signed on /);
    assert.match(signers[1]![0], /^Signer 2 <signer2@example\.com> — declined on .+: “Wrong amount”$/);
    assert.deepEqual(
      signers.map(([, c]) => c),
      ['signed', 'declined'],
    );
    await page.close();
  });
});
