import type { Chrome, FormModel, PageModel } from '../../templates/model.ts';
import type { PictureSizes } from '../images/index-images.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales.ts';
import { InternalError } from '../report/problem.ts';
import { SINGLETON_TYPES, type SingletonType } from '../schema/layout.ts';
import type { SiteFile } from '../schema/site.ts';
import { compareNames } from '../util/compare-names.ts';
import type { Content, Entry } from '../validate/content.ts';
import { chromeMaker, contacts } from './chrome.ts';
import { formMaker } from './form.ts';
import { type Localizer, localizer } from './localizer.ts';
import { type Prices, prices } from './price.ts';
import type { Translator } from './translator.ts';
import { absoluteUrl, localeUrl } from './urls.ts';

/** A validated content set is complete: every singleton is there. */
export type Complete = Required<Pick<Content, SingletonType>> & Omit<Content, SingletonType>;

export function assertComplete(content: Content): Complete {
  for (const k of SINGLETON_TYPES) if (!content[k]) throw new InternalError(`resolve() called with content that did not validate (${k} missing)`);
  return content as Complete;
}

export interface ResolveOptions {
  /** Overrides site.yaml's baseUrl (content build --base-url). */
  baseUrl?: string;
  /** YYYY-MM-DD: banners past their validUntil are left out. */
  today: string;
  /** The pictures the content names (cli/images): without it, pages show none. */
  images?: PictureSizes;
}

/** What the pages of every locale share: built once per site. */
export interface SiteContext {
  content: Complete;
  site: SiteFile;
  locales: Locale[];
  baseUrl: string;
  /** YYYY-MM-DD: banners past their validUntil are left out. */
  today: string;
  images?: PictureSizes;
  /** Courses and teachers in the order the site lists them: sorted when asked for, so that only a page that lists them reads them all. */
  courses(): Entry<'course'>[];
  teachers(): Entry<'teacher'>[];
  /** The form option that enrols in a course. */
  formValue(course: string): string | undefined;
  /** Absolute URLs of a route in every locale, plus x-default: the same for each of its pages. */
  hreflang(route: string): PageModel['hreflang'];
}

/** What every page of one locale needs: built once per locale. */
export interface LocaleContext extends SiteContext, Localizer, Prices {
  tr: Translator;
  /** Header, footer and UI strings of the page showing `route`. */
  chrome(route: string): Chrome;
  /** The enquiry form, with `selected` preselected. */
  form(selected?: string): FormModel;
}

const byOrder = <T extends { key: string; data: { order: number } }>(a: T, b: T) => a.data.order - b.data.order || compareNames(a.key, b.key);

export function siteContext(content: Complete, options: ResolveOptions): SiteContext {
  const site = content.site.data;
  const locales = [...LOCALES];
  const baseUrl = options.baseUrl ?? site.baseUrl;
  const optionOf = new Map(content.form.data.options.map((o) => [o.course, o.value]));
  const hreflangs = new Map<string, PageModel['hreflang']>();
  const hreflang = (route: string) => {
    let list = hreflangs.get(route);
    if (!list) {
      list = [
        ...locales.map((l) => ({ hreflang: l, href: absoluteUrl(baseUrl, localeUrl(route, l)) })),
        { hreflang: 'x-default', href: absoluteUrl(baseUrl, localeUrl(route, DEFAULT_LOCALE)) },
      ];
      hreflangs.set(route, list);
    }
    return list;
  };
  return {
    content,
    site,
    locales,
    baseUrl,
    today: options.today,
    images: options.images,
    courses: () => [...content.courses.values()].sort(byOrder),
    teachers: () => [...content.teachers.values()].sort(byOrder),
    formValue: (course) => optionOf.get(course),
    hreflang,
  };
}

export function localeContext(site: SiteContext, tr: Translator, locale: Locale): LocaleContext {
  const l = localizer(tr, locale);
  const shown = contacts(l, site.site);
  return {
    ...site,
    ...l,
    ...prices(l),
    tr,
    chrome: chromeMaker(l, site.site, site.content.routes.data.routes, site.locales, shown),
    form: formMaker(
      l,
      site.site,
      site.content.form.data,
      shown,
      site.content.routes.data.routes.find((r) => r.page === 'legal' && r.legal === 'privacy')?.path,
    ),
  };
}
