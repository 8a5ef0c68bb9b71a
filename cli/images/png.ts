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

/** Rows deflated apart, so that a card deflates only the bands its letters touch (`deflateBands`). */
export const BAND = 16;

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
 * Row `y` of `rows` (filterRows: "Sub") as that of `rgb` where pixels `from` to `to` (excluded)
 * changed: the filtered bytes of those pixels and of the one after them (its difference to its
 * left changed) written again, the others left as they are. `sums` (two numbers per band) gathers
 * how the changed bytes move the band's Adler-32: its sum, and its sum weighted by how far each
 * byte is from the band's end (`deflateBands` finds the band's checksum from them).
 */
export function refilter(rows: Buffer, rgb: Buffer, width: number, height: number, y: number, from: number, to: number, sums: Float64Array): void {
  const stride = width * PIXEL;
  const band = Math.floor(y / BAND);
  const bandAt = rowAt(width, band * BAND);
  const bandLength = rowAt(width, Math.min(height, (band + 1) * BAND)) - bandAt;
  const at = rowAt(width, y) + 1;
  const pixels = y * stride;
  let [a, b] = [0, 0];
  for (let x = Math.max(0, from * PIXEL), end = Math.min(stride, (to + 1) * PIXEL); x < end; x++) {
    const value = x < PIXEL ? rgb[pixels + x]! : (rgb[pixels + x]! - rgb[pixels + x - PIXEL]!) & 0xff;
    const change = value - rows[at + x]!;
    if (change === 0) continue;
    rows[at + x] = value;
    a += change;
    b += (bandLength - (at + x - bandAt)) * change;
  }
  sums[band * 2] = sums[band * 2]! + a;
  sums[band * 2 + 1] = sums[band * 2 + 1]! + b;
}

const mod = (n: number) => ((n % 65521) + 65521) % 65521;

/**
 * `rows` (filterRows) deflated at level 3 by node's zlib in bands of BAND rows; with `like` (the
 * same picture's bands before `refilter` changed some rows, e.g. a card's ground), `sums` (what
 * `refilter` gathered) and `changed` (a flag per band), only the bands from the first changed to
 * the last are deflated again, a changed band's Adler-32 that of `like`'s band moved by the sums;
 * the others are taken from `like`.
 */
export function deflateBands(rows: Buffer, width: number, height: number, like?: DeflatedRows, sums?: Float64Array, changed?: Uint8Array): DeflatedRows {
  const out: DeflatedRows = { bands: [], adlers: [], lengths: [] };
  const count = Math.ceil(height / BAND);
  const at = (band: number) => rowAt(width, Math.min(height, band * BAND));
  if (like && sums && changed) {
    // From the first band a card changed to its last, deflated as one (node's zlib costs about 0.25 ms to start a stream, more than a band of one colour takes).
    const [first, last] = [changed.indexOf(1), changed.lastIndexOf(1)];
    for (let band = 0; band < count; band++) {
      const was = like.adlers[band]!;
      const inside = first >= 0 && band >= first && band <= last;
      out.bands.push(!inside ? like.bands[band]! : band === first ? deflate(rows.subarray(at(first), at(last + 1))) : EMPTY);
      out.adlers.push(changed[band] ? mod(Math.floor(was / 65536) + sums[band * 2 + 1]!) * 65536 + mod((was % 65536) + sums[band * 2]!) : was);
      out.lengths.push(like.lengths[band]!);
    }
    return out;
  }
  for (let band = 0; band < count; band++) {
    const [from, to] = [at(band), at(band + 1)];
    // A band the same as the one before (a ground of one colour) is deflated once.
    if (band > 0 && to - from === out.lengths[band - 1] && rows.compare(rows, at(band - 1), from, from, to) === 0) {
      out.bands.push(out.bands[band - 1]!);
      out.adlers.push(out.adlers[band - 1]!);
    } else {
      out.bands.push(deflate(rows.subarray(from, to)));
      out.adlers.push(adler32(rows, from, to));
    }
    out.lengths.push(to - from);
  }
  return out;
}
const EMPTY = Buffer.alloc(0);
/** Deflated at level 3, ending on a full flush: the next band's data may follow it in the same stream. */
const deflate = (bytes: Buffer) => deflateRawSync(bytes, { level: 3, finishFlush: constants.Z_FULL_FLUSH });

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
