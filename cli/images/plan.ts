import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Image } from '../schema/image.ts';
import { type Crop, cropFor, ENCODING, type ImageUse, USES } from '../schema/image-uses.ts';
import { versionOf } from './versions.ts';

/** What the build knows of an original picture: the hash of its bytes, and its size once turned upright (Exif orientation). */
export interface ImageMeta {
  /** sha256 of the file's bytes, hex. */
  hash: string;
  width: number;
  height: number;
}

export type Format = 'avif' | 'jpeg';
/**
 * In the order a `<picture>` offers them: the first the browser knows wins. No WebP: it would
 * serve only browsers without AVIF (iOS 15 and older), for as much CPU as the AVIF (README: what
 * each format costs); they take the JPEG.
 */
export const FORMATS: Format[] = ['avif', 'jpeg'];
export const MIME: Record<Format, string> = { avif: 'image/avif', jpeg: 'image/jpeg' };

/** One file the build writes: the original, cropped to `crop`, scaled to `width`×`height`, in `format`. */
export interface Variant {
  /** Site-relative path: images/<name>-<key>-<width>.<ext>. */
  path: string;
  format: Format;
  width: number;
  height: number;
  crop: Crop;
}

/** The files of one picture in one use: every width in every format. */
export interface PicturePlan {
  /** The original, relative to content/images/. */
  file: string;
  use: ImageUse;
  /** The size of the widest variant (for the img's width and height: no layout shift). */
  width: number;
  height: number;
  variants: Variant[];
}

let settingsKey: string | undefined;
/** Encoder settings and the encoder's versions: what a processed file depends on besides the original and the plan. */
export function encodingKey(): string {
  settingsKey ??= createHash('sha256')
    // "decoded once": versions are cut from one decoded copy of the original (process-images.ts), not each from the file.
    .update(JSON.stringify([ENCODING, USES, versionOf('sharp'), 'decoded once']))
    .digest('hex')
    .slice(0, 16);
  return settingsKey;
}

/**
 * The files of `image` shown as `use`: cropped around its focal point to the use's shape, at each
 * of the use's widths the original has (never enlarged; an original narrower than the smallest gets
 * its own width). Each name carries a key of the original's bytes, the crop and the settings:
 * a file of that name is the same picture, whichever build made it (processImages caches by name).
 */
export function planPicture(image: Pick<Image, 'file' | 'focus'>, meta: ImageMeta, use: ImageUse): PicturePlan {
  const spec = USES[use];
  const crop = cropFor(meta, spec.aspect, image.focus);
  const widths = spec.widths.filter((w) => w <= crop.width);
  if (widths.length === 0) widths.push(crop.width);
  const aspect = crop.width / crop.height;
  const key = createHash('sha256')
    .update(JSON.stringify([meta.hash, use, crop, encodingKey()]))
    .digest('base64url')
    .slice(0, 10)
    .replace(/[-_]/g, 'x');
  const stem = posix
    .basename(image.file)
    .replace(/\.[^.]+$/, '')
    .replace(/[^a-z0-9-]/g, '-');
  const variants = FORMATS.flatMap((format) =>
    widths.map(
      (width): Variant => ({
        path: `images/${stem}-${key}-${width}.${format === 'jpeg' ? 'jpg' : format}`,
        format,
        width,
        height: Math.round(width / aspect),
        crop,
      }),
    ),
  );
  const widest = variants.at(-1)!;
  return { file: image.file, use, width: widest.width, height: widest.height, variants };
}
