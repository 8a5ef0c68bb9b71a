import type { Banner, CourseCard, CourseGroup } from '../../../templates/model.ts';
import { picture } from '../../images/picture.ts';
import type { Image } from '../../schema/image.ts';
import type { ImageUse } from '../../schema/image-uses.ts';
import { bannerShown } from '../banner-dates.ts';
import type { LocaleContext } from '../context.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

type CourseEntry = ReturnType<LocaleContext['courses']>[number];

/** Which group of the home page a course is listed in: parents' courses are the adults'. */
const GROUP_OF = { children: 'children', all: 'all', adults: 'adults', parents: 'adults' } as const;
const GROUP_TITLES = { children: 'home.groupChildren', all: 'home.groupAll', adults: 'home.groupAdults' } as const;

/**
 * Every course with a page of its own, by audience: children, children and adults, adults; in
 * each, in the courses' `order` (the children's by age). A group without courses is left out.
 */
function courseGroups(ctx: LocaleContext, card: (e: CourseEntry) => CourseCard): CourseGroup[] {
  const shown = ctx.courses().filter((e) => e.data.route);
  return (['children', 'all', 'adults'] as const)
    .map((id) => ({ id, title: ctx.ux(GROUP_TITLES[id]), courses: shown.filter((e) => GROUP_OF[e.data.audience] === id).map(card) }))
    .filter((g) => g.courses.length);
}

/**
 * The home page: every course with a page of its own as a card ("Our offerings", grouped by
 * audience, each with its "More details" link; a course without a page, such as concentration, is
 * not shown), the banners still valid, the enquiry form.
 */
export const homePage: Builder<'home'> = (ctx, route) => {
  const { tx, url } = ctx;
  // Only the first picture on the page (in reading order: the photo, the course cards, the banners) is fetched at once.
  let first = true;
  const shown = (image: Image | undefined, use: ImageUse) => {
    const p = picture(ctx, image, use, first && image !== undefined);
    if (p) first = false;
    return p;
  };
  const photo = shown(ctx.site.homePhoto, 'homePhoto');
  const groups = courseGroups(ctx, (e) => ({
    key: e.key,
    image: shown(e.data.image, 'courseCard'),
    title: tx(e.data.title),
    summary: tx(e.data.summary),
    age: tx(e.data.age),
    href: e.data.route ? url(e.data.route) : undefined,
    price: e.data.price ? ctx.price(e.data.price) : undefined,
    isForParents: e.data.audience === 'parents',
    formValue: ctx.formValue(e.key),
  }));
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
      courseGroups: groups,
      banners,
    },
    form: ctx.form(),
  };
};
