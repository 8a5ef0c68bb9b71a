import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';
import { fileForUrl, internalRefs, siteFiles } from '../helpers/site.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const dist = inject('siteDir');
let pages: string[] = [];
const served = siteInBrowser(dist);

beforeAll(() => {
  pages = siteFiles(dist).filter((f) => f.endsWith('.html') && !/(^|\/)(404|thanks)\.html$/.test(f));
});

describe.skipIf(SKIP_BROWSER)('every built page', () => {
  it('exists for all 30 routes in ru, en and de (SPEC’s 29 and /chess, issue 26)', () => {
    expect(pages.length).toBe(90);
  });

  it('has no serious or critical accessibility violation (axe-core)', async () => {
    // bypassCSP only so that axe itself can be injected; the page's own policy forbids inline script.
    const context = await served.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const found: string[] = [];
    for (const file of [...pages, 'thanks.html', 'en/thanks.html']) {
      const url = file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`;
      await page.goto(served.base + url, { waitUntil: 'load' });
      await page.addScriptTag({ content: AXE });
      const violations = (await page.evaluate(async () => {
        // biome-ignore lint/suspicious/noExplicitAny: axe is injected into the page
        const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
          id: v.id,
          impact: v.impact,
          targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
        }));
      })) as { id: string; impact: string; targets: string[] }[];
      for (const v of violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${url}: ${v.id} (${v.impact}) ${v.targets.join(', ')}`);
    }
    await context.close();
    expect(found).toEqual([]);
  }, 300_000);

  it('is valid HTML (html-validate)', async () => {
    const validator = new HtmlValidate({
      // Validity and accessibility, not the style rules: React writes <meta/> and maxLength, which HTML accepts.
      extends: ['html-validate:standard'],
      rules: {
        'no-inline-style': 'error',
        'long-title': 'off',
        'attr-case': 'off',
        'void-style': 'off',
        'attribute-empty-style': 'off',
        'attribute-boolean-style': 'off',
        // Every header cell of every table says which cells it heads, simple tables included.
        'wcag/h63': ['error', { strict: true }],
      },
    });
    const errors: string[] = [];
    for (const file of siteFiles(dist).filter((f) => f.endsWith('.html'))) {
      const report = await validator.validateString(readFileSync(join(dist, file), 'utf8'), file);
      for (const r of report.results) for (const m of r.messages) errors.push(`${file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
    }
    expect(errors).toEqual([]);
  });

  it('links only to files that exist, and names its canonical, description and hreflang alternates', () => {
    const missing: string[] = [];
    for (const file of siteFiles(dist).filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(join(dist, file), 'utf8');
      for (const ref of internalRefs(html)) if (!ref.startsWith('/api/') && !siteFiles(dist).includes(fileForUrl(ref))) missing.push(`${file} → ${ref}`);
      if (pages.includes(file)) {
        expect(html, file).toMatch(/<link rel="canonical" href="https:\/\/[^"]+"/);
        expect(html, file).toMatch(/<meta name="description" content="[^"]{20,}"/);
        for (const l of ['ru', 'en', 'de', 'x-default']) expect(html, `${file} ${l}`).toMatch(new RegExp(`hreflang="${l}"`, 'i'));
      }
    }
    expect(missing).toEqual([]);
  });

  it('is listed in the sitemap, and the sitemap lists nothing else', () => {
    const sitemap = readFileSync(join(dist, 'sitemap.xml'), 'utf8');
    const locs = [...sitemap.matchAll(/<loc>https?:\/\/[^/<]+([^<]*)<\/loc>/g)].map((m) => fileForUrl(m[1] || '/')).sort();
    expect(locs).toEqual([...pages].sort());
    expect(readFileSync(join(dist, 'robots.txt'), 'utf8')).toMatch(/Sitemap: https?:\/\/.+\/sitemap\.xml/);
  });
});
