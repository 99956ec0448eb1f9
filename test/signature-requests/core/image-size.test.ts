/** The size of a PNG or JPEG read from its header, never decoded, and the bound on branding images (issue 32 row 7). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import QRCode from 'qrcode';
import {
  imageSizeOf,
  imageSizeRefusal,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
} from '../../../src/core/images/image-size.js';
import { blackPng, jpegHeader } from '../../support/crafted-images.js';

describe('image sizes from headers', () => {
  it('reads a real PNG and a PNG that says 16000×16000', async () => {
    const qr = await QRCode.toBuffer('logo', { type: 'png', width: 96 });
    assert.deepEqual(imageSizeOf(qr), { type: 'png', width: 96, height: 96 });
    const huge = Buffer.from(blackPng(1, 1));
    huge.writeUInt32BE(16000, 16);
    huge.writeUInt32BE(16000, 20);
    assert.deepEqual(imageSizeOf(huge), { type: 'png', width: 16000, height: 16000 });
  });

  it('walks a JPEG past JFIF, Exif, a Huffman table and fill bytes to its frame, baseline or progressive', () => {
    assert.deepEqual(imageSizeOf(jpegHeader(640, 480)), { type: 'jpeg', width: 640, height: 480 });
    assert.deepEqual(imageSizeOf(jpegHeader(16000, 16000, 0xc2)), { type: 'jpeg', width: 16000, height: 16000 });
  });

  it('has no size for what is not a readable PNG or JPEG header', () => {
    const gif = Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1');
    const png = blackPng(4, 4);
    const jpeg = jpegHeader(64, 64);
    const noFrame = Buffer.concat([jpeg.subarray(0, 20), Buffer.from([0xff, 0xda, 0, 2])]);
    const heightLater = jpegHeader(64, 0); // the height would come in a DNL segment
    for (const bytes of [gif, png.subarray(0, 20), jpeg.subarray(0, 10), noFrame, heightLater, Buffer.alloc(0)])
      assert.equal(imageSizeOf(bytes), null);
    const notIhdr = Buffer.from(png);
    notIhdr.write('IDAT', 12, 'latin1');
    assert.equal(imageSizeOf(notIhdr), null, 'a PNG whose first chunk is not IHDR');
  });

  it('refuses more than the side or the area allows, and says the size', () => {
    const ok = (width: number, height: number) => imageSizeRefusal({ type: 'png', width, height });
    assert.equal(ok(MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE), null);
    assert.equal(ok(2048, 2048), null);
    assert.match(ok(MAX_IMAGE_SIDE + 1, 1)!, /4097×1 pixels/);
    assert.match(ok(1, MAX_IMAGE_SIDE + 1)!, /at most 4096 on a side/);
    assert.match(ok(MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE + 1)!, /4194304 pixels in all/);
    assert.match(ok(16000, 16000)!, /16000×16000/);
  });
});
