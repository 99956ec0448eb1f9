/**
 * Branding images for the attestation: fetched through the real safe fetch from a local server, cached (one
 * request for many reads, a failure kept for a tenth of the time), only PNG/JPEG; an internal address is
 * refused by the guard without any request. Colours of the branding variables read as CSS colours.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { rgb } from 'pdf-lib';
import QRCode from 'qrcode';
import { createSafeFetch } from '../../src/adapters/net/safe-fetch.js';
import { cachedBrandImages, imageTypeOf } from '../../src/adapters/pdf/brand-images.js';
import { cssColor } from '../../src/adapters/pdf/css-color.js';

describe('branding images and colours', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];

  before(async () => {
    const png = await QRCode.toBuffer('logo', { type: 'png' });
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
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

  it('image types by their first bytes', () => {
    assert.equal(imageTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])), 'jpeg');
    assert.equal(imageTypeOf(Uint8Array.from([0x47, 0x49, 0x46, 0x38])), null);
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
