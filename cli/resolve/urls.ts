import { DEFAULT_LOCALE, type Locale } from '../locales.ts';

/**
 * The trailing-slash policy, in one place: no trailing slash anywhere except the root.
 * ru lives at the root, the other locales under /<locale>. `/vocal` is written to
 * `vocal.html`, `/en` to `en.html`, `/` to `index.html`.
 */
export function localeUrl(route: string, locale: Locale): string {
  const prefix = locale === DEFAULT_LOCALE ? '' : `/${locale}`;
  if (route === '/') return prefix || '/';
  return `${prefix}${route}`;
}

/** The route whose URL in `locale` is `url` (`localeUrl` the other way), if it can be one. */
export function routeOfUrl(url: string, locale: Locale): string | undefined {
  if (locale === DEFAULT_LOCALE) return url;
  if (url === `/${locale}`) return '/';
  return url.startsWith(`/${locale}/`) ? url.slice(locale.length + 1) : undefined;
}

/** A content link ("/prises", "/#enquiry") in a locale. */
export function localeLink(link: string, locale: Locale): string {
  const [route, fragment] = link.split('#') as [string, string | undefined];
  return `${localeUrl(route, locale)}${fragment ? `#${fragment}` : ''}`;
}

/** The output file of a site-relative URL. */
export function urlToFile(url: string): string {
  return url === '/' ? 'index.html' : `${url.slice(1)}.html`;
}

/** The locale a site-relative URL belongs to. */
export function localeOfUrl(url: string, locales: readonly Locale[]): Locale {
  const first = url.split('/')[1] ?? '';
  return (locales as readonly string[]).includes(first) && first !== DEFAULT_LOCALE ? (first as Locale) : DEFAULT_LOCALE;
}

/** `url` on the site at `baseUrl` (without its trailing slash): made for every page several times, so without a regular expression. */
export const absoluteUrl = (baseUrl: string, url: string) => `${baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl}${url}`;
