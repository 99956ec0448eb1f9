/**
 * Branding images for the attestation: fetched through the real safe fetch from a local server, cached (one
 * request for many reads, a failure kept for a tenth of the time), only PNG/JPEG; an internal address is
 * refused by the guard without any request. Colours of the branding variables read as CSS colours.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { rgb } from '@cantoo/pdf-lib';
import QRCode from 'qrcode';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { cssColor } from '../../../src/adapters/pdf/css-color.js';
import { sampleAttestationModel } from '../../support/attestation-model.js';
import { blackPng, jpegHeader } from '../../support/crafted-images.js';

/** 6000×6000 pixels (36 M, over the bound) in about 35 KB: pdf-lib's embedPng decodes it in seconds, hundreds of MB. */
const BOMB = blackPng(6000, 6000);
const HUGE_JPEG = jpegHeader(16000, 16000);

/** How many image XObjects a PDF written without object streams holds. */
const imageCount = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1').split('/Subtype /Image').length - 1;

describe('branding images and colours', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];

  before(async () => {
    const png = await QRCode.toBuffer('logo', { type: 'png' });
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/bomb.png') res.writeHead(200, { 'content-type': 'image/png' }).end(BOMB);
      else if (req.url === '/huge.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(HUGE_JPEG);
      else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('fetches a PNG once, then serves it from the cache until it expires', async () => {
    let now = 0;
    const images = cachedBrandImages(createSafeFetch({ allowPrivateUrls: true }), { ttlMs: 1000, now: () => now });
    const first = await images.get(`${base}/logo.png`);
    assert.equal(first?.type, 'png');
    assert.deepEqual(await images.get(`${base}/logo.png`), first);
    assert.equal(hits.filter((h) => h === '/logo.png').length, 1);
    now = 1001;
    await images.get(`${base}/logo.png`);
    assert.equal(hits.filter((h) => h === '/logo.png').length, 2);
  });

  it('a missing image or one that is not PNG/JPEG gives null, kept for a tenth of the time', async () => {
    let now = 0;
    const images = cachedBrandImages(createSafeFetch({ allowPrivateUrls: true }), { ttlMs: 1000, now: () => now });
    assert.equal(await images.get(`${base}/page.html`), null);
    assert.equal(await images.get(`${base}/missing.png`), null);
    await images.get(`${base}/page.html`);
    assert.equal(hits.filter((h) => h === '/page.html').length, 1);
    now = 101;
    await images.get(`${base}/page.html`);
    assert.equal(hits.filter((h) => h === '/page.html').length, 2);
  });

  it('the guard refuses an internal address before any request; no HTTP client, no image', async () => {
    const before = hits.length;
    const guarded = cachedBrandImages(createSafeFetch({ allowPrivateUrls: false }));
    assert.equal(await guarded.get(`${base}/logo.png`), null);
    assert.equal(await guarded.get('http://169.254.169.254/latest/meta-data'), null);
    assert.equal(await cachedBrandImages(undefined).get(`${base}/logo.png`), null);
    assert.equal(hits.length, before);
  });

  it('an image whose header says more than the bound is never decoded: no image, and check says why', async () => {
    const images = cachedBrandImages(createSafeFetch({ allowPrivateUrls: true }));
    assert.ok(BOMB.length < 64 * 1024, `small on the wire: ${BOMB.length} bytes`);
    const started = performance.now();
    assert.equal(await images.get(`${base}/bomb.png`), null);
    assert.equal(await images.get(`${base}/huge.jpg`), null);
    assert.ok(performance.now() - started < 1000, 'read from the header, not decoded');
    assert.deepEqual(await images.check(`${base}/bomb.png`), {
      kind: 'too-large',
      refusal: 'the image is 6000×6000 pixels; at most 4096 on a side and 4194304 pixels in all',
    });
    const jpeg = await images.check(`${base}/huge.jpg`);
    assert.match(jpeg.kind === 'too-large' ? jpeg.refusal : jpeg.kind, /16000×16000/);
    assert.equal(hits.filter((h) => h === '/bomb.png').length, 1, 'the check and the image share one fetch');
    const logo = await images.check(`${base}/logo.png`);
    assert.equal(logo.kind, 'image');
    assert.deepEqual(await images.check(`${base}/page.html`), { kind: 'unavailable' });
  });

  it('the renderer skips an image over the bound that reaches it (the fallback is drawn), within a second', async () => {
    const model = sampleAttestationModel('{}');
    const render = (logo: { type: 'png' | 'jpeg'; bytes: Uint8Array }) =>
      pdfAttestationRenderer().render({ ...model, branding: { ...model.branding, logo, logoWanted: true } });
    const fine = await render({ type: 'png', bytes: await QRCode.toBuffer('logo', { type: 'png' }) });
    assert.equal(imageCount(fine), 1, 'an image within the bound is drawn');
    const started = performance.now();
    const pdf = await render({ type: 'png', bytes: BOMB });
    assert.ok(performance.now() - started < 1000, `rendered in ${Math.round(performance.now() - started)} ms`);
    assert.equal(imageCount(pdf), 0, 'the bomb is not embedded');
    assert.ok(Buffer.from(pdf).toString('latin1').length > 1000);
    assert.equal(imageCount(await render({ type: 'jpeg', bytes: HUGE_JPEG })), 0);
    assert.equal(imageCount(await render({ type: 'jpeg', bytes: BOMB })), 0, 'a PNG given as a JPEG');
  });

  it('CSS colours: hex, short hex, rgb(), names; anything else falls back', () => {
    const fallback = rgb(0.5, 0.5, 0.5);
    assert.deepEqual(cssColor('#ff0000', fallback), rgb(1, 0, 0));
    assert.deepEqual(cssColor('#0f0', fallback), rgb(0, 1, 0));
    assert.deepEqual(cssColor('rgb(0, 0, 255)', fallback), rgb(0, 0, 1));
    assert.deepEqual(cssColor(' Navy ', fallback), rgb(0, 0, 128 / 255));
    for (const bad of ['#12345', 'hsl(0 100% 50%)', 'url(x)', null])
      assert.deepEqual(cssColor(bad, fallback), fallback);
  });
});
