// tier: slow (Chromium)
/**
 * Issue 22 §2 in a real browser (Debian's chromium driven by playwright-core, at 390×844 and 1280×800) over
 * the real API on the embedded store: the signer opens the invitation link and reads the uploaded PDF drawn
 * by PDF.js from our origin (page 1's canvas has ink, its text layer holds the PDF's text, every page, zoom),
 * signs, and reopening the link says when; another signer declines with a reason and reopening says so.
 * Hostile files: a PDF with JavaScript and forms is shown and runs nothing; a truncated PDF cannot be shown
 * and is signed only after "I have read the document"; a file that is not the document disables signing; a
 * non-PDF gets a download link; a zero-byte upload is a 400. Every page is checked for CSP violations, script
 * errors, dialogs and requests leaving the origin. Screenshots go to $WEB_ARTIFACTS_DIR and docs/img.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signatureRequestUrl, signingLink } from '../../../src/core/mail/mail-context.js';
import { chromiumSkip, launchChromium, recordPageProblems, webArtifactsDir } from '../../support/chromium.js';
import { testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { hostilePdf, pageText, textPdf, truncatedPdf } from '../../support/test-pdfs.js';
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

describe('the signing page shows the uploaded document (chromium)', { skip }, () => {
  let b: Bench;
  let browser: Browser;
  let base: string;
  const problems: string[] = [];

  before(async () => {
    const { assets } = await testWebAssets();
    b = await openBench(
      embedded,
      {},
      { webAssets: assets, config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }) },
    );
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    assert.deepEqual(problems, []);
  });

  /** A request whose file is `content`, uploaded as the owner would; its signers' links. */
  async function requestWithFile(content: Uint8Array, fileName: string, type = 'application/pdf', extra = {}) {
    const made = await createRequest(b, requestBody({ hashToSign: sha256(content), ...extra }));
    const res = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${made.id}/file?fileName=${encodeURIComponent(fileName)}`,
      headers: { ...b.auth, 'content-type': type },
      payload: Buffer.from(content),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().isUploaded, true);
    const links = made.signeeIds.map((s) => signingLink(`${base}/sign`, signatureRequestUrl(base, made.id, s)));
    return { ...made, links };
  }

  /** A page that records CSP violations, script errors, dialogs, navigations and requests off the origin. */
  async function open(url: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    recordPageProblems(page, problems, /pdf script ran/i);
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== base) problems.push(`request left the origin: ${r.url()}`);
    });
    page.on('popup', (p) => problems.push(`popup: ${p.url()}`));
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }
  /**
   * Waits until `expression` (browser code as text) is true in the page, polled from here: Playwright's own
   * polling of a predicate runs it in the page, where the CSP (no 'unsafe-eval') may refuse it.
   */
  const until = async (page: Page, expression: string) => {
    for (let i = 0; i < 300; i++) {
      if (await page.evaluate<boolean>(expression)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`never true in the page: ${expression}`);
  };
  const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').trim();
  const signedOn = async (id: string, n: number) => {
    const r = await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: b.auth });
    return r.json().authorizedSignees[n].signedOn as number | undefined;
  };
  /** Page `n` is drawn: its canvas has ink (pixels that are not white) and its text layer holds `expected`. */
  async function assertPageDrawn(page: Page, n: number, expected: string): Promise<void> {
    const sel = `.pdf-page[data-page="${n}"]`;
    await page.waitForSelector(`${sel} canvas`);
    await until(page, `(document.querySelector('${sel} .textLayer')?.textContent ?? '').length > 0`);
    // Browser code as text: the tests are compiled without the DOM library.
    const ink = await page.evaluate<number>(`(() => {
      const canvas = document.querySelector('${sel} canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 600) dark++;
      return dark / (data.length / 4);
    })()`);
    assert.ok(ink > 0.002, `page ${n} has ink (${ink})`);
    const layer = await text(page, `${sel} .textLayer`);
    assert.ok(layer.replace(/\s+/g, ' ').includes(expected), layer);
  }
  /** The text of page `n` can be selected (the text layer is real, selectable text). */
  async function selectedText(page: Page, n: number): Promise<string> {
    return page.evaluate<string>(`(() => {
      const selection = getSelection();
      selection.selectAllChildren(document.querySelector('.pdf-page[data-page="${n}"] .textLayer'));
      const text = selection.toString();
      selection.removeAllRanges();
      return text;
    })()`);
  }
  const noSidewaysScroll = async (page: Page, name: string) => {
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `the ${name} page scrolls sideways by ${overflow}px`);
  };

  it('the invitation link shows every page of the PDF, checked against hashToSign; the signer signs; reopening says when', async () => {
    const pdf = await textPdf(3);
    for (const [name, viewport] of SIZES) {
      const { id, links } = await requestWithFile(pdf, 'Lease été.pdf');
      const page = await open(links[0]!, viewport);
      assert.equal(await text(page, '#document'), 'Lease été.pdf');
      assert.match(await text(page, '#doc-check'), /^This is the document you sign/);
      assert.equal(await page.getAttribute('#doc-check', 'class'), 'ok');
      await assertPageDrawn(page, 1, pageText(1));
      assert.match(await selectedText(page, 1), /tenant pays 950 EUR/);
      assert.equal(await text(page, '#page-count'), '3 pages');
      assert.equal(await page.getAttribute('.pdf-page[data-page="2"]', 'aria-label'), 'Page 2 of 3');
      assert.equal(await page.isEnabled('#sign-button'), true);
      assert.ok(await page.isHidden('#ack-field'), 'no acknowledgement needed when the document is shown');
      await noSidewaysScroll(page, name);
      // A phone opens the document at the frame's width ("Fit width" pressed, the level in percent of the
      // printed size); a desktop, where an A4 page fits at its printed size, at 100 %. Zoom in makes it wider
      // (the frame scrolls, not the page); "Fit width" makes it as wide as the frame.
      const frameWidth = await page.$eval('#pages', (el) => el.clientWidth);
      const width = () => page.$eval('.pdf-page[data-page="1"]', (el) => el.getBoundingClientRect().width);
      const fits = async () => (await width()) <= frameWidth && (await width()) > frameWidth - 8;
      if (name === 'phone') {
        assert.ok(await fits(), `${await width()} in ${frameWidth}`);
        assert.equal(await page.getAttribute('#zoom-fit', 'aria-pressed'), 'true');
        const percent = Math.round(((frameWidth - 2) / (595 * (96 / 72))) * 100);
        assert.ok(
          Math.abs(parseInt(await text(page, '#zoom-level'), 10) - percent) <= 1,
          await text(page, '#zoom-level'),
        );
      } else {
        assert.equal(await text(page, '#zoom-level'), '100 %');
        assert.equal(await page.getAttribute('#zoom-fit', 'aria-pressed'), 'false');
        assert.equal(Math.round(await width()), Math.floor(595 * (96 / 72)));
        assert.ok((await width()) < frameWidth, 'an A4 page at 100 % fits a desktop frame');
      }
      await page.screenshot({ path: path.join(artifacts, `sign-document-${name}.png`), fullPage: true });
      await page.screenshot({ path: path.join(docsImg, `sign-page-${name}.png`), fullPage: true });
      const before = await width();
      await page.click('#zoom-in');
      assert.equal(await text(page, '#zoom-level'), name === 'phone' ? '50 %' : '125 %');
      assert.ok((await width()) > before, 'zoomed in');
      if (name === 'phone') assert.ok((await width()) > frameWidth, 'zoomed in past the frame');
      await noSidewaysScroll(page, `${name} zoomed`);
      await page.click('#zoom-fit');
      assert.equal(await page.getAttribute('#zoom-fit', 'aria-pressed'), 'true');
      assert.ok(await fits(), `fit: ${await width()} in ${frameWidth}`);
      // Turned sideways (or resized), the pages fit the new width.
      await page.setViewportSize({ width: viewport.height, height: viewport.width });
      await until(
        page,
        "Math.abs(document.querySelector('.pdf-page').getBoundingClientRect().width - document.querySelector('#pages').clientWidth) < 4",
      );
      await noSidewaysScroll(page, `${name} turned`);
      await page.setViewportSize(viewport);
      // Every page: scroll to the last one and it is drawn too.
      await page.$eval('.pdf-page[data-page="3"]', (el) => el.scrollIntoView());
      await assertPageDrawn(page, 3, pageText(3));
      await assertPageDrawn(page, 1, pageText(1));

      await page.click('#sign-button');
      await page.waitForSelector('#done:not([hidden])');
      assert.equal(await page.evaluate('document.activeElement?.id'), 'done-heading');
      assert.match(await text(page, '#done-text'), /^Your signature of “Lease été.pdf” is recorded/);
      await until(page, "/signed on/.test(document.querySelector('#signers li')?.textContent ?? '')");
      const signers = await page.$$eval('#signers li', (els) => els.map((e) => e.textContent ?? ''));
      assert.match(signers[0]!, /^Signer 1 \(you\) — signed on /);
      assert.equal(signers[1], 'Signer 2 — not signed yet');
      assert.equal(((await page.textContent('main')) ?? '').match(/is recorded/g)?.length, 1, 'said once');
      assert.ok(await page.isHidden('#sign-form'));
      assert.ok(await page.isVisible('#done-doc-link'));
      assert.match(String(await page.getAttribute('#done-doc-link', 'href')), /\/file\?signeeId=/);
      assert.ok(await page.isVisible('#done-proofs-later'));
      assert.ok(await signedOn(id, 0));
      await page.screenshot({ path: path.join(artifacts, `sign-document-done-${name}.png`), fullPage: true });
      await page.close();

      // Reopening the used link: when it was signed, the document still readable, no failure page.
      const again = await open(links[0]!, viewport);
      await again.waitForSelector('#done:not([hidden])');
      assert.equal(await text(again, '#done-heading'), 'Signed');
      assert.match(await text(again, '#done-text'), /^You signed this document on \w+ \d+, \d{4}/);
      assert.ok(await again.isHidden('#failure'));
      assert.ok(await again.isHidden('#sign-form'));
      await assertPageDrawn(again, 1, pageText(1));
      if (name === 'phone')
        await again.screenshot({ path: path.join(docsImg, 'sign-page-signed-phone.png'), fullPage: true });
      await again.close();
    }
  });

  it('another signer declines with a reason; reopening the link says so', async () => {
    const { id, links } = await requestWithFile(await textPdf(1), 'lease.pdf');
    const page = await open(links[1]!, SIZES[0][1]);
    await assertPageDrawn(page, 1, pageText(1));
    await page.click('#decline summary');
    await page.fill('#decline-reason', 'The rent is wrong 🙅‍♀️');
    await page.click('#decline-button');
    await page.waitForSelector('#done:not([hidden])');
    assert.equal(await text(page, '#done-heading'), 'Declined');
    assert.match(await text(page, '#done-text'), /^You declined on \w+ \d+, \d{4}/);
    assert.ok(await page.isHidden('#sign-form'));
    await page.close();
    const trail = await b.app.inject({ url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth });
    const refused = trail.json().auditEvents.find((e: { type: string }) => e.type === 'SIGN_REFUSED');
    assert.equal(refused?.comment, 'The rent is wrong 🙅‍♀️');
    const again = await open(links[1]!, SIZES[1][1]);
    await again.waitForSelector('#done:not([hidden])');
    assert.match(await text(again, '#done-text'), /^You declined on /);
    assert.ok(await again.isHidden('#failure'));
    assert.ok(await again.isHidden('#sign-form'));
    await again.screenshot({ path: path.join(artifacts, 'sign-declined-desktop.png'), fullPage: true });
    await again.close();
    // The first signer still signs.
    const first = await open(links[0]!, SIZES[1][1]);
    await assertPageDrawn(first, 1, pageText(1));
    await first.click('#sign-button');
    await first.waitForSelector('#done:not([hidden])');
    assert.ok(await signedOn(id, 0));
    await first.close();
  });

  it("in the signer's language (fr): the check, the pages and the decline in French", async () => {
    const { links } = await requestWithFile(await textPdf(2), 'bail.pdf', 'application/pdf', {
      authorizedSignees: [{ ...signer(1), lang: 'fr' }],
    });
    const page = await open(links[0]!, SIZES[0][1]);
    await page.waitForURL(/lang=fr/);
    await page.waitForSelector('body[data-ready="true"]');
    await assertPageDrawn(page, 1, pageText(1));
    assert.match(await text(page, '#doc-check'), /^Voici le document que vous signez/);
    assert.equal(await text(page, '#page-count'), '2 pages');
    assert.equal(await page.getAttribute('.pdf-page[data-page="1"]', 'aria-label'), 'Page 1 sur 2');
    assert.equal(await text(page, '#zoom-fit'), 'Pleine largeur');
    await page.click('#decline summary');
    await page.click('#decline-button');
    await page.waitForSelector('#done:not([hidden])');
    assert.equal(await text(page, '#done-heading'), 'Refusé');
    assert.match(await text(page, '#done-text'), /^Vous avez refusé de signer le \d+ \S+ \d{4}/);
    await page.close();
  });

  it('a PDF with JavaScript and form fields is shown, and nothing in it runs', async () => {
    const pdf = await hostilePdf();
    for (const [, viewport] of SIZES) {
      const { links } = await requestWithFile(pdf, 'form.pdf');
      const page = await open(links[0]!, viewport);
      const start = page.url();
      let navigations = 0;
      page.on('framenavigated', () => navigations++);
      await assertPageDrawn(page, 1, 'Form with scripts');
      // Fields are drawn into the canvas: no input, link or annotation element is made from the file.
      assert.equal(await page.$$eval('#pages input, #pages a, #pages select, #pages textarea', (e) => e.length), 0);
      await page.click('.pdf-page[data-page="1"]', { position: { x: 100, y: 230 } });
      await page.waitForTimeout(500);
      assert.equal(page.url(), start);
      assert.equal(navigations, 0);
      assert.equal(await page.isEnabled('#sign-button'), true);
      await page.close();
    }
  });

  it('a truncated PDF: "cannot be shown", and signing needs "I have read the document"', async () => {
    const { id, links } = await requestWithFile(await truncatedPdf(), 'cut.pdf');
    const page = await open(links[0]!, SIZES[0][1]);
    await page.waitForSelector('#ack-field:not([hidden])');
    assert.match(await text(page, '#doc-check'), /^This is the document you sign/);
    assert.match(await text(page, '#doc-problem'), /^This document cannot be shown on this page/);
    assert.ok(await page.isHidden('#viewer'));
    assert.ok(await page.isVisible('#doc-link'));
    assert.equal(await page.isDisabled('#sign-button'), true);
    await page.check('#ack');
    assert.equal(await page.isEnabled('#sign-button'), true);
    await page.screenshot({ path: path.join(artifacts, 'sign-truncated-phone.png'), fullPage: true });
    await page.click('#sign-button');
    await page.waitForSelector('#done:not([hidden])');
    assert.ok(await signedOn(id, 0));
    await page.close();
  });

  it('a file that is not a PDF gets a download link and the acknowledgement', async () => {
    const content = new TextEncoder().encode('Terms: pay 950 EUR a month.\n');
    const { links } = await requestWithFile(content, 'terms.txt', 'text/plain');
    const page = await open(links[0]!, SIZES[1][1]);
    await page.waitForSelector('#ack-field:not([hidden])');
    assert.match(await text(page, '#doc-problem'), /is not a PDF/);
    assert.equal(await page.getAttribute('#doc-link', 'download'), 'terms.txt');
    assert.equal(await page.isDisabled('#sign-button'), true);
    await page.close();
  });

  it('a served file that is not the document says "NOT the document" and cannot be signed', async () => {
    const pdf = await textPdf(1);
    const { id, links } = await requestWithFile(pdf, 'lease.pdf');
    const page = await browser.newPage({ viewport: SIZES[0][1] });
    // A man in the middle (or a corrupted store) hands the page other bytes than the ones uploaded.
    await page.route('**/file?signeeId=*', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/pdf',
        body: Buffer.concat([Buffer.from(pdf), Buffer.from('\n%x')]),
      }),
    );
    await page.goto(links[0]!);
    await page.waitForSelector('body[data-ready="true"]');
    assert.match(await text(page, '#doc-check'), /NOT the document of this request/);
    assert.equal(await page.getAttribute('#doc-check', 'class'), 'fail');
    assert.ok(await page.isHidden('#viewer'), 'the wrong file is not shown');
    assert.equal(await page.isDisabled('#sign-button'), true);
    await page.evaluate("document.getElementById('sign-form').requestSubmit()");
    await page.waitForTimeout(300);
    assert.equal(await signedOn(id, 0), undefined);
    await page.close();
  });

  it('the OTP step says where the code goes, masked (the number never reaches the page)', async () => {
    const otpSigner = { ...signer(1), countryCallingCode: '33', phone: '612345678', requiresOTP: true };
    const { links } = await requestWithFile(await textPdf(1), 'lease.pdf', 'application/pdf', {
      authorizedSignees: [otpSigner],
    });
    const page = await open(links[0]!, SIZES[0][1]);
    const seen: string[] = [];
    page.on('response', async (r) => seen.push(await r.text().catch(() => '')));
    assert.equal(await text(page, '#otp-intro'), 'The requester asks for a code sent by SMS to +33 6 •• •• •• 78.');
    await page.click('#otp-send');
    await page.waitForSelector('#otp-status:not(:empty)');
    assert.match(await text(page, '#otp-status'), /to \+33 6 •• •• •• 78\./);
    assert.ok(!((await page.content()) + seen.join('')).includes('612345678'));
    await page.close();
  });

  it('a zero-byte upload is refused with 400 EMPTY_DOCUMENT (raw and multipart), and nothing is kept', async () => {
    // hashToSign of a request cannot be the empty data's, so the empty file is refused before its hash is compared.
    const { id } = await createRequest(b, requestBody({ state: 'DRAFT' }));
    const raw = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${id}/file`,
      headers: { ...b.auth, 'content-type': 'application/pdf' },
      payload: Buffer.alloc(0),
    });
    assert.equal(raw.statusCode, 400, raw.body);
    assert.equal(raw.json().code, 'EMPTY_DOCUMENT');
    const boundary = 'proofseal-empty';
    const multipart = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${id}/file`,
      headers: { ...b.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="empty.pdf"\r\nContent-Type: application/pdf\r\n\r\n\r\n--${boundary}--\r\n`,
    });
    assert.equal(multipart.statusCode, 400, multipart.body);
    assert.equal(multipart.json().code, 'EMPTY_DOCUMENT');
    const view = await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: b.auth });
    assert.equal(view.json().isUploaded, false);
  });
});
