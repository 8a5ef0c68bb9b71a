import type { PageModel } from '../../templates/model.ts';
import type { CourseFile } from '../schema/course.ts';
import type { FaqFile } from '../schema/faq.ts';
import { isPlaceholder } from '../schema/layout.ts';
import type { Locale } from '../schema/locales.ts';
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
 * provider by the organization's @id, with the type and name Google's course rich results
 * require on the page itself (they do not follow the @id to the home page).
 */
export function buildJsonLd(page: PageModel, ctx: Context): object[] {
  const { site, baseUrl, tr, locale } = ctx;
  const orgId = `${absoluteUrl(baseUrl, '/')}#organization`;
  const out: object[] = page.body.kind === 'home' ? [organization(site, baseUrl, locale)] : [];
  if (page.body.kind === 'course' && ctx.routeCourse) {
    const course = ctx.courseFor(ctx.routeCourse);
    if (course)
      out.push({
        '@context': 'https://schema.org',
        '@type': 'Course',
        name: page.body.course.title.text,
        description: page.body.course.summary.text,
        ...(typeof course.languages !== 'string' && { inLanguage: course.languages }),
        url: page.canonical,
        provider: { '@type': 'EducationalOrganization', '@id': orgId, name: site.name },
        ...(course.price && {
          offers: {
            '@type': 'Offer',
            category: 'Paid',
            price: course.price.amount,
            priceCurrency: 'EUR',
            ...(course.price.per === 'month' && {
              priceSpecification: { '@type': 'UnitPriceSpecification', price: course.price.amount, priceCurrency: 'EUR', unitCode: 'MON' },
            }),
          },
        }),
        hasCourseInstance: courseInstances(course),
      });
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
 * One CourseInstance per lesson format the studio states (length and frequency), with the
 * courseSchedule Google's course rich results ask for; only the mode where it states none.
 */
function courseInstances(course: CourseFile): object | object[] {
  const courseMode = course.audience === 'parents' ? 'online' : 'onsite';
  if (!course.lessons?.length) return { '@type': 'CourseInstance', courseMode };
  return course.lessons.map((l) => ({
    '@type': 'CourseInstance',
    courseMode,
    courseSchedule: { '@type': 'Schedule', duration: `PT${l.minutes}M`, repeatFrequency: l.per === 'week' ? 'Weekly' : 'Monthly', repeatCount: l.times },
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
    .filter((h) => h.time && !isPlaceholder(h.time))
    .map((h) => {
      const [opens, closes] = h.time!.split('–');
      return { '@type': 'OpeningHoursSpecification', dayOfWeek: h.dayCodes.map((d) => `https://schema.org/${DAY[d]}`), opens, closes };
    });
  const known = (s: string) => (isPlaceholder(s) ? undefined : s);
  const org = {
    '@context': 'https://schema.org',
    '@type': 'EducationalOrganization',
    '@id': orgId,
    name: site.name,
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
