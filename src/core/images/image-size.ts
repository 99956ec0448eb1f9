/**
 * The size of a PNG or JPEG read from its header, before anything decodes it: a file small on the wire may
 * say 16000×16000 pixels, and decoding it (pdf-lib's `embedPng`, a browser showing the logo) costs gigabytes.
 * PNG: the IHDR chunk, first after the signature. JPEG: the first start-of-frame segment (SOF0–SOF15 but
 * DHT, JPG and DAC), reached by walking the segments' lengths.
 */

export interface ImageSize {
  readonly type: 'png' | 'jpeg';
  readonly width: number;
  readonly height: number;
}

/** The largest side (pixels) and area of a branding image: a logo is drawn 120×48 points, an illustration 140×56. */
export const MAX_IMAGE_SIDE = 4096;
export const MAX_IMAGE_PIXELS = 4096 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = 0x49484452;

/** The type and size the header says; null when it is neither a PNG nor a JPEG with a readable header. */
export function imageSizeOf(bytes: Uint8Array): ImageSize | null {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return pngSize(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegSize(bytes);
  return null;
}

/** Why an image of this size is refused (too wide, too high, too many pixels), or null when it fits. */
export function imageSizeRefusal(size: ImageSize): string | null {
  const { width, height } = size;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS)
    return `the image is ${width}×${height} pixels; at most ${MAX_IMAGE_SIDE} on a side and ${MAX_IMAGE_PIXELS} pixels in all`;
  return null;
}

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

function pngSize(b: Uint8Array): ImageSize | null {
  if (b.length < 24 || u32(b, 12) !== IHDR) return null;
  const width = u32(b, 16);
  const height = u32(b, 20);
  return width === 0 || height === 0 ? null : { type: 'png', width, height };
}

/** Start-of-frame markers: 0xC0–0xCF but 0xC4 (DHT), 0xC8 (JPG) and 0xCC (DAC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
/** Markers that stand alone, without a length: TEM and RST0–RST7 (SOI was read already). */
const standsAlone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 3 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (standsAlone(marker)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame
    const length = u16(b, at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > b.length) return null;
      const height = u16(b, at + 5);
      const width = u16(b, at + 7);
      return width === 0 || height === 0 ? null : { type: 'jpeg', width, height };
    }
    at += 2 + length;
  }
  return null;
}
