// tier: slow (Chromium)
/**
 * Issue 33 §1–§4 in a real browser (Debian's chromium driven by playwright-core), each at phone (390×844) and
 * desktop (1280×800) size, over the real API on the embedded store:
 * §1 a signer declines on the page: their page says declined (when, the reason, what happens next), never
 *    "(you) — not signed yet"; the sharing page shows the decline and what it means for the request;
 * §2 a request closed with no signature: the sharing page says nobody signed and that there is no signed document;
 * §3 the requester is named: an unnamed account on an internal address shows the service's name, a named one its
 *    name, never an empty value or the internal address;
 * §4 the verdict itself is in view and focused after "Verify" (/verify and the sharing page); the document opens
 *    at fit-width on a phone; after signing the page says "the document you signed"; a malformed or unknown
 *    sharing link says what is wrong and what to do; /favicon.ico is an icon, and no page gets a 404.
 * Screenshots go to $WEB_ARTIFACTS_DIR and, for the docs, to docs/img.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { signatureRequestUrl, signingLink } from '../../../src/core/mail/mail-context.js';
import { sharingPath } from '../../../src/core/signature-requests/sharing-token.js';
import { chromiumSkip, launchChromium, recordPageProblems, webArtifactsDir } from '../../support/chromium.js';
import { TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { textPdf } from '../../support/test-pdfs.js';
import { testWebAssets } from '../../support/web-bundle.js';
import { createRequest, openBench, requestBody, signer, type Bench } from '../fixture.js';

const skip = chromiumSkip();
const artifacts = webArtifactsDir();
const docsImg = path.resolve(import.meta.dirname, '../../../docs/img');
const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;
const SIZES = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('outcomes, names and phones (issue 33 §1–§4, chromium)', { skip }, () => {
  let b: Bench;
  let browser: Browser;
  let base: string;
  const problems: string[] = [];

  before(async () => {
    const { assets } = await testWebAssets();
    const config = testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' });
    b = await openBench(embedded, {}, { webAssets: assets, config });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    assert.deepEqual(problems, []);
  });

  /**
   * A page that records CSP violations, script errors, requests off the origin and any 404 but the page's
   * own (a wrong sharing link is a 404 page on purpose); it has loaded its icon.
   */
  async function open(url: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    recordPageProblems(page, problems);
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== base) problems.push(`request left the origin: ${r.url()}`);
    });
    page.on('response', (r) => {
      if (r.status() === 404 && r.url() !== url) problems.push(`404: ${r.url()}`);
    });
    await page.goto(url);
    // The verification page marks its form ready; the signing and sharing pages their body.
    await page.waitForSelector('body[data-ready="true"], #verify-form[data-ready="true"]');
    assert.equal(await page.getAttribute('link[rel="icon"]', 'href'), '/favicon.ico');
    return page;
  }
  const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').trim();
  const focused = (page: Page) => page.evaluate('document.activeElement?.id');
  /** True when the element's top is on the screen (not above it, not below its bottom edge). */
  const inView = (page: Page, selector: string) =>
    page.$eval(selector, (el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < (globalThis as unknown as { innerHeight: number }).innerHeight && r.height > 0;
    });

  /** A request of `auth`'s account over the uploaded `pdf`; its signers' links and its sharing page. */
  async function requestWithPdf(extra: Record<string, unknown> = {}, auth = b.auth) {
    const pdf = await textPdf(2);
    const res = await b.app.inject({
      method: 'POST',
      url: '/v1/signatureRequest',
      headers: auth,
      payload: requestBody({ hashToSign: sha256(pdf), ...extra }),
    });
    assert.equal(res.statusCode, 200, res.body);
    const id = res.json().id as string;
    const made = await createRequestIds(id);
    const up = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${id}/file?fileName=lease.pdf`,
      headers: { ...auth, 'content-type': 'application/pdf' },
      payload: Buffer.from(pdf),
    });
    assert.equal(up.statusCode, 200, up.body);
    return made;
  }
  /** The signing links of request `id`, as the invitations carry them, and its sharing link. */
  async function createRequestIds(id: string) {
    const stored = await b.deps.store.signatureRequests.findById(id);
    assert.ok(stored);
    const links = stored.signers.map((s) =>
      signingLink(`${base}/sign`, signatureRequestUrl(base, id, signerSecretOf(b.deps, s))),
    );
    return { id, links, share: base + sharingPath(TEST_SECRET_KEY, id) };
  }

  it('§1 a decline: the decliner’s page and the sharing page say declined, when, why, and what it means', async () => {
    for (const [name, viewport] of SIZES) {
      const { id, links, share } = await requestWithPdf();
      const page = await open(links[1]!, viewport);
      await page.waitForSelector('#pages[data-shown="true"]');
      assert.match(await text(page, '#doc-check'), /^This is the document you sign:/);
      await page.click('#decline summary');
      await page.fill('#decline-reason', 'The rent is 950, not 1950');
      await page.click('#decline-button');
      await page.waitForSelector('#done:not([hidden])');
      assert.equal(await focused(page), 'done-heading');
      assert.equal(await text(page, '#done-heading'), 'Declined');
      const said = await text(page, '#done-text');
      assert.match(said, /^You declined on \w+ \d+, \d{4}.* Your reason: “The rent is 950, not 1950”\. /);
      assert.match(said, /stays open for the other signers until the requester closes or cancels it/);
      const signers = await page.$$eval('#signers li', (els) => els.map((e) => e.textContent ?? ''));
      assert.match(signers[0]!, /^Signer 2 \(you\) — declined on .+: “The rent is 950, not 1950”$/);
      assert.equal(signers[1], 'Signer 1 — not signed yet');
      assert.doesNotMatch(await text(page, 'main'), /\(you\) — not signed yet/);
      assert.match(await text(page, '#doc-check'), /^This is the document you declined:/);
      assert.ok(await page.isHidden('#sign-form'));
      await page.screenshot({ path: path.join(artifacts, `declined-sign-${name}.png`), fullPage: true });
      await page.close();

      // Reopened: the same words, from the signer's view.
      const again = await open(links[1]!, viewport);
      await again.waitForSelector('#done:not([hidden])');
      assert.match(await text(again, '#done-text'), /Your reason: “The rent is 950, not 1950”/);
      await again.waitForSelector('#pages[data-shown="true"]');
      assert.match(await text(again, '#doc-check'), /^This is the document you declined:/);
      if (name === 'phone')
        await again.screenshot({ path: path.join(docsImg, 'sign-page-declined-phone.png'), fullPage: true });
      await again.close();

      const shared = await open(share, viewport);
      await shared.waitForSelector('#request:not([hidden])');
      assert.equal(await text(shared, '#state'), 'In progress, with a decline');
      assert.match(await text(shared, '#state-note'), /^Declined to sign: Signer 2\. So this request can no longer be/);
      assert.match(await text(shared, '#state-note'), /until the requester closes or cancels it\.$/);
      const rows = await shared.$$eval('#signers li', (els) =>
        els.map((e) => [e.textContent ?? '', e.querySelector('span')?.className ?? '']),
      );
      assert.match(rows[0]![0], /^Signer 1 <signer1@example\.com> — not signed yet$/);
      assert.match(rows[1]![0], /^Signer 2 <signer2@example\.com> — declined on .+: “The rent is 950, not 1950”$/);
      assert.equal(rows[1]![1], 'declined');
      assert.doesNotMatch(await text(shared, 'main'), /Waiting for signatures/);
      await shared.screenshot({ path: path.join(artifacts, `declined-share-${name}.png`), fullPage: true });
      if (name === 'desktop')
        await shared.screenshot({ path: path.join(docsImg, 'share-page-declined-desktop.png'), fullPage: true });
      await shared.close();
      const owner = await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: b.auth });
      assert.equal(owner.json().state, 'IN_PROGRESS', 'one decline does not end the request');
    }
  });

  it('§2 a request closed with no signature: the sharing page says nobody signed and there is no signed document', async () => {
    for (const [name, viewport] of SIZES) {
      const { id, links, share } = await requestWithPdf();
      const closed = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"CLOSED"',
      });
      assert.equal(closed.statusCode, 200, closed.body);
      const shared = await open(share, viewport);
      await shared.waitForSelector('#request:not([hidden])');
      assert.equal(await text(shared, '#state'), 'Closed by the requester');
      assert.match(await text(shared, '#state-note'), /^Nobody signed this request, so there is no signed document\./);
      assert.deepEqual(await shared.$$eval('#signers li span', (els) => els.map((e) => e.className)), [
        'waiting',
        'waiting',
      ]);
      assert.doesNotMatch(await text(shared, 'main'), /signed copy|signed on/i);
      await shared.screenshot({ path: path.join(artifacts, `closed-unsigned-share-${name}.png`), fullPage: true });
      await shared.close();
      // The signer's link says the request is closed: nothing to sign, no failure of theirs.
      const page = await open(links[0]!, viewport);
      await page.waitForSelector('#failure:not([hidden])');
      assert.equal(
        await text(page, '#failure-text'),
        'This signature request is closed: no more signatures are collected.',
      );
      await page.close();
    }
  });

  it('§3 the requester is named: the service’s name for an unnamed internal account, else the account’s name', async () => {
    const accounts = [
      { email: 'local@proofseal.localhost', expected: 'proofseal' },
      { email: 'helene@proofseal.localhost', firstName: 'Hélène', lastName: 'Dupré', expected: 'Hélène Dupré' },
    ];
    for (const { expected, ...input } of accounts) {
      const account = await createAccount(b.deps, { ...input, password: 'correct horse battery' });
      const { token } = await createApiToken(b.deps, { accountId: account.id });
      const made = await b.app.inject({
        method: 'POST',
        url: '/v1/signatureRequest',
        headers: { authorization: `Bearer ${token}` },
        payload: requestBody({ authorizedSignees: [signer(1)] }),
      });
      assert.equal(made.statusCode, 200, made.body);
      const { links, share } = await createRequestIds(made.json().id as string);
      for (const [name, viewport] of SIZES) {
        for (const url of [links[0]!, share]) {
          const page = await open(url, viewport);
          await page.waitForSelector('#request:not([hidden])');
          const shown = await text(page, '#requester');
          assert.equal(shown, expected, `${name} ${url}`);
          assert.doesNotMatch(await text(page, 'main'), /localhost/);
          await page.close();
        }
      }
    }
    // A request naming its requester (vars) shows that name and contact.
    const named = await createRequest(b, requestBody({ vars: { requesterName: 'Cabinet Martin' } }));
    const page = await open(base + sharingPath(TEST_SECRET_KEY, named.id), SIZES[0][1]);
    await page.waitForSelector('#request:not([hidden])');
    assert.equal(await text(page, '#requester'), 'Cabinet Martin <owner@example.com>');
    await page.close();
  });

  it('§4 /verify on a phone and a desktop: after "Verify" the verdict itself is on the screen and has the focus', async () => {
    for (const [name, viewport] of SIZES) {
      const page = await open(`${base}/verify`, viewport);
      await page.setInputFiles('#file', {
        name: 'lease.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await textPdf(1)),
      });
      await page.setInputFiles('#receipt', {
        name: 'receipt.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"not": "a receipt"'),
      });
      // Scrolled to the button, as a thumb would be.
      await page.$eval('#verify-button', (el) => el.scrollIntoView({ block: 'end' }));
      await page.click('#verify-button');
      await page.waitForSelector('#result:not([hidden])');
      assert.equal(await focused(page), 'verdict');
      assert.ok(await inView(page, '#verdict'), `${name}: the verdict is on the screen`);
      assert.notEqual(await text(page, '#verdict'), '');
      await page.screenshot({ path: path.join(artifacts, `verify-verdict-${name}.png`) });
      await page.close();
    }
  });

  it('§4 the sharing page: the verdict in view; the document at fit-width on a phone; "the document you signed"', async () => {
    for (const [name, viewport] of SIZES) {
      const { links, share } = await requestWithPdf();
      const page = await open(links[0]!, viewport);
      await page.waitForSelector('#pages[data-shown="true"]');
      const frame = await page.$eval('#pages', (el) => el.clientWidth);
      const width = await page.$eval('.pdf-page[data-page="1"]', (el) => el.getBoundingClientRect().width);
      if (name === 'phone') {
        assert.equal(await page.getAttribute('#zoom-fit', 'aria-pressed'), 'true', 'a phone opens at fit-width');
        assert.ok(width <= frame && width > frame - 8, `${width} in ${frame}`);
      } else {
        assert.equal(await text(page, '#zoom-level'), '100 %', 'a desktop opens at the printed size');
      }
      await page.click('#sign-button');
      await page.waitForSelector('#done:not([hidden])');
      assert.match(await text(page, '#doc-check'), /^This is the document you signed:/);
      assert.doesNotMatch(await text(page, 'main'), /This is the document you sign:/);
      await page.close();

      const shared = await open(share, viewport);
      await shared.waitForSelector('#proofs:not([hidden])');
      await shared.click('#verify-button');
      await shared.waitForSelector('#verdict:not([hidden])');
      assert.equal(await focused(shared), 'verdict');
      assert.ok(await inView(shared, '#verdict'), `${name}: the sharing page's verdict is on the screen`);
      await shared.screenshot({ path: path.join(artifacts, `share-verdict-${name}.png`) });
      await shared.close();
    }
  });

  it('§4 a malformed or unknown sharing link says what is wrong and what to do; /favicon.ico is an icon', async () => {
    const { id } = await createRequest(b);
    for (const [name, viewport] of SIZES) {
      const asked: string[] = [];
      const bad = await browser.newPage({ viewport });
      recordPageProblems(bad, problems);
      bad.on('request', (r) => asked.push(new URL(r.url()).pathname));
      const res = await bad.goto(`${base}/share/x/y`);
      assert.equal(res?.status(), 404);
      await bad.waitForSelector('body[data-ready="true"]');
      assert.equal(await text(bad, '#failure-heading'), 'This sharing link does not work');
      assert.match(
        await text(bad, '#failure-text'),
        /^This address is not a sharing link: a sharing link reads \/share\//,
      );
      assert.match(await text(bad, '#failure-text'), /Copy the whole link from the e-mail again, or ask the requester/);
      assert.doesNotMatch(await text(bad, 'main'), /Something went wrong|VALIDATION_FAILED/);
      assert.equal(await focused(bad), 'failure-heading');
      assert.ok(await bad.isHidden('#loading'));
      assert.deepEqual(
        asked.filter((p) => p.startsWith('/v1/')),
        [],
        'nothing asked of the API',
      );
      await bad.screenshot({ path: path.join(artifacts, `share-bad-link-${name}.png`), fullPage: true });
      await bad.close();

      const wrong = await browser.newPage({ viewport });
      recordPageProblems(wrong, problems);
      assert.equal((await wrong.goto(`${base}/share/${id}/${'A'.repeat(43)}`))?.status(), 404);
      await wrong.waitForSelector('body[data-ready="true"]');
      assert.match(await text(wrong, '#failure-text'), /^No signature request answers this sharing link: the code/);
      await wrong.close();
    }
    const icon = await fetch(`${base}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    const bytes = new Uint8Array(await icon.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 6)], [0, 0, 1, 0, 1, 0], 'an ICO with one image');
    // Chromium decodes it as a 16×16 image.
    const page = await open(`${base}/verify`, SIZES[0][1]);
    const size = (await page.evaluate(`(async () => {
      const img = new Image();
      img.src = '/favicon.ico';
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    })()`)) as [number, number];
    assert.deepEqual(size, [16, 16]);
    await page.close();
  });
});
