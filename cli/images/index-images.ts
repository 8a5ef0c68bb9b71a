import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import { readImageFile } from '../load/picture-file.ts';
import { InternalError } from '../report/problem.ts';
import { LIMIT } from '../schema/image-uses.ts';
import type { ImageRef } from '../validate/picture-refs.ts';
import { loadSharp } from './load-sharp.ts';
import type { ImageMeta } from './plan.ts';

/** The pictures the content names, as resolve needs them (pure: it reads no file), and their bytes for processImages. */
export interface ImageIndex {
  /** Changes when any picture's bytes change (for the page caches' inputs). */
  key: string;
  meta: Map<string, ImageMeta>;
  bytes: Map<string, Buffer>;
  /** Files whose header sharp could not read, with its reason (not in `meta`). */
  broken: Map<string, string>;
}

/**
 * What resolve needs of the pictures (each one's hash and size), without their bytes: sent to the
 * build's workers with the settings, and its digest (cli/incremental/digests.ts) is what a page that
 * shows a picture read of it.
 */
export type PictureSizes = Pick<ImageIndex, 'key' | 'meta'>;

/**
 * Reads every picture the content names (after validate: each is a readable picture), hashes its
 * bytes and reads its size upright. A site without pictures reads nothing.
 */
export async function indexImages(contentDir: string, refs: readonly ImageRef[]): Promise<ImageIndex> {
  const meta = new Map<string, ImageMeta>();
  const bytes = new Map<string, Buffer>();
  const broken = new Map<string, string>();
  const files = [...new Set(refs.map((r) => r.image.file))].sort();
  const sharp = files.length ? loadSharp() : undefined;
  for (const file of files) {
    const opened = readImageFile(contentDir, file);
    if (!opened.ok) throw new InternalError(`images/${file} was checked by validate, then could not be read (${opened.why})`);
    let info: Metadata;
    try {
      info = await sharp!(opened.bytes, { limitInputPixels: LIMIT.pixels }).metadata();
    } catch (error) {
      broken.set(file, (error as Error).message);
      continue;
    }
    const upright = (info.orientation ?? 1) >= 5;
    const width = upright ? info.height : info.width;
    const height = upright ? info.width : info.height;
    meta.set(file, { hash: createHash('sha256').update(opened.bytes).digest('hex'), width, height });
    bytes.set(file, opened.bytes);
  }
  const key = createHash('sha256')
    .update(JSON.stringify([...meta].map(([f, m]) => [f, m.hash])))
    .digest('hex')
    .slice(0, 16);
  return { key, meta, bytes, broken };
}
