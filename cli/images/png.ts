import { constants, crc32, deflateRawSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes of a pixel: RGB (the card is opaque: no alpha to write, a quarter less to deflate than RGBA). */
export const PIXEL = 3;

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
 * RGB pixels as the rows a PNG deflates, each byte less the one a pixel to its left (filter "Sub"):
 * a share card is mostly flat colour, so a row is mostly zeros, and a row the same as one above is a
 * repeat deflate finds. What share-cards.ts draws once for many cards (their ground).
 */
export function filterRows(rgb: Buffer, width: number, height: number): Buffer {
  const stride = width * PIXEL;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    const at = rowAt(width, y);
    // A row the same as the one above filters the same (a ground is mostly rows of one colour).
    if (y > 0 && rgb.compare(rgb, from - stride, from, from, from + stride) === 0) {
      rows.copy(rows, at, at - (stride + 1), at);
      continue;
    }
    rows[at] = 1;
    rgb.copy(rows, at + 1, from, from + PIXEL);
    for (let x = PIXEL; x < stride; x++) rows[at + 1 + x] = (rgb[from + x]! - rgb[from + x - PIXEL]!) & 0xff;
  }
  return rows;
}

/**
 * Rows `from` to `to` (excluded) of `rows` as those of `rgb` (RGB, `width` wide), unfiltered
 * (filter "None"): a copy per row, no byte touched in JavaScript (a card rewrites the rows of its
 * text so, about a third of them).
 */
export function putRows(rows: Buffer, rgb: Buffer, width: number, from: number, to: number): void {
  const stride = width * PIXEL;
  for (let y = from; y < to; y++) {
    const at = rowAt(width, y);
    rows[at] = 0;
    rgb.copy(rows, at + 1, y * stride, (y + 1) * stride);
  }
}

/** Rows deflated apart, so that a card deflates only the bands its letters touch (`deflateBands`). */
const BAND = 16;

/** PNG rows deflated in bands of BAND rows, each band on its own (a full flush: no reference back into another), and each band's Adler-32. */
export interface DeflatedRows {
  bands: Buffer[];
  adlers: number[];
  lengths: number[];
}

/** The Adler-32 of `bytes` from `from` to `to` (zlib's checksum of what it deflated). */
function adler32(bytes: Buffer, from: number, to: number): number {
  let a = 1;
  let b = 0;
  let i = from;
  while (i < to) {
    // 5552 bytes at most between reductions: the sums stay below 2^32 (zlib's NMAX), V8's small integers.
    const end = Math.min(to, i + 5552);
    for (; i + 4 <= end; i += 4) {
      a += bytes[i]!;
      b += a;
      a += bytes[i + 1]!;
      b += a;
      a += bytes[i + 2]!;
      b += a;
      a += bytes[i + 3]!;
      b += a;
    }
    for (; i < end; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return b * 65536 + a;
}

/** The Adler-32 of two pieces of data one after the other, from each one's and the second's length (zlib's adler32_combine). */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const BASE = 65521;
  const rem = secondLength % BASE;
  const a1 = first % 65536;
  const b1 = Math.floor(first / 65536);
  const a = (a1 + (second % 65536) + BASE - 1) % BASE;
  const b = (((rem * a1) % BASE) + b1 + Math.floor(second / 65536) + BASE - rem) % BASE;
  return b * 65536 + a;
}

/**
 * `rows` (filterRows, putRows) deflated at level 3 by node's zlib in bands of BAND rows; with
 * `like` (the same picture's bands, e.g. a card's ground) and `changed` (a flag per row), only the
 * bands with a changed row are deflated again, the others taken from `like`.
 */
export function deflateBands(rows: Buffer, width: number, height: number, like?: DeflatedRows, changed?: Uint8Array): DeflatedRows {
  const out: DeflatedRows = { bands: [], adlers: [], lengths: [] };
  for (let band = 0; band * BAND < height; band++) {
    const [top, bottom] = [band * BAND, Math.min(height, (band + 1) * BAND)];
    if (like && changed && !changed.subarray(top, bottom).includes(1)) {
      out.bands.push(like.bands[band]!);
      out.adlers.push(like.adlers[band]!);
      out.lengths.push(like.lengths[band]!);
      continue;
    }
    const [from, to] = [rowAt(width, top), rowAt(width, bottom)];
    out.bands.push(deflateRawSync(rows.subarray(from, to), { level: 3, finishFlush: constants.Z_FULL_FLUSH }));
    out.adlers.push(adler32(rows, from, to));
    out.lengths.push(to - from);
  }
  return out;
}

/**
 * An 8-bit RGB PNG of its deflated rows (`deflateBands`): one zlib stream, the bands one after the
 * other (each ends on a byte after a full flush), an empty last block, and the Adler-32 of all the
 * rows combined from the bands'. Level 3: what each level costs is in the README (level 3 takes
 * about a quarter of level 6's time). No libvips to load in a build without pictures.
 */
export function pngOf(deflated: DeflatedRows, width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  let adler = 1;
  for (const [i, band] of deflated.adlers.entries()) adler = adler32Combine(adler, band, deflated.lengths[i]!);
  const trailer = Buffer.alloc(6);
  trailer[0] = 0x03; // an empty final block (fixed codes, end of block)
  trailer.writeUInt32BE(adler, 2);
  // 0x78 0x5e: deflate, a 32 KiB window, "default-ish" level (zlib's header for levels 2 to 5).
  const stream = Buffer.concat([Buffer.from([0x78, 0x5e]), ...deflated.bands, trailer]);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', stream), chunk('IEND', Buffer.alloc(0))]);
}
