import type { CardModel } from '../../templates/model.ts';
import { cacheFolder, cachesOff } from '../cache/policy.ts';
import { pruneCache } from '../cache/prune.ts';
import type { Content } from '../validate/content.ts';
import type { ImageIndex } from './index-images.ts';
import { planOf } from './picture.ts';
import type { PicturePlan } from './plan.ts';
import { type ImageSet, processImages } from './process-images.ts';
import { imageRefs } from './refs.ts';
import { type CardSet, shareCards } from './share-cards.ts';

export { indexImages } from './index-images.ts';

/** The files of every picture the content names, in every place it is shown (the ones the page models point to: picture.ts plans them alike). */
export function imagePlans(content: Content, index: ImageIndex): PicturePlan[] {
  return imageRefs(content).flatMap((ref) => ref.uses.map((use) => planOf(index, ref.image, use)));
}

export interface ImagesOutput {
  images: ImageSet;
  cards: CardSet;
}

/**
 * The images stage of a build: every picture's files, then every page's share card (which shows
 * the course photos just written), into `outDir`. Both are cached by what they are made from, in
 * the compiler's cache folder; a site without pictures and without cards reads and writes nothing.
 */
export async function writeImages(content: Content, index: ImageIndex, cards: CardModel[], outDir: string): Promise<ImagesOutput> {
  const plans = imagePlans(content, index);
  const off = cachesOff();
  const images = plans.length
    ? await processImages(plans, { bytes: (f) => index.bytes.get(f)!, cacheDir: cacheFolder('images'), outDir, readCache: !off })
    : { files: [], encoded: 0, reused: 0 };
  const drawn = cards.length ? await shareCards(cards, { cacheDir: cacheFolder('cards'), outDir, readCache: !off }) : { files: [], drawn: 0, reused: 0 };
  // Entries are named by their content: a week unused, or beyond twice what this site needs, they go.
  if (plans.length) pruneCache(cacheFolder('images'), Math.max(500, images.files.length * 2));
  if (cards.length) pruneCache(cacheFolder('cards'), Math.max(500, cards.length * 2));
  return { images, cards: drawn };
}
