import type { FormModel, PageModel } from '../../templates/model.ts';
import { type CardContext, cardOf } from '../images/card-model.ts';
import { type Locale, OG_LOCALES } from '../locales.ts';
import { inLocale } from '../schema/layout.ts';
import type { Content } from '../validate/content.ts';
import { assertComplete, type LocaleContext, localeContext, type ResolveOptions, type SiteContext, siteContext } from './context.ts';
import { buildJsonLd } from './json-ld.ts';
import { coursePage } from './pages/course.ts';
import { faqPage } from './pages/faq.ts';
import { homePage } from './pages/home.ts';
import { legalPage } from './pages/legal.ts';
import { notFoundPage } from './pages/not-found.ts';
import type { Builder, PageKind, PageOf } from './pages/page-kind.ts';
import { pricesPage } from './pages/prices.ts';
import { schedulePage } from './pages/schedule.ts';
import { teachersPage } from './pages/teachers.ts';
import { thanksPage } from './pages/thanks.ts';
import type { Translator } from './translator.ts';
import { absoluteUrl, localeUrl, routeOfUrl, urlToFile } from './urls.ts';

/** One builder per kind of page the templates know: a kind without one does not compile. */
export const BUILDERS: { [K in PageKind]: Builder<K> } = {
  home: homePage,
  course: coursePage,
  prices: pricesPage,
  teachers: teachersPage,
  faq: faqPage,
  schedule: schedulePage,
  legal: legalPage,
  thanks: thanksPage,
  notFound: notFoundPage,
};

/**
 * Stage 4: content → one PageModel per page and locale. Pure: all text goes through the
 * translator, so fallbacks are counted and marked.
 */
export function resolveSite(raw: Content, tr: Translator, options: ResolveOptions): PageModel[] {
  const site = siteContext(assertComplete(raw), options);
  const pages = sitePages(site);
  return site.locales.flatMap((locale) => {
    const ctx = localeContext(site, tr, locale);
    return pages.map((page) => resolvePage(ctx, page));
  });
}

/**
 * The page of the site at a URL, resolved when it is first asked for: `content dev` shows a few
 * pages of thousands, and after a save needs none of them until a browser asks again. The URL is
 * read back into a locale and a route (`localeUrl` the other way), a later locale first, as a
 * list of every page by URL would have it where two pages had one URL.
 */
export function pageFinder(raw: Content, tr: Translator, options: ResolveOptions): (url: string) => PageModel | undefined {
  const site = siteContext(assertComplete(raw), options);
  const byRoute = new Map(sitePages(site).map((page) => [page.path, page]));
  const contexts = new Map<Locale, LocaleContext>();
  const resolved = new Map<string, PageModel>();
  return (url) => {
    for (const locale of [...site.locales].reverse()) {
      const page = byRoute.get(routeOfUrl(url, locale) ?? '');
      if (!page) continue;
      const ctx = contexts.get(locale) ?? localeContext(site, tr, locale);
      contexts.set(locale, ctx);
      if (ctx.url(page.path) !== url) continue;
      const model = resolved.get(url) ?? resolvePage(ctx, page);
      resolved.set(url, model);
      return model;
    }
    return undefined;
  };
}

/** A page of the site before it is resolved: where it goes, and how search engines find it when it is indexed. */
export interface PlannedPage extends Pick<PageModel, 'url' | 'file' | 'locale' | 'route'> {
  /** Its address and alternates, when it is indexed (a page with `noindex` has none). */
  canonical: string;
  hreflang: PageModel['hreflang'];
}

/** The pages of a site in the order a build makes them (every page of a locale, a locale after another), and each one's model by its index. */
export interface SiteResolver {
  pages: PlannedPage[];
  /** The model of page `index`, with the texts that fell back to Russian on it. */
  resolve(index: number): { model: PageModel; fallbacks: string[] };
  /** The enquiry form as a locale's pages show it (none preselected). */
  form(locale: Locale): FormModel;
}

/**
 * `resolveSite` a page at a time, for a build that shares the pages out: every party (a worker,
 * the build's thread) makes the same list from the same content and resolves its own share.
 * What a locale's pages share is made here, once (a recording view of the content sees it read
 * outside any page), and the texts of it that fell back are counted on each page of the locale.
 */
export function siteResolver(raw: Content, tr: Translator, options: ResolveOptions): SiteResolver {
  const site = siteContext(assertComplete(raw), options);
  const routes = sitePages(site);
  const contexts = new Map(site.locales.map((locale) => [locale, tr.collect(() => localeContext(site, tr, locale))]));
  const pages = site.locales.flatMap((locale) =>
    routes.map((page): PlannedPage => {
      const url = localeUrl(page.path, locale);
      return { url, file: urlToFile(url), locale, route: page.path, canonical: absoluteUrl(site.baseUrl, url), hreflang: site.hreflang(page.path) };
    }),
  );
  return {
    pages,
    resolve(index) {
      const planned = pages[index]!;
      const { value: ctx, fallbacks: shared } = contexts.get(planned.locale)!;
      const { value: model, fallbacks } = tr.collect(() => resolvePage(ctx, routes[index % routes.length]!, planned.url, planned.file));
      return { model, fallbacks: shared.length ? [...new Set([...shared, ...fallbacks])] : fallbacks };
    },
    form: (locale) => contexts.get(locale)!.value.form(),
  };
}

/** The pages of the site, in each locale: every route of routes.yaml, then the thank-you and not-found pages. */
function sitePages(site: SiteContext): PageOf<PageKind>[] {
  return [...site.content.routes.data.routes, { path: site.site.form.thanksPath, page: 'thanks' }, { path: '/404', page: 'notFound' }];
}

/** One page in one locale: what its kind's builder makes, plus what every page has (its URL and file, when the caller has them already). */
function resolvePage<K extends PageKind>(ctx: LocaleContext, page: PageOf<K>, url = ctx.url(page.path), file = urlToFile(url)): PageModel {
  const build: Builder<K> = BUILDERS[page.page as K];
  const { title, description, body, form, noindex = false, unlisted = false, card: extras } = build(ctx, page);
  const { inSitemap, canonical, hreflang } = indexing(ctx, page.path, url, { noindex, inSitemap: !noindex && !unlisted });
  const model: PageModel = {
    url,
    route: page.path,
    locale: ctx.locale,
    title,
    description,
    noindex,
    inSitemap,
    body,
    form,
    file,
    canonical,
    hreflang,
    // The language links of the not-found page lead to the other locales' home pages (their /404 is no page to offer).
    chrome: ctx.chrome(page.page === 'notFound' ? '/' : page.path),
    // A page not to be indexed (not found, thank you) has no address of its own to share.
    og: { url: noindex ? undefined : absoluteUrl(ctx.baseUrl, url), siteName: inLocale(ctx.site.name, ctx.locale), locale: OG_LOCALES[ctx.locale] },
    jsonLd: [],
  };
  const shared = cardOf(cardContext(ctx), { file, title, noindex }, extras);
  if (shared.card) Object.assign(model, { card: shared.card, og: { ...model.og, image: shared.image } });
  if (!noindex) {
    const { content, site, baseUrl, tr, locale } = ctx;
    const routeCourse = 'course' in page ? page.course : undefined;
    model.jsonLd = buildJsonLd(model, { site, baseUrl, courseFor: (k) => content.courses.get(k)?.data, faq: content.faq.data, tr, locale, routeCourse });
  }
  return model;
}

/** How search engines are to see a page. */
function indexing(ctx: LocaleContext, route: string, url: string, { noindex, inSitemap }: { noindex: boolean; inSitemap: boolean }) {
  return { inSitemap, canonical: noindex ? undefined : absoluteUrl(ctx.baseUrl, url), hreflang: noindex ? [] : ctx.hreflang(route) };
}

/** What a page's share card needs of its locale's context (cli/images/card-model.ts). */
const cardContext = (ctx: LocaleContext): CardContext => ({
  locale: ctx.locale,
  siteName: inLocale(ctx.site.name, ctx.locale),
  images: ctx.images,
  logo: ctx.site.logo,
  enabled: ctx.site.shareCards !== false,
  absolute: (path) => absoluteUrl(ctx.baseUrl, path),
});
