import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes of a pixel: resvg's RGBA, written as it comes (the card is opaque: every alpha is 255). */
const PIXEL = 4;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Where row `y` of a picture `width` pixels wide starts in its PNG rows (each a filter byte, then its pixels). */
export const rowAt = (width: number, y: number) => y * (width * PIXEL + 1);

/**
 * RGBA pixels as the rows a PNG deflates, each byte less the one a pixel to its left (filter "Sub"):
 * a share card is mostly flat colour, so a row is mostly zeros, and a row the same as one above is a
 * repeat deflate finds. What share-cards.ts draws once for many cards (their ground).
 */
export function filterRows(rgba: Buffer, width: number, height: number): Buffer {
  const stride = width * PIXEL;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    const at = rowAt(width, y);
    rows[at] = 1;
    rgba.copy(rows, at + 1, from, from + PIXEL);
    for (let x = PIXEL; x < stride; x++) rows[at + 1 + x] = (rgba[from + x]! - rgba[from + x - PIXEL]!) & 0xff;
  }
  return rows;
}

/**
 * Row `y` of `rows` as `ground`'s row `y` (RGBA, `width` wide) with `part` (RGBA, of `partWidth`
 * pixels) over it from pixel `left`, unfiltered (filter "None"): two copies, no byte touched in
 * JavaScript (a card rewrites the rows of its text so, about a third of them).
 */
export function putRow(rows: Buffer, y: number, ground: Buffer, width: number, part: Buffer, left: number): void {
  const at = rowAt(width, y);
  const stride = width * PIXEL;
  rows[at] = 0;
  ground.copy(rows, at + 1, y * stride, (y + 1) * stride);
  part.copy(rows, at + 1 + left * PIXEL);
}

/**
 * An 8-bit RGBA PNG of `rows` (filterRows, putRow), deflated at level 3 by node's zlib: what each
 * level costs is in the README (level 3 takes about a quarter of level 6's time). No libvips to load
 * in a build without pictures.
 */
export function pngOf(rows: Buffer, width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 6; // RGBA
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 3 })), chunk('IEND', Buffer.alloc(0))]);
}
