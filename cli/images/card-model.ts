import type { CardModel, PageModel, PriceText, Text } from '../../templates/model.ts';
import type { Locale } from '../locales.ts';
import type { Image } from '../schema/image.ts';
import { isPlaceholder } from '../schema/layout.ts';
import type { PictureSizes } from './index-images.ts';
import { planOf } from './picture.ts';

/** The share card's size: what Facebook, Telegram and WhatsApp show without cropping. */
export const CARD = { width: 1200, height: 630 } as const;

/**
 * A card's file format: a card with a course's photo is a JPEG (quality 85, colours not subsampled:
 * about a tenth of its PNG, which at 300 KB and more WhatsApp does not show), one of flat colours
 * and letters a PNG (smaller than a JPEG, and sharp edges).
 */
export const cardFormat = (photo: boolean) => (photo ? 'jpg' : 'png');

/** What a page kind adds to its card: a course's age group, price and photo. */
export interface CardExtras {
  age?: Text;
  price?: PriceText;
  photo?: Image;
}

export interface CardContext {
  locale: Locale;
  siteName: string;
  images?: PictureSizes;
  logo?: Image;
  /** site.yaml's `shareCards` (default true). */
  enabled: boolean;
  absolute: (path: string) => string;
}

/**
 * The card of a page and its `og:image`: none for a page not to be shared (not found, thank you)
 * or when the site makes no cards. Pure: the PNG is drawn later from `card` (share-cards.ts).
 */
export function cardOf(
  ctx: CardContext,
  page: { file: string; title: Text; noindex: boolean },
  extras: CardExtras = {},
): Pick<PageModel, 'card'> & { image?: NonNullable<PageModel['og']['image']> } {
  // A card shows only facts: no placeholder ("TODO: …"), not even the title's; the studio's name, an age or a price still to be given is left out.
  if (!ctx.enabled || page.noindex || isPlaceholder(page.title.text)) return {};
  const known = (text: string | undefined) => (text && !isPlaceholder(text) ? text : undefined);
  const siteName = known(ctx.siteName);
  const jpeg = (image: Image | undefined, use: 'courseCard' | 'logo') => {
    if (!image || !ctx.images?.meta.has(image.file)) return undefined;
    return planOf(ctx.images, image, use)
      .variants.filter((v) => v.format === 'jpeg')
      .at(-1)!.path;
  };
  const price = extras.price && known(extras.price.amount.text) && [extras.price.amount.text, known(extras.price.per?.text)].filter(Boolean).join(' ');
  const age = known(extras.age?.text);
  const photo = jpeg(extras.photo, 'courseCard');
  const file = `cards/${page.file.replace(/\.html$/, '')}.${cardFormat(Boolean(photo))}`;
  const card: CardModel = {
    file,
    locale: ctx.locale,
    ...(siteName && { siteName }),
    title: page.title.text,
    ...(age && { age }),
    ...(price && { price }),
    ...(photo && { photo }),
    ...(jpeg(ctx.logo, 'logo') && { logo: jpeg(ctx.logo, 'logo') }),
  };
  return { card, image: { url: ctx.absolute(`/${file}`), ...CARD, alt: siteName ? `${page.title.text} · ${siteName}` : page.title.text } };
}
