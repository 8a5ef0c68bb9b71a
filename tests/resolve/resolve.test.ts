import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../cli/locales.ts';
import { BUILDERS, pageFinder, resolveSite, siteResolver } from '../../cli/resolve/resolve.ts';
import { createTranslator } from '../../cli/resolve/translator.ts';
import { PAGE_KINDS } from '../../cli/schema/routes.ts';
import type { Content } from '../../cli/validate/content.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import type { PageModel } from '../../templates/model.ts';
import { FIXTURE } from '../helpers/cli.ts';

const TODAY = '2025-01-01';

/** The frozen copy of the shipped content, validated afresh: a test may change it in place before resolving. */
function shipped(): Content {
  const v = validateContent(FIXTURE, { today: TODAY });
  expect(v.ok).toBe(true);
  return v.content;
}

function resolve(content: Content, baseUrl?: string) {
  const tr = createTranslator(content);
  const pages = resolveSite(content, tr, { today: TODAY, baseUrl });
  const page = (url: string) => {
    const found = pages.find((p) => p.url === url);
    if (!found) throw new Error(`no page at ${url}`);
    return found;
  };
  return { tr, pages, page };
}

describe('resolveSite on the shipped content', () => {
  const content = shipped();
  const { pages, page } = resolve(content);
  const routes = content.routes!.data.routes;

  it('gives every route of routes.yaml one page per locale, then a thank-you and a not-found page', () => {
    for (const locale of LOCALES) {
      const own = pages.filter((p) => p.locale === locale);
      expect(own.map((p) => p.route)).toEqual([...routes.map((r) => r.path), '/thanks', '/404']);
      expect(own.map((p) => p.body.kind)).toEqual([...routes.map((r) => r.page), 'thanks', 'notFound']);
    }
    expect(pages).toHaveLength(LOCALES.length * (routes.length + 2));
  });

  it('has a builder for every kind of page, and uses each of them', () => {
    expect(Object.keys(BUILDERS).sort()).toEqual([...PAGE_KINDS, 'thanks', 'notFound'].sort());
    expect(new Set(pages.map((p) => p.body.kind))).toEqual(new Set(Object.keys(BUILDERS)));
  });

  it('puts Russian at the root and the other locales under /en and /de, with no trailing slash', () => {
    expect(['/', '/en', '/de'].map((u) => page(u).body.kind)).toEqual(['home', 'home', 'home']);
    expect(page('/vocal').locale).toBe('ru');
    expect(page('/en/vocal').file).toBe('en/vocal.html');
    expect(page('/de/404').file).toBe('de/404.html');
    expect(page('/').file).toBe('index.html');
    for (const p of pages) {
      expect(p.url === '/' || !p.url.endsWith('/')).toBe(true);
      expect(p.url.startsWith(p.locale === 'ru' ? '/' : `/${p.locale}`)).toBe(true);
      // A not-found page offers the other locales' home pages (issue 37), every other page itself in each locale.
      expect(p.chrome.alternates.map((a) => a.href)).toContain(p.body.kind === 'notFound' ? p.chrome.homeHref : p.url);
    }
  });

  it('links each indexed page to itself in every locale (and x-default), absolutely; not-found pages to nothing', () => {
    expect(page('/en/vocal').canonical).toBe('https://studio.example/en/vocal');
    expect(page('/de/vocal').hreflang).toEqual([
      { hreflang: 'ru', href: 'https://studio.example/vocal' },
      { hreflang: 'en', href: 'https://studio.example/en/vocal' },
      { hreflang: 'de', href: 'https://studio.example/de/vocal' },
      { hreflang: 'x-default', href: 'https://studio.example/vocal' },
    ]);
    for (const url of ['/404', '/de/404']) {
      expect(page(url)).toMatchObject({ noindex: true, inSitemap: false, canonical: undefined, hreflang: [], jsonLd: [] });
      // No og:url: https://studio.example/404 is an address that does not exist.
      expect(page(url).og.url).toBeUndefined();
    }
    // The thank-you page: not to be found in a search (issue 26), so noindex like a not-found page, and in no sitemap.
    for (const url of ['/thanks', '/en/thanks']) {
      expect(page(url)).toMatchObject({ noindex: true, inSitemap: false, canonical: undefined, hreflang: [], jsonLd: [] });
    }
    expect(page('/en/vocal').inSitemap).toBe(true);
  });

  it('links menu items, banners and the form within the page locale', () => {
    const de = page('/de');
    expect(de.chrome.menu.every((m) => m.href.startsWith('/de'))).toBe(true);
    expect(de.form?.thanksHref).toBe('/de/thanks');
    expect(de.form?.locale).toBe('de');
    const vocalOption = content.form!.data.options.find((o) => o.course === 'vocal')!.value;
    expect(page('/en/vocal').form?.selected).toBe(vocalOption);
    expect(page('/en').form?.selected).toBeUndefined();
    expect(page('/en/prises').form).toBeUndefined();
  });
});

describe('resolveSite with --base-url', () => {
  it('makes every absolute URL from the given base instead of site.yaml', () => {
    const { page } = resolve(shipped(), 'https://preview.example/');
    expect(page('/en').canonical).toBe('https://preview.example/en');
    expect(page('/').og.url).toBe('https://preview.example/');
    expect(page('/de/faq').hreflang.at(-1)).toEqual({ hreflang: 'x-default', href: 'https://preview.example/faq' });
  });
});

describe('Russian fallback', () => {
  it('shows a missing English text in Russian, marked lang="ru" and counted under its translations.yaml key', () => {
    const content = shipped();
    const vocal = content.routes!.data.routes.findIndex((r) => r.path === '/vocal');
    const title = content.routes!.data.routes[vocal]!.title;
    delete title.en;
    const { tr, page } = resolve(content);
    expect(page('/en/vocal').title).toEqual({ text: title.ru, lang: 'ru' });
    expect(page('/de/vocal').title).toEqual({ text: title.de });
    expect(page('/vocal').title).toEqual({ text: title.ru });
    expect([...tr.fallbacks.en]).toEqual([`content:routes.yaml#routes[${vocal}].title`]);
    expect(tr.fallbacks.de.size + tr.fallbacks.ru.size).toBe(0);
  });

  it('does the same for a UI string', () => {
    const content = shipped();
    const ui = content.ui!.data.form.thanksTitle!;
    delete ui.de;
    const { tr, page } = resolve(content);
    expect(page('/de/thanks').title).toEqual({ text: ui.ru, lang: 'ru' });
    expect(page('/en/thanks').title).toEqual({ text: ui.en });
    expect([...tr.fallbacks.de]).toEqual(['ui:form.thanksTitle']);
  });
});

describe('structured data of a course page', () => {
  const course = (p: PageModel) => p.jsonLd.find((o) => (o as { '@type'?: string })['@type'] === 'Course') as Record<string, unknown>;

  it('gives one course instance with a schedule per lesson format the course states, and none without lessons or a stated mode', () => {
    const content = shipped();
    const choir = content.courses.get('choir')!.data;
    expect(choir.lessons?.length).toBeGreaterThan(0);
    expect(content.courses.get('danceKids45')!.data.lessons).toBeUndefined();
    const { page } = resolve(content);
    expect(course(page('/en/choir')).hasCourseInstance).toEqual(
      // Twice a month is no repeatCount (schema.org: occurrences in all) and no repeatFrequency (one lesson per period);
      // no courseMode: SPEC does not say the choir meets on site.
      choir.lessons!.map((l) => ({ '@type': 'CourseInstance', courseSchedule: { '@type': 'Schedule', duration: `PT${l.minutes}M` } })),
    );
    expect(course(page('/de/dancinglessons')).hasCourseInstance).toBeUndefined();
    // The one mode SPEC gives: the consultation for parents is a video call.
    expect(course(page('/en/online-consultation')).hasCourseInstance).toEqual({ '@type': 'CourseInstance', courseMode: 'online' });
  });

  it('names the course in the page locale and points at its canonical URL; other pages have no Course', () => {
    const { page } = resolve(shipped());
    const de = page('/de/choir');
    if (de.body.kind !== 'course') throw new Error('/de/choir is not a course page');
    expect(course(de)).toMatchObject({ name: de.body.course.title.text, url: 'https://studio.example/de/choir' });
    expect(course(page('/de/faq'))).toBeUndefined();
    expect(page('/de/faq').jsonLd.map((o) => (o as { '@type': string })['@type'])).toEqual(['FAQPage']);
    expect(page('/de').jsonLd.map((o) => (o as { '@type': string })['@type'])).toEqual(['EducationalOrganization']);
  });

  it('has no courseSchedule once the lessons are taken out', () => {
    const content = shipped();
    delete content.courses.get('choir')!.data.lessons;
    const { page } = resolve(content);
    expect(course(page('/choir')).hasCourseInstance).toBeUndefined();
  });
});

describe('pageFinder (content dev resolves a page when it is asked for)', () => {
  it('finds every page resolveSite makes, as it makes it, and nothing at other URLs', () => {
    const content = shipped();
    const { pages } = resolve(content);
    const pageAt = pageFinder(content, createTranslator(content), { today: TODAY });
    for (const page of pages) expect(pageAt(page.url), page.url).toEqual(page);
    for (const url of ['/no-such-page', '/en/no-such-page', '/fr', '/en/', '/de/de']) expect(pageAt(url), url).toBeUndefined();
  });
});

describe('siteResolver (the build resolves a page at a time: on workers for a large site, and for Vike)', () => {
  it('resolves every page as resolveSite does, in its order, with the texts that fell back to Russian on it', () => {
    const content = shipped();
    const course = [...content.courses.values()][0]!;
    delete (course.data.title as Partial<Record<string, string>>).en; // an English text falls back
    const { tr, pages } = resolve(content);
    expect(tr.fallbacks.en.size).toBeGreaterThan(0);
    const site = siteResolver(content, createTranslator(content), { today: TODAY });
    expect(site.pages.map((p) => p.url)).toEqual(pages.map((p) => p.url));
    const fellBack = Object.fromEntries(LOCALES.map((l) => [l, new Set<string>()]));
    site.pages.forEach((planned, i) => {
      const { model, fallbacks } = site.resolve(i);
      expect(model, planned.url).toEqual(pages[i]);
      for (const id of fallbacks) fellBack[planned.locale]!.add(id);
    });
    expect(fellBack).toEqual(tr.fallbacks);
  });
});
