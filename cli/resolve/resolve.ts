import type { PageModel } from '../../templates/model.ts';
import type { PageFacts } from '../cache/page-cache.ts';
import { type CardContext, cardOf } from '../images/card-model.ts';
import { inLocale } from '../schema/layout.ts';
import type { Locale } from '../schema/locales.ts';
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
import { absoluteUrl, routeOfUrl, urlToFile } from './urls.ts';

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

/**
 * A page of the site as a build handles it: its model when it was resolved; else, for a page
 * whose declared inputs are the ones the previous build recorded (cache/page-inputs.ts), what
 * that build recorded of it, its key, and the means to resolve it after all.
 */
export interface SitePage extends Pick<PageModel, 'url' | 'file' | 'locale' | 'inSitemap' | 'canonical' | 'hreflang' | 'form'> {
  /** Whether it shows the form (`form`, of a page taken over, resolves it). */
  hasForm: boolean;
  model?: PageModel;
  /** The previous build's key of a page not resolved (`pageKey` of the model it would have). */
  key?: string;
  /** The model (of a page taken over: resolved now, once). */
  resolve(): PageModel;
  facts: PageFacts | undefined;
}

/** What a build knows of a page before resolving it: its declared inputs, if it has any, and what the previous build recorded of a page with the same. */
export type Reuse = (locale: Locale, page: PageOf<PageKind>, file: string) => { inputs?: string; recorded?: PageFacts & { key: string } };

/** `resolveSite`, for a build: the pages `reuse` finds recorded with the same inputs are not resolved. */
export function resolveSitePages(raw: Content, tr: Translator, options: ResolveOptions, reuse: Reuse): SitePage[] {
  return [...sitePagesInChunks(raw, tr, options, reuse, Number.POSITIVE_INFINITY).chunks].flat();
}

/**
 * `resolveSitePages` a share at a time (`size` pages at most, in the same order), for a build
 * that renders each share while resolving the next; `total`: how many pages there will be.
 */
export function sitePagesInChunks(
  raw: Content,
  tr: Translator,
  options: ResolveOptions,
  reuse: Reuse,
  size: number,
): { total: number; chunks: Generator<SitePage[]> } {
  const site = siteContext(assertComplete(raw), options);
  const pages = sitePages(site);
  function* chunks() {
    for (const locale of site.locales) {
      const ctx = localeContext(site, tr, locale);
      for (let start = 0; start < pages.length; start += size) yield pages.slice(start, start + size).map((page) => sitePage(ctx, page, reuse));
    }
  }
  return { total: site.locales.length * pages.length, chunks: chunks() };
}

function sitePage(ctx: LocaleContext, page: PageOf<PageKind>, reuse: Reuse): SitePage {
  const url = ctx.url(page.path);
  const file = urlToFile(url);
  const { inputs, recorded } = reuse(ctx.locale, page, file);
  if (recorded) return takenOver(ctx, page, url, file, recorded);
  const { value: model, fallbacks } = ctx.tr.collect(() => resolvePage(ctx, page, url, file));
  const facts: PageFacts | undefined = inputs
    ? { inputs, inSitemap: model.inSitemap, ...(model.noindex && { noindex: true }), ...(model.form && { form: true }), ...(fallbacks.length && { fallbacks }) }
    : undefined;
  return {
    url,
    file,
    locale: ctx.locale,
    inSitemap: model.inSitemap,
    canonical: model.canonical,
    hreflang: model.hreflang,
    form: model.form,
    hasForm: Boolean(model.form),
    model,
    resolve: () => model,
    facts,
  };
}

/** A page as the previous build recorded it: its fallbacks counted, its form resolved only when asked for (the server's manifest reads one). */
function takenOver(ctx: LocaleContext, page: PageOf<PageKind>, url: string, file: string, recorded: PageFacts & { key: string }): SitePage {
  const { key, ino: _i, size: _s, mtimeMs: _m, ...facts } = recorded as PageFacts & { key: string; ino?: number; size?: number; mtimeMs?: number };
  ctx.tr.absorb(ctx.locale, facts.fallbacks ?? []);
  let model: PageModel | undefined;
  const resolve = () => {
    model ??= resolvePage(ctx, page);
    return model;
  };
  return {
    url,
    file,
    locale: ctx.locale,
    ...indexing(ctx, page.path, url, { noindex: facts.noindex === true, inSitemap: facts.inSitemap }),
    get form() {
      return facts.form ? resolve().form : undefined;
    },
    hasForm: facts.form === true,
    key,
    resolve,
    facts,
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
    chrome: ctx.chrome(page.path),
    // A page not to be indexed (not found, thank you) has no address of its own to share.
    og: { url: noindex ? undefined : absoluteUrl(ctx.baseUrl, url), siteName: inLocale(ctx.site.name, ctx.locale), locale: OG_LOCALE[ctx.locale] },
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

/** How search engines are to see a page: made the same way for a page resolved and for one taken over. */
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

const OG_LOCALE: Record<Locale, string> = { ru: 'ru_RU', en: 'en_GB', de: 'de_DE' };
