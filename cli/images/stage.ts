import type { CardModel } from '../../templates/model.ts';
import { imageCacheFolder } from '../cache/file-cache.ts';
import { cachesOff } from '../cache/policy.ts';
import { pruneCache } from '../cache/prune.ts';
import { problemAt } from '../load/source.ts';
import { catalogued, hintOf, type Problem } from '../report/problem.ts';
import type { ImageRef } from '../validate/picture-refs.ts';
import { type ImageIndex, indexImages } from './index-images.ts';
import { planOf } from './picture.ts';
import type { PicturePlan } from './plan.ts';
import { type ImageSet, processImages } from './process-images.ts';
import { type CardSet, shareCards } from './share-cards.ts';

/** The files of every picture the content names, in every place it is shown (the ones the page models point to: picture.ts plans them alike). */
export function imagePlans(refs: readonly ImageRef[], index: ImageIndex): PicturePlan[] {
  return refs.filter((ref) => index.meta.has(ref.image.file)).flatMap((ref) => ref.uses.map((use) => planOf(index, ref.image, use)));
}

export interface PreparedImages {
  index: ImageIndex;
  /** The files of every picture (`imagePlans`): made into the cache here, written into the site by `writeImages`. */
  plans: PicturePlan[];
  /** A picture validate found fine but sharp cannot decode: at each place that names it. */
  problems: Problem[];
  encoded: ImageSet;
}

/**
 * The first half of the images stage, before anything is written: every picture the content names
 * read (`indexImages`) and each of its files made into the cache (processImages), so that a
 * picture that cannot be decoded stops the build as the content problem it is.
 */
export async function prepareImages(contentDir: string, refs: readonly ImageRef[]): Promise<PreparedImages> {
  const index = await indexImages(contentDir, refs);
  const plans = imagePlans(refs, index);
  const encoded = plans.length
    ? await processImages(plans, { bytes: (f) => index.bytes.get(f)!, cacheDir: imageCacheFolder('images'), readCache: !cachesOff() })
    : { files: [], encoded: 0, reused: 0, broken: new Map<string, string>() };
  const broken = new Map([...index.broken, ...encoded.broken]);
  const problems = refs
    .filter((r) => broken.has(r.image.file))
    .map((r) =>
      problemAt(
        r.source,
        [...r.path, 'file'],
        catalogued(
          'image-unsupported',
          { value: r.image.file, reason: broken.get(r.image.file)!.split('\n')[0] },
          { variant: 'undecodable', hint: hintOf('image-unsupported', {}, 'broken') },
        ),
      ),
    );
  return { index, plans, problems, encoded };
}

export interface ImagesOutput {
  images: ImageSet;
  cards: CardSet;
}

/**
 * The images stage of a build: every picture's files, then every page's share card (which shows
 * the course photos just written), into `outDir`. Both are cached by what they are made from, in
 * the compiler's cache folder; a site without pictures and without cards reads and writes nothing.
 * `cards`: what each page's card shows (a page taken over from the previous build has it in its record).
 */
export async function writeImages({ index, plans }: Pick<PreparedImages, 'index' | 'plans'>, cards: CardModel[], outDir: string): Promise<ImagesOutput> {
  // Made into the cache by this build's prepareImages (anew under STUDIO_NO_CACHE): copied from there (made again only where the cache could not be written).
  const images = plans.length
    ? await processImages(plans, { bytes: (f) => index.bytes.get(f)!, cacheDir: imageCacheFolder('images'), outDir, readCache: true })
    : { files: [], encoded: 0, reused: 0, broken: new Map<string, string>() };
  const drawn = cards.length
    ? await shareCards(cards, { cacheDir: imageCacheFolder('cards'), outDir, readCache: !cachesOff() })
    : { files: [], drawn: 0, reused: 0 };
  // Entries are named by their content: a week unused, or beyond twice what this site needs, they go.
  if (plans.length) pruneCache(imageCacheFolder('images'), Math.max(500, images.files.length * 2));
  if (cards.length) pruneCache(imageCacheFolder('cards'), Math.max(500, cards.length * 2));
  return { images, cards: drawn };
}
