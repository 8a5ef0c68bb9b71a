import type { Banner, CourseCard } from '../../../templates/model.ts';
import { picture } from '../../images/picture.ts';
import type { Image } from '../../schema/image.ts';
import type { ImageUse } from '../../schema/image-uses.ts';
import { bannerShown } from '../banner-dates.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/**
 * The home page: every course with a page of its own as a card ("Our offerings": each with its
 * "More details" link; a course known only as a form option, such as concentration, has none),
 * the banners still valid, the enquiry form.
 */
export const homePage: Builder<'home'> = (ctx, route) => {
  const { tx, url } = ctx;
  // Only the first picture on the page (in reading order: the photo, the banners, the course cards) is fetched at once.
  let first = true;
  const shown = (image: Image | undefined, use: ImageUse) => {
    const p = picture(ctx, image, use, first && image !== undefined);
    if (p) first = false;
    return p;
  };
  const photo = shown(ctx.site.homePhoto, 'homePhoto');
  const banners = ctx.content.banners.data.banners
    .filter((b) => bannerShown(b, ctx.today))
    .map(
      (b): Banner => ({
        id: b.id,
        image: shown(b.image, 'banner'),
        pill: tx(b.pill),
        title: tx(b.title),
        subtitle: tx(b.subtitle),
        cta: { label: tx(b.cta.label), href: ctx.link(b.cta.link) },
        isNew: Boolean(b.isNew),
      }),
    );
  return {
    ...titled(ctx, route),
    body: {
      kind: 'home',
      ...(photo && { photo }),
      courses: ctx
        .courses()
        .filter((e) => e.data.route)
        .map(
          (e): CourseCard => ({
            key: e.key,
            image: shown(e.data.image, 'courseCard'),
            title: tx(e.data.title),
            summary: tx(e.data.summary),
            age: tx(e.data.age),
            href: e.data.route ? url(e.data.route) : undefined,
            price: e.data.price ? ctx.price(e.data.price) : undefined,
            isForParents: e.data.audience === 'parents',
            formValue: ctx.formValue(e.key),
          }),
        ),
      banners,
    },
    form: ctx.form(),
  };
};
