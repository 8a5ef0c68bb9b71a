import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { walk } from '../../cli/util/walk.ts';

/** Every file of a built site, relative, sorted. */
export const siteFiles = (dir: string) => [...walk(dir)];

/** A map file → sha-free content, for byte-for-byte comparisons. */
export function snapshotDir(dir: string): Map<string, Buffer> {
  return new Map(siteFiles(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

/** Site-relative URL → the file that serves it (the trailing-slash policy of cli/resolve/urls.ts). */
export function fileForUrl(pathname: string): string {
  if (pathname === '/') return 'index.html';
  if (/\.[a-z0-9]+$/i.test(pathname)) return pathname.slice(1);
  return `${pathname.slice(1)}.html`;
}

/** Internal links and asset references of an HTML page (href, src), fragments removed. */
export function internalRefs(html: string): string[] {
  const refs = [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
  return refs.filter((r) => r.startsWith('/') && !r.startsWith('//')).map((r) => r.split('#')[0]!.split('?')[0]!);
}

/** A page of the built site for a route in a locale (ru at the root, en and de under their prefix). */
export const localeUrl = (route: string, locale: 'ru' | 'en' | 'de') => (locale === 'ru' ? route : route === '/' ? `/${locale}` : `/${locale}${route}`);

/** What a visitor reads: the body's text, tags out, entities and no-break spaces as plain characters, soft hyphens (shown only where a word breaks) out. */
export const visibleText = (page: string) =>
  page
    .replace(/^[\s\S]*?<body[^>]*>/, '')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\u00ad|&shy;/g, '')
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/\s+/g, ' ');
