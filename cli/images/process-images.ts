import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ENCODING } from '../schema/image-uses.ts';
import { FileCache } from './cache-dir.ts';
import { loadSharp } from './load-sharp.ts';
import type { PicturePlan, Variant } from './plan.ts';

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

/** How many encodes run at once: sharp spreads each over libuv's threads already. */
const IN_FLIGHT = 2;

/**
 * Writes every variant of every plan into `outDir`: from the cache when a file of its name was
 * encoded before (the name is the key: original bytes, crop, settings, sharp's version), else
 * encoded now with sharp (turned upright, cropped, scaled; metadata such as GPS positions dropped)
 * and stored for the next build. A rebuild therefore encodes only what changed.
 */
export async function processImages(plans: PicturePlan[], options: ProcessOptions): Promise<ImageSet> {
  const cache = new FileCache(options.cacheDir, options.readCache ?? true);
  const byPath = new Map<string, { plan: PicturePlan; variant: Variant }>();
  for (const plan of plans) for (const variant of plan.variants) byPath.set(variant.path, { plan, variant });
  const files = [...byPath.keys()].sort();
  const missing = files.filter((path) => !cache.has(path));
  const broken = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      const { plan, variant } = byPath.get(missing[next++]!)!;
      if (broken.has(plan.file)) continue;
      try {
        cache.store(variant.path, await encode(options.bytes(plan.file), variant));
      } catch (error) {
        // A file whose first bytes looked right (validate read them) but whose picture data is cut off or damaged.
        broken.set(plan.file, (error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
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

/** One variant's bytes. */
export function encode(original: Buffer, v: Variant): Promise<Buffer> {
  const image = loadSharp()(original, { failOn: 'error' }).rotate().extract(v.crop).resize(v.width, v.height, { fit: 'fill' });
  if (v.format === 'avif') return image.avif(ENCODING.avif).toBuffer();
  if (v.format === 'webp') return image.webp(ENCODING.webp).toBuffer();
  return image.flatten({ background: '#ffffff' }).jpeg(ENCODING.jpeg).toBuffer();
}
