/**
 * The service's icon, served as /favicon.ico (browsers ask every origin for it): a 16×16 ICO holding one
 * 32-bit BMP, drawn here from a text picture so no binary file sits in the repository. A white check mark on
 * the pages' accent blue, in a square with cut corners.
 */

const PICTURE = [
  '.##############.',
  '################',
  '################',
  '################',
  '#############oo#',
  '############ooo#',
  '###########ooo##',
  '##o#######ooo###',
  '##ooo####ooo####',
  '###ooo##ooo#####',
  '####oooooo######',
  '#####oooo#######',
  '######oo########',
  '################',
  '################',
  '.##############.',
];
const SIZE = 16;
/** BGRA of each character: transparent, accent blue (#0b57d0, as --ps-accent), white. */
const COLOURS: Readonly<Record<string, readonly number[]>> = {
  '.': [0, 0, 0, 0],
  '#': [0xd0, 0x57, 0x0b, 0xff],
  o: [0xff, 0xff, 0xff, 0xff],
};

function buildIco(): Uint8Array {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // the AND mask: 1 bit a pixel, rows padded to 4 bytes; all 0 (the alpha decides)
  const image = 40 + pixels + mask;
  const out = new Uint8Array(6 + 16 + image);
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  out.set([SIZE, SIZE, 0, 0], 6);
  view.setUint16(10, 1, true); // planes
  view.setUint16(12, 32, true); // bits a pixel
  view.setUint32(14, image, true);
  view.setUint32(18, 22, true); // where the image starts
  view.setUint32(22, 40, true); // BITMAPINFOHEADER
  view.setInt32(26, SIZE, true);
  view.setInt32(30, SIZE * 2, true); // the height counts the colour rows and the mask rows
  view.setUint16(34, 1, true);
  view.setUint16(36, 32, true);
  view.setUint32(42, pixels + mask, true);
  // BMP rows go from the bottom up.
  PICTURE.forEach((row, y) => {
    for (let x = 0; x < SIZE; x++) out.set(COLOURS[row[x]!]!, 62 + ((SIZE - 1 - y) * SIZE + x) * 4);
  });
  return out;
}

/** The bytes of /favicon.ico. */
export const FAVICON_ICO: Uint8Array = buildIco();
