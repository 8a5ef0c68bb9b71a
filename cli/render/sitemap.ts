import type { PageModel } from '../../templates/model.ts';
import { escapeHtml } from '../util/escape.ts';

const escapeXml = escapeHtml;

/** sitemap.xml: every page listed (`inSitemap`), each with its alternates in every locale (xhtml:link). */
export function sitemapXml(pages: Pick<PageModel, 'inSitemap' | 'canonical' | 'hreflang'>[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const page of pages) {
    if (!page.inSitemap || !page.canonical) continue;
    lines.push('  <url>', `    <loc>${escapeXml(page.canonical)}</loc>`);
    for (const alt of page.hreflang) lines.push(`    <xhtml:link rel="alternate" hreflang="${alt.hreflang}" href="${escapeXml(alt.href)}"/>`);
    lines.push('  </url>');
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${baseUrl.replace(/\/$/, '')}/sitemap.xml\n`;
}
