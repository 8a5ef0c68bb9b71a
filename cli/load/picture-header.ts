/**
 * The format and size of a picture, read from the first bytes of its file: what `validate` needs
 * to name a file that is not a picture, or one too small, without decoding it (validate is
 * synchronous; the build decodes with sharp, which also reports a file broken further in).
 */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif';

export type Header = { format: ImageFormat; width: number; height: number } | { format: ImageFormat | undefined; broken: true };

/** How many bytes of a file `readHeader` needs at most (an AVIF's size box may come after its other boxes; a JPEG's after its Exif data). */
export const HEADER_BYTES = 256 * 1024;

export function readHeader(b: Buffer): Header | undefined {
  const format = sniff(b);
  if (!format) return undefined;
  const size = format === 'png' ? png(b) : format === 'jpeg' ? jpeg(b) : format === 'webp' ? webp(b) : avif(b);
  return size && size.width > 0 && size.height > 0 ? { format, ...size } : { format, broken: true };
}

function sniff(b: Buffer): ImageFormat | undefined {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]$/.test(b.toString('latin1', 8, 12))) return 'avif';
  return undefined;
}

type Size = { width: number; height: number } | undefined;

const png = (b: Buffer): Size =>
  b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : undefined;

/** The first start-of-frame segment (not DHT, JPG or DAC, which share its marker range). */
function jpeg(b: Buffer): Size {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    if (length < 2) return undefined;
    i += 2 + length;
  }
  return undefined;
}

function webp(b: Buffer): Size {
  if (b.length < 30) return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ' && b.readUIntBE(23, 3) === 0x9d012a) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** The `ispe` (image spatial extent) property of the primary item: good enough for a still AVIF. */
function avif(b: Buffer): Size {
  const at = b.indexOf('ispe', 0, 'latin1');
  if (at < 0 || at + 16 > b.length) return undefined;
  return { width: b.readUInt32BE(at + 8), height: b.readUInt32BE(at + 12) };
}
