import { readFileSync } from 'node:fs';
import type { PageModel } from '../../templates/model.ts';
import { FileCache, imageCacheFolder } from '../cache/file-cache.ts';
import type { ImageRef } from '../validate/picture-refs.ts';
import { type ImageIndex, indexImages } from './index-images.ts';
import { MIME, type PicturePlan, type Variant } from './plan.ts';
import { encode } from './process-images.ts';
import { drawCard } from './share-cards.ts';
import { imagePlans } from './stage.ts';

/**
 * The pictures of `content dev`: each file encoded when a browser first asks for it (and kept in
 * the build's cache, so the next build takes it from there), and a page's share card drawn on
 * request. `refresh` after each save that validated.
 */
export class ImagePreview {
  private variants = new Map<string, { plan: PicturePlan; variant: Variant }>();
  private index: ImageIndex | undefined;
  private readonly cache = new FileCache(imageCacheFolder('images'));

  constructor(private readonly contentDir: string) {}

  /** Reads the pictures the content names again; the index the pages are to be resolved with. */
  async refresh(refs: readonly ImageRef[]): Promise<ImageIndex> {
    const index = await indexImages(this.contentDir, refs);
    const variants = new Map<string, { plan: PicturePlan; variant: Variant }>();
    for (const plan of imagePlans(refs, index)) for (const variant of plan.variants) variants.set(`/${variant.path}`, { plan, variant });
    [this.index, this.variants] = [index, variants];
    return index;
  }

  /** A picture's file by its URL path (`/images/…`), or undefined for a path that is none. */
  async image(pathname: string): Promise<{ type: string; body: Buffer } | undefined> {
    const found = this.variants.get(pathname);
    const index = this.index;
    if (!found || !index) return undefined;
    const name = found.variant.path;
    let body: Buffer;
    try {
      body = readFileSync(this.cache.path(name));
    } catch {
      body = await encode(index.bytes.get(found.plan.file)!, found.variant);
      this.cache.store(name, body);
    }
    return { type: MIME[found.variant.format], body };
  }

  /** The share card of a page, as the build draws it. */
  async card(page: PageModel): Promise<Buffer | undefined> {
    if (!page.card) return undefined;
    const files = new Map<string, Buffer>();
    for (const path of [page.card.photo, page.card.logo]) if (path) files.set(path, (await this.image(`/${path}`))!.body);
    return drawCard(page.card, (path) => files.get(path)!);
  }
}
