// Issue 36, section 2: a large file of the site (a sitemap of 10,000 addresses, several MB) is
// compressed once per file identity, not with gzip 9 and brotli on every request.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { compressedFiles } from '../../cli/serve/http/static.ts';
import { serveSite } from '../helpers/serve.ts';

const root = mkdtempSync(join(tmpdir(), 'studio-large-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sitemap = (n: number, tag: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
    { length: n },
    (_, i) =>
      `<url><loc>https://studio.example/${tag}/course-${i}</loc><lastmod>2026-12-07</lastmod><xhtml:link rel="alternate" hreflang="de" href="https://studio.example/de/${tag}/course-${i}"/></url>`,
  ).join('\n')}\n</urlset>\n`;

describe('content serve: a large site file', () => {
  it('is compressed once and served from that copy until the file changes', async () => {
    const site = join(root, 'dist');
    cpSync(inject('siteDir'), site, { recursive: true });
    const big = sitemap(30_000, 'a');
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    writeFileSync(join(site, 'sitemap.xml'), big);
    const server = await serveSite(site);
    try {
      const get = (encoding: string) => fetch(`${server.url}/sitemap.xml`, { headers: { 'accept-encoding': encoding } });
      const first = await get('br');
      expect(first.headers.get('content-encoding')).toBe('br');
      const before = compressedFiles();
      for (let i = 0; i < 5; i++) {
        const r = await get(i % 2 ? 'gzip' : 'br');
        expect(r.headers.get('content-encoding')).toBe(i % 2 ? 'gzip' : 'br');
        expect(await r.text()).toBe(big); // (fetch decodes it)
      }
      expect(compressedFiles()).toBe(before); // served from the compressed copy
      expect(await (await get('identity')).text()).toBe(big);
      // A new file at the same path (a rebuild): compressed once more, then served from that copy.
      const next = sitemap(30_000, 'b');
      writeFileSync(join(site, 'sitemap.xml'), next);
      expect(await (await get('br')).text()).toBe(next);
      await get('br');
      expect(compressedFiles()).toBe(before + 1);
    } finally {
      await server.stop();
    }
  });
});
