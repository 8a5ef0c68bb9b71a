/**
 * The format and size of a picture, read from the first bytes of its file: what `validate` needs
 * to name a file that is not a picture, or one too small, without decoding it (validate is
 * synchronous; the build decodes with sharp, which also reports a file broken further in).
 */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif';

/** Files editors name as pictures that the build cannot read, each with what to export instead. */
export type OtherFormat = 'svg' | 'heic' | 'pdf' | 'gif' | 'tiff';

export type Header =
  | { format: ImageFormat; width: number; height: number }
  | { format: ImageFormat | undefined; broken: true }
  /** A JPEG whose segments (Exif, a camera's preview) run past the bytes read: its frame comes after `more` bytes. */
  | { format: 'jpeg'; more: number }
  | { other: OtherFormat };

/** How many bytes of a file `readHeader` is given first (an AVIF's size box may come after its other boxes; a JPEG's after its Exif data). */
export const HEADER_BYTES = 256 * 1024;
/** How far into a JPEG its frame may come (after Exif, XMP, ICC and a camera's previews; each segment is at most 64 KB, a camera writes a few MB). */
export const JPEG_FRAME_WITHIN = 32 * 1024 * 1024;

export function readHeader(b: Buffer): Header | undefined {
  const format = sniff(b);
  if (!format) {
    const other = sniffOther(b);
    return other ? { other } : undefined;
  }
  const size = format === 'png' ? png(b) : format === 'jpeg' ? jpeg(b) : format === 'webp' ? webp(b) : avif(b);
  if (size && 'more' in size) return { format: 'jpeg', more: size.more };
  return size && size.width > 0 && size.height > 0 ? { format, ...size } : { format, broken: true };
}

/** The formats a phone, a drawing program or a scanner writes that are not pictures the build reads. */
function sniffOther(b: Buffer): OtherFormat | undefined {
  const start = b.toString('latin1', 0, Math.min(b.length, 1024));
  if (start.startsWith('%PDF-')) return 'pdf';
  if (/^\s*(?:\ufeff)?(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(b.toString('utf8', 0, Math.min(b.length, 4096))))
    return 'svg';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp' && /^(?:heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(b.toString('latin1', 8, 12)))
    return 'heic';
  if (start.startsWith('GIF87a') || start.startsWith('GIF89a')) return 'gif';
  if (start.startsWith('II*\0') || start.startsWith('MM\0*')) return 'tiff';
  return undefined;
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

/**
 * The first start-of-frame segment (not DHT, JPG or DAC, which share its marker range), or, when
 * the segments before it run past the bytes given, how many bytes would hold it.
 */
function jpeg(b: Buffer): Size | { more: number } {
  let i = 2;
  for (;;) {
    if (i + 9 >= b.length) return { more: i + 2 + 0xffff };
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
