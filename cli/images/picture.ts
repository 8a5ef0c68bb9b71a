import type { Picture, Text } from '../../templates/model.ts';
import { InternalError } from '../report/problem.ts';
import type { Image } from '../schema/image.ts';
import { type ImageUse, USES } from '../schema/image-uses.ts';
import type { PictureSizes } from './index-images.ts';
import { FORMATS, MIME, type PicturePlan, planPicture } from './plan.ts';

/** What resolve needs to turn a content image into a picture of a page: the index of the originals and the page's translator. */
export interface PictureContext {
  images?: PictureSizes;
  tx: (value: NonNullable<Image['alt']>) => Text;
}

/** The plan of a picture in one use (the files the images stage writes for it). */
export function planOf(images: PictureSizes | undefined, image: Image, use: ImageUse): PicturePlan {
  const meta = images?.meta.get(image.file);
  if (!meta) throw new InternalError(`images/${image.file} is not in the build's image index`);
  return planPicture(image, meta, use);
}

/**
 * A content image as the templates show it in `use`: sources in every format at every width, the
 * JPEG as the fallback. `priority`: the first picture on screen (the others load lazily).
 * Without an image index (a caller that processes no pictures) a page shows none.
 */
export function picture(ctx: PictureContext, image: Image | undefined, use: ImageUse, priority = false): Picture | undefined {
  // Without the file's size (sharp could not read it: the build stops for that, `content dev` shows the page without it).
  if (!image || !ctx.images?.meta.has(image.file)) return undefined;
  const plan = planOf(ctx.images, image, use);
  const srcSet = (format: (typeof FORMATS)[number]) =>
    plan.variants
      .filter((v) => v.format === format)
      .map((v) => `/${v.path} ${v.width}w`)
      .join(', ');
  const jpeg = plan.variants.filter((v) => v.format === 'jpeg').at(-1)!;
  return {
    src: `/${jpeg.path}`,
    srcSet: srcSet('jpeg'),
    sources: FORMATS.filter((f) => f !== 'jpeg').map((f) => ({ type: MIME[f], srcSet: srcSet(f) })),
    sizes: USES[use].sizes,
    width: plan.width,
    height: plan.height,
    alt: image.decorative || !image.alt ? { text: '' } : ctx.tx(image.alt),
    priority,
  };
}
