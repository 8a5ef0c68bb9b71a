import type { PlannedPage } from '../resolve/resolve.ts';
import { routeOfUrl, urlToFile } from '../resolve/urls.ts';

/**
 * The addresses a visitor types for the price page, in any of our languages (the page itself is
 * wherever routes.yaml puts it): each, in every locale, leads to that locale's price page.
 */
const PRICE_ALIASES = ['/prices', '/price', '/preise', '/preis', '/ceny', '/tseny'];

/** The file of redirects Netlify and Cloudflare Pages read; `content serve` answers them too (cli/serve/http/static.ts). */
export const REDIRECTS_FILE = '_redirects';

/**
 * `_redirects`: for every locale's price page, each alias that is no page of the site itself,
 * moved for good (301) to it. One `from to 301` line each.
 */
export function redirectsFile(pages: Pick<PlannedPage, 'url' | 'file' | 'locale' | 'route'>[], pricesRoute: string | undefined): string {
  const taken = new Set(pages.map((p) => p.file));
  const lines = [
    '# Written by "content build" for hosts that read _redirects (Netlify, Cloudflare Pages) and for content serve: addresses visitors type, moved to the page they mean.',
  ];
  for (const page of pages) {
    if (!pricesRoute || page.route !== pricesRoute) continue;
    const prefix = page.url.slice(0, page.url.length - pricesRoute.length);
    for (const alias of PRICE_ALIASES) {
      const from = `${prefix}${alias}`;
      if (taken.has(urlToFile(from)) || routeOfUrl(from, page.locale) === pricesRoute) continue;
      taken.add(urlToFile(from));
      lines.push(`${from} ${page.url} 301`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The redirects of a `_redirects` file, by the path they move (what `redirectsFile` writes: `from to [status]` lines, `#` comments). */
export function parseRedirects(text: string): Map<string, string> {
  const moved = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (from?.startsWith('/') && to?.startsWith('/')) moved.set(from, to);
  }
  return moved;
}
