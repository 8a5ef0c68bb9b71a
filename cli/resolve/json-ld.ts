import type { PageModel } from '../../templates/model.ts';
import type { Locale } from '../locales.ts';
import type { CourseFile } from '../schema/course.ts';
import type { FaqFile } from '../schema/faq.ts';
import { known } from '../schema/layout.ts';
import type { SiteFile } from '../schema/site.ts';
import type { Translator } from './translator.ts';
import { absoluteUrl } from './urls.ts';

const DAY: Record<string, string> = { Mo: 'Monday', Tu: 'Tuesday', We: 'Wednesday', Th: 'Thursday', Fr: 'Friday', Sa: 'Saturday', Su: 'Sunday' };

interface Context {
  site: SiteFile;
  baseUrl: string;
  courseFor: (key: string) => CourseFile | undefined;
  faq: FaqFile;
  tr: Translator;
  locale: Locale;
  routeCourse?: string;
}

/**
 * The studio as an EducationalOrganization on the home page of each language, where search
 * engines look for it; Course or FAQPage where they apply. A course names the studio as its
 * provider by the organization's @id, with the type and (once the studio has given one; a
 * placeholder is no name) the name Google's course rich results require on the page itself
 * (they do not follow the @id to the home page).
 */
export function buildJsonLd(page: PageModel, ctx: Context): object[] {
  const { site, baseUrl, tr, locale } = ctx;
  const orgId = `${absoluteUrl(baseUrl, '/')}#organization`;
  const out: object[] = page.body.kind === 'home' ? [organization(site, baseUrl, locale)] : [];
  if (page.body.kind === 'course' && ctx.routeCourse) {
    const course = ctx.courseFor(ctx.routeCourse);
    if (course) {
      const instances = courseInstances(course);
      out.push({
        '@context': 'https://schema.org',
        '@type': 'Course',
        name: page.body.course.title.text,
        description: page.body.course.summary.text,
        ...(Array.isArray(course.languages) && { inLanguage: course.languages }),
        url: page.canonical,
        provider: { '@type': 'EducationalOrganization', '@id': orgId, ...(known(site.name) && { name: site.name }) },
        ...(course.price && { offers: offer(course.price) }),
        ...(instances && { hasCourseInstance: instances }),
      });
    }
  }
  if (page.body.kind === 'faq')
    out.push({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: ctx.faq.items.map((i) => ({
        '@type': 'Question',
        name: tr.text(i.question, locale).text,
        acceptedAnswer: { '@type': 'Answer', text: i.answer.map((a) => tr.text(a, locale).text.replace(/\*\*?([^*]+)\*\*?/g, '$1')).join('\n\n') },
      })),
    });
  // Made without fields that are undefined, as JSON would have them (the organization: `compact`ed once per locale).
  return out;
}

/**
 * The offer as the page states it: a "from" price is the lowest price (`minPrice`), not the
 * price; a monthly fee is a price per month.
 */
function offer(price: NonNullable<CourseFile['price']>): object {
  const base = { '@type': 'Offer', category: 'Paid', priceCurrency: 'EUR' };
  if (price.from) return { ...base, priceSpecification: { '@type': 'PriceSpecification', minPrice: price.amount, priceCurrency: 'EUR' } };
  return {
    ...base,
    price: price.amount,
    ...(price.per === 'month' && {
      priceSpecification: { '@type': 'UnitPriceSpecification', price: price.amount, priceCurrency: 'EUR', unitCode: 'MON' },
    }),
  };
}

/**
 * One CourseInstance per lesson format the studio states, saying only what it states. The mode
 * only where SPEC gives it (the consultation for parents is a video call); no other course says
 * whether it is held on site. A lesson's length is its `duration`; a frequency only where one
 * lesson falls in each period (`repeatFrequency`): schema.org's `repeatCount` is the number of
 * occurrences in all, not lessons per month, so "4 lessons a month" is not written as one.
 */
function courseInstances(course: CourseFile): object | object[] | undefined {
  const mode = course.audience === 'parents' ? { courseMode: 'online' } : undefined;
  if (!course.lessons?.length) return mode && { '@type': 'CourseInstance', ...mode };
  return course.lessons.map((l) => ({
    '@type': 'CourseInstance',
    ...mode,
    courseSchedule: {
      '@type': 'Schedule',
      duration: `PT${l.minutes}M`,
      ...(l.times === 1 && { repeatFrequency: l.per === 'week' ? 'P1W' : 'P1M' }),
    },
  }));
}

/** A copy without the fields that are undefined (placeholders, no price), as JSON would write it. */
function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = compact(v);
  return out as T;
}

const organizations = new WeakMap<object, Map<string, object>>();

/** The studio as an EducationalOrganization: the same on every page of a locale, so made once per locale. */
function organization(site: Context['site'], baseUrl: string, locale: Context['locale']): object {
  let byLocale = organizations.get(site);
  if (!byLocale) {
    byLocale = new Map();
    organizations.set(site, byLocale);
  }
  const id = `${baseUrl}\0${locale}`;
  const made = byLocale.get(id);
  if (made) return made;
  const orgId = `${absoluteUrl(baseUrl, '/')}#organization`;
  const hours = site.hours
    .filter((h) => h.time && known(h.time))
    .map((h) => {
      const [opens, closes] = known(h.time!)!.split('–');
      return { '@type': 'OpeningHoursSpecification', dayOfWeek: h.dayCodes.map((d) => `https://schema.org/${DAY[d]}`), opens, closes };
    });
  const org = {
    '@context': 'https://schema.org',
    '@type': 'EducationalOrganization',
    '@id': orgId,
    name: known(site.name),
    url: absoluteUrl(baseUrl, '/'), // one organization (one @id), one address: the same on the pages of every language
    telephone: known(site.contacts.phone),
    email: known(site.contacts.email),
    address: {
      '@type': 'PostalAddress',
      streetAddress: known(site.contacts.address.street),
      postalCode: known(site.contacts.address.postalCode),
      addressLocality: known(site.contacts.address.city),
      addressCountry: site.contacts.address.country,
    },
    openingHoursSpecification: hours.length ? hours : undefined,
  };
  const clean = compact(org);
  byLocale.set(id, clean);
  return clean;
}
