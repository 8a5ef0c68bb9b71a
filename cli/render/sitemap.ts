import type { PageModel } from '../../templates/model.ts';
import { escapeHtml } from '../util/escape.ts';

const escapeXml = escapeHtml;

/** sitemap.xml: every page listed (`inSitemap`), each with its alternates in every locale (xhtml:link). */
export function sitemapXml(pages: Pick<PageModel, 'inSitemap' | 'canonical' | 'hreflang'>[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  // The pages of one route in every locale share one list of alternates: its lines are made once.
  const alternates = new Map<PageModel['hreflang'], string>();
  for (const page of pages) {
    if (!page.inSitemap || !page.canonical) continue;
    let links = alternates.get(page.hreflang);
    if (links === undefined) {
      links = page.hreflang.map((alt) => `\n    <xhtml:link rel="alternate" hreflang="${alt.hreflang}" href="${escapeXml(alt.href)}"/>`).join('');
      alternates.set(page.hreflang, links);
    }
    lines.push(`  <url>\n    <loc>${escapeXml(page.canonical)}</loc>${links}\n  </url>`);
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${baseUrl.replace(/\/$/, '')}/sitemap.xml\n`;
}
