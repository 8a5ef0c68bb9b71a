import { hash } from 'node:crypto';
import type { ResolveOptions } from '../resolve/context.ts';
import type { PageKind, PageOf } from '../resolve/pages/page-kind.ts';
import type { Reuse } from '../resolve/resolve.ts';
import type { Locale } from '../schema/locales.ts';
import { type Content, SINGLETONS } from '../validate/content.ts';
import type { SourceFile } from '../validate/source.ts';
import type { PageRecords } from './page-cache.ts';
import { cacheKey } from './policy.ts';

/**
 * The declared inputs of a course page: everything its model is made from, so that a page whose
 * inputs are the ones the previous build recorded has the model, the key and the file it had, and
 * is taken over without being resolved. A course page (resolve/pages/course.ts and what every
 * page has, resolve.ts) reads its route, its course, the teachers the course names, and the files
 * of one kind (site, routes, prices, ui, form… for the menu, prices, form, chrome and structured
 * data); its inputs are the text of each, the keys of every course and teacher (what exists), the
 * build's settings and the compiler (`cacheKey`'s salt, which covers the templates' code). The
 * inserted tags are not among them: records are used only while their `templateKey` is the
 * build's (render-pages.ts). Every other page (home, prices, teachers… list many courses) has
 * none: it is always resolved.
 */
export function pageInputs(content: Content, options: ResolveOptions): (locale: Locale, page: PageOf<PageKind>) => string | undefined {
  const digests = new WeakMap<SourceFile, string>();
  const digest = (source: SourceFile) => {
    const known = source.hash ?? digests.get(source) ?? hash('sha1', source.text, 'base64url'); // the bytes' hash, or the text's
    digests.set(source, known);
    return known;
  };
  const shared = cacheKey(
    'page-inputs',
    JSON.stringify([options.baseUrl ?? null, options.today, options.images?.key ?? null]),
    ...SINGLETONS.map((k) => (content[k] ? digest(content[k].source) : '-')),
    [...content.courses.keys()].sort().join('\0'),
    [...content.teachers.keys()].sort().join('\0'),
  );
  const byRoute = new WeakMap<object, string>();
  return (locale, page) => {
    if (page.page !== 'course' || !('course' in page) || page.course === undefined) return undefined;
    const course = content.courses.get(page.course);
    if (!course) return undefined;
    let route = byRoute.get(page);
    if (route === undefined) {
      const teachers = course.data.teachers.map((t) => [t, typeof t === 'string' && content.teachers.has(t) ? digest(content.teachers.get(t)!.source) : null]);
      route = hash('sha1', JSON.stringify([shared, page, digest(course.source), teachers]), 'base64url');
      byRoute.set(page, route);
    }
    return `${route}:${locale}`;
  };
}

/** What `resolveSitePages` asks of each page: its inputs, and the previous build's record of it when that has the same. */
export function reuseRecorded(inputsOf: ReturnType<typeof pageInputs>, records: PageRecords | undefined): Reuse {
  return (locale, page, file) => {
    const inputs = inputsOf(locale, page);
    if (inputs === undefined) return {};
    const previous = records?.pages[file];
    if (!previous || previous.inputs !== inputs || previous.inSitemap === undefined) return { inputs };
    return { inputs, recorded: { ...previous, inputs, inSitemap: previous.inSitemap } };
  };
}
