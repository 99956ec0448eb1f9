// tier: slow (Chromium)
/**
 * Issue 32, row 2, in a real browser (Debian's chromium driven by playwright-core) over the real API on the
 * embedded store: a 2 KB PDF whose page tree is a 23-level DAG (one page named 2^23 times) is never drawn, so
 * within a few seconds the signing page gives up on drawing it and shows the fallback — "cannot be shown",
 * the download link and "I have read the document", which enables "Sign" — instead of a disabled "Sign"
 * forever. The page is checked for CSP violations, script errors and requests leaving the origin.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { signatureRequestUrl, signingLink } from '../../../src/core/mail/mail-context.js';
import { chromiumSkip, launchChromium, recordPageProblems, webArtifactsDir } from '../../support/chromium.js';
import { testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { dagPageTreePdf } from '../../support/test-pdfs.js';
import { testWebAssets } from '../../support/web-bundle.js';
import { createRequest, openBench, requestBody, type Bench } from '../fixture.js';

const skip = chromiumSkip();
const artifacts = webArtifactsDir();
const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('the signing page with a document it cannot draw in time (chromium)', { skip }, () => {
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

  it('a 23-level DAG page tree: the fallback within seconds, and "Sign" once the signer acknowledges', async () => {
    const pdf = dagPageTreePdf(23);
    assert.ok(pdf.length < 4096, `${pdf.length} bytes`);
    const made = await createRequest(b, requestBody({ hashToSign: sha256(pdf) }));
    const upload = await b.app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${made.id}/file?fileName=dag.pdf`,
      headers: { ...b.auth, 'content-type': 'application/pdf' },
      payload: Buffer.from(pdf),
    });
    assert.equal(upload.statusCode, 200, upload.body);
    const link = signingLink(`${base}/sign`, signatureRequestUrl(base, made.id, made.signeeIds[0]!));

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    recordPageProblems(page, problems);
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== base) problems.push(`request left the origin: ${r.url()}`);
    });
    await page.goto(link);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#doc-check:not([hidden])');
    const opened = Date.now();
    assert.match((await page.textContent('#doc-check')) ?? '', /This is the document you sign/);
    assert.equal(await page.isDisabled('#sign-button'), true, 'not signable while the document is being drawn');

    await page.waitForSelector('#ack-field:not([hidden])', { timeout: 20_000 });
    const waited = Date.now() - opened;
    assert.ok(waited < 15_000, `the fallback came after ${waited} ms`);
    assert.match(
      (await page.textContent('#doc-problem')) ?? '',
      /^This document cannot be shown on this page \(it was not drawn within 8 seconds\)/,
    );
    assert.ok(await page.isHidden('#viewer'), 'the viewer is gone');
    assert.ok(await page.isVisible('#doc-link'), 'the document can be downloaded');
    assert.equal(await page.isDisabled('#sign-button'), true, 'not signable before the acknowledgement');
    await page.check('#ack');
    assert.equal(await page.isEnabled('#sign-button'), true);
    await page.screenshot({ path: path.join(artifacts, 'sign-slow-document-phone.png'), fullPage: true });
    await page.click('#sign-button');
    await page.waitForSelector('#done:not([hidden])');
    const view = await b.app.inject({ url: `/v1/signatureRequest/${made.id}`, headers: b.auth });
    assert.ok(view.json().authorizedSignees[0].signedOn, 'signed');
    await page.close();
  });
});
