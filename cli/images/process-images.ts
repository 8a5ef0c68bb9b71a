import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { FileCache } from '../cache/file-cache.ts';
import { ENCODING, LIMIT } from '../schema/image-uses.ts';
import { loadSharp } from './load-sharp.ts';
import type { Format, PicturePlan, Variant } from './plan.ts';

export interface ProcessOptions {
  /** The original's bytes (ImageIndex.bytes). */
  bytes: (file: string) => Buffer;
  /** Where encoded files are kept between builds. */
  cacheDir: string;
  /** False: nothing is taken from the cache (STUDIO_NO_CACHE=1); what is made is still stored. */
  readCache?: boolean;
  /** The site's folder: every variant is written under it at its `path` (none: the variants are only made and cached). */
  outDir?: string;
}

export interface ImageSet {
  /** Site-relative paths written, in a stable order. */
  files: string[];
  /** Variants encoded by this call; the others came from the cache. */
  encoded: number;
  reused: number;
  /** Originals that could not be decoded, with sharp's reason: none of their files was made. */
  broken: Map<string, string>;
}

/**
 * How many originals are worked on at once: each one's versions are encoded together, and libvips
 * spreads each over its own threads; with as many originals as cores the cores stay busy while
 * one is being decoded.
 */
const IN_FLIGHT = () => Math.max(2, availableParallelism());

/**
 * Writes every variant of every plan into `outDir`: from the cache when a file of its name was
 * encoded before (the name is the key: original bytes, crop, settings, sharp's version), else
 * encoded now with sharp (turned upright, cropped, scaled; metadata such as GPS positions dropped)
 * and stored for the next build. A rebuild therefore encodes only what changed. Each original is
 * decoded once for all its versions (`decodeOnce`), not once per version.
 */
export async function processImages(plans: PicturePlan[], options: ProcessOptions): Promise<ImageSet> {
  const cache = new FileCache(options.cacheDir, options.readCache ?? true);
  const byPath = new Map<string, { plan: PicturePlan; variant: Variant }>();
  for (const plan of plans) for (const variant of plan.variants) byPath.set(variant.path, { plan, variant });
  const files = [...byPath.keys()].sort();
  const missing = files.filter((path) => !cache.has(path));
  const byOriginal = new Map<string, Variant[]>();
  for (const path of missing) {
    const { plan, variant } = byPath.get(path)!;
    byOriginal.set(plan.file, [...(byOriginal.get(plan.file) ?? []), variant]);
  }
  const queue = [...byOriginal];
  const broken = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const [file, variants] = queue[next++]!;
      try {
        const decoded = await decodeOnce(options.bytes(file), variants);
        await Promise.all(
          sameSize(variants).map(async (formats) => {
            const scaled = await scaleFrom(decoded, formats[0]!);
            await Promise.all(formats.map(async (v) => cache.store(v.path, await encodeScaled(scaled, v.format))));
          }),
        );
      } catch (error) {
        // A file whose first bytes looked right (validate read them) but whose picture data is cut off or damaged.
        broken.set(file, (error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT() }, worker));
  const set = { files, encoded: missing.length, reused: files.length - missing.length, broken };
  if (!options.outDir || broken.size) return set;
  for (const path of files) {
    const to = join(options.outDir, path);
    mkdirSync(dirname(to), { recursive: true });
    try {
      cache.placeAt(path, to);
    } catch {
      // The cache could not be written (or was pruned meanwhile by another build): encode once more, into the site.
      const { plan, variant } = byPath.get(path)!;
      writeFileSync(to, await encode(options.bytes(plan.file), variant));
    }
  }
  return set;
}

/** Pixels as libvips gives them out and takes them in. */
interface Raw {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/** An original decoded once, upright, as raw pixels at `scale` of its size (what its versions are cut from). */
interface Decoded extends Raw {
  scale: number;
}

/**
 * Decodes `original` once for `variants`: turned upright, and scaled down where every version is
 * at most half its size (a camera's original for versions of at most 1920 pixels: JPEG decodes
 * it at a fraction of its size), kept at twice the largest scale a version needs, so that each
 * version is still scaled down from it. `limitInputPixels` is the backstop behind validate's limit.
 */
async function decodeOnce(original: Buffer, variants: Variant[]): Promise<Decoded> {
  const sharp = loadSharp();
  const options = { failOn: 'error', limitInputPixels: LIMIT.pixels } as const;
  const meta = await sharp(original, options).metadata();
  const upright = (meta.orientation ?? 1) >= 5;
  const width = (upright ? meta.height : meta.width)!;
  const height = (upright ? meta.width : meta.height)!;
  const scale = Math.min(1, 2 * Math.max(...variants.map((v) => v.width / v.crop.width)));
  let image = sharp(original, options).rotate();
  if (scale < 1) image = image.resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: 'fill' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels }, scale: info.width / width };
}

/** Variants grouped by their crop and size: the formats of one version, scaled once for all of them. */
function sameSize(variants: Variant[]): Variant[][] {
  const groups = new Map<string, Variant[]>();
  for (const v of variants) {
    const key = JSON.stringify([v.crop, v.width, v.height]);
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  return [...groups.values()];
}

/** Raw pixels of one version: its crop of the original decoded once, scaled to its size. */
async function scaleFrom(decoded: Decoded, v: Variant): Promise<Raw> {
  const { data, info, scale } = decoded;
  const left = Math.min(info.width - 1, Math.round(v.crop.left * scale));
  const top = Math.min(info.height - 1, Math.round(v.crop.top * scale));
  const crop = {
    left,
    top,
    width: Math.max(1, Math.min(info.width - left, Math.round(v.crop.width * scale))),
    height: Math.max(1, Math.min(info.height - top, Math.round(v.crop.height * scale))),
  };
  const scaled = await loadSharp()(data, { raw: info }).extract(crop).resize(v.width, v.height, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  return { data: scaled.data, info: { width: scaled.info.width, height: scaled.info.height, channels: scaled.info.channels } };
}

/** One version's bytes in `format`, from its raw pixels. */
function encodeScaled({ data, info }: Raw, format: Format): Promise<Buffer> {
  const image = loadSharp()(data, { raw: info });
  if (format === 'avif') return image.avif(ENCODING.avif).toBuffer();
  return image.flatten({ background: '#ffffff' }).jpeg(ENCODING.jpeg).toBuffer();
}

/** One variant's bytes (a picture of `content dev`, or one the cache could not keep). */
export async function encode(original: Buffer, v: Variant): Promise<Buffer> {
  return encodeScaled(await scaleFrom(await decodeOnce(original, [v]), v), v.format);
}
