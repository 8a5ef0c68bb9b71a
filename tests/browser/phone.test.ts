import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';
import { ROOT } from '../helpers/cli.ts';
import { siteFiles } from '../helpers/site.ts';

const SHOTS = join(ROOT, 'test-results', 'screenshots');
const dist = inject('siteDir');
const served = siteInBrowser(dist);
/** Every page of the built site (the not-found pages too), as the URL that serves it. */
let urls: string[] = [];

beforeAll(() => {
  urls = siteFiles(dist)
    .filter((f) => f.endsWith('.html'))
    .map((f) => (f === 'index.html' ? '/' : `/${f.replace(/\.html$/, '')}`));
  mkdirSync(SHOTS, { recursive: true });
});

/** Opens a page the way a visitor does (a not-found page stays on screen for seconds before it goes home: long enough to be measured). */
async function visit(page: Page, url: string): Promise<void> {
  const res = await page.goto(served.base + url, { waitUntil: 'load' });
  expect(res?.status(), url).toBe(200);
}

describe.skipIf(SKIP_BROWSER)('every page on a phone', () => {
  for (const width of [320, 390])
    it(`fits ${width} px: the document is no wider than the screen, and nothing is logged as an error`, async () => {
      const context = await served.browser.newContext({ viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const errors: string[] = [];
      let current = '';
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${current}: ${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (e) => errors.push(`${current}: ${e.message}`));
      const tooWide: string[] = [];
      for (const url of urls) {
        current = url;
        await visit(page, url);
        const { scroll, client } = await page.evaluate(() => ({
          scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
          client: document.documentElement.clientWidth,
        }));
        if (scroll > client) tooWide.push(`${url}: ${scroll} px wide at ${client} px`);
        if (/^\/((en|de)\/)?(prises|schedule)$/.test(url))
          await page.screenshot({ path: join(SHOTS, `${url.slice(1).replaceAll('/', '-')}-${width}.png`), fullPage: true });
      }
      await context.close();
      expect(tooWide).toEqual([]);
      expect(errors).toEqual([]);
    }, 600_000);

  it('names a favicon that exists, and /favicon.ico is there for those who ask without looking', async () => {
    const html = await (await fetch(`${served.base}/`)).text();
    const icons = [...html.matchAll(/<link rel="icon" href="([^"]+)"[^>]*>/g)].map((m) => m[1]!);
    expect(icons).toEqual(expect.arrayContaining(['/favicon.svg', '/favicon.ico']));
    for (const icon of new Set([...icons, '/favicon.ico'])) {
      const res = await fetch(served.base + icon);
      expect(res.status, icon).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (icon.endsWith('.svg')) expect(bytes.toString('utf8')).toMatch(/^<svg [^>]*viewBox="0 0 32 32"/);
      // An ICO directory of one 32×32 image.
      else expect([...bytes.subarray(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32]);
    }
  });
});
