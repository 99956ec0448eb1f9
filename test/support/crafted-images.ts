/** PNG and JPEG files built byte by byte, saying whatever size a test needs (branding images, issue 32 row 7). */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A grey 8-bit PNG of `width`×`height` pixels, all black: a valid image that any decoder decodes in full, while
 * its deflated rows make it small on the wire (6000×6000 is about 35 KB and decodes to 36 MB and more).
 */
export function blackPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // bit depth 8, greyscale, deflate, no filter method, no interlace
  const rows = deflateSync(Buffer.alloc((width + 1) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's segment: marker, length, data. */
function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/**
 * The segments of a JPEG up to its frame header saying `width`×`height` (no scan: only the header is read):
 * JFIF and Exif segments, a Huffman table, fill bytes, then SOF0 (baseline) or SOF2 (progressive).
 */
export function jpegHeader(width: number, height: number, frame: 0xc0 | 0xc2 = 0xc0): Buffer {
  const sof = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.alloc(300, 0xc0)])),
    segment(0xc4, Buffer.alloc(20)),
    Buffer.from([0xff, 0xff]),
    segment(frame, sof),
    Buffer.from([0xff, 0xd9]),
  ]);
}
