import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserWithTextSize, SKIP_BROWSER } from '../helpers/browser.ts';
import { serveSite } from '../helpers/serve.ts';
import { siteFiles } from '../helpers/site.ts';

/**
 * WCAG 1.4.4 (resize text) and 1.4.10 (reflow): a visitor who sets a larger text size in the
 * browser reads every page on a phone without scrolling sideways. The text size is Chromium's own
 * setting (Settings → Appearance → Font size: its profile preference `default_font_size`, 16 px by
 * default), set to 150 % and 200 %; the screens are 320 px (WCAG's reflow width) and 390 px wide.
 */
const TEXT_SIZES = [
  { name: '150 %', px: 24 },
  { name: '200 %', px: 32 },
];
const WIDTHS = [320, 390];

const dist = inject('siteDir');
let urls: string[] = [];
let base: string;
let stop: () => Promise<void>;
beforeAll(async () => {
  urls = siteFiles(dist)
    .filter((f) => f.endsWith('.html') && !/(^|\/)404\.html$/.test(f))
    .map((f) => (f === 'index.html' ? '/' : `/${f.replace(/\.html$/, '')}`));
  const server = await serveSite(dist);
  base = server.url;
  stop = server.stop;
}, 240_000);

afterAll(async () => {
  await stop?.();
});

describe.skipIf(SKIP_BROWSER)('every page at a larger text size', () => {
  it('runs off no 320 or 390 px screen at 150 % and 200 % text size, and the schedule shows its whole time column', async () => {
    const found: string[] = [];
    for (const size of TEXT_SIZES) {
      const context = await browserWithTextSize(size.px, { width: WIDTHS[0]!, height: 700 });
      const page = await context.newPage();
      try {
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 700 });
          for (const url of urls) {
            await page.goto(base + url, { waitUntil: 'load' });
            const r = await page.evaluate(() => {
              const doc = document.documentElement;
              // What sticks out past the right edge of the screen, named so a failure says where.
              const out = [...document.querySelectorAll('body *')]
                .filter((e) => e.getBoundingClientRect().right > doc.clientWidth + 1 && !e.closest('.table-scroll'))
                .slice(0, 3)
                .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(' ')[0]}` : ''}`);
              const schedule = document.querySelector('main .table-scroll');
              return {
                rootFont: getComputedStyle(doc).fontSize,
                scrollWidth: doc.scrollWidth,
                viewport: doc.clientWidth,
                out,
                isSchedule: location.pathname.endsWith('/schedule'),
                scheduleCut: schedule ? schedule.scrollWidth > schedule.clientWidth + 1 : false,
              };
            });
            expect(r.rootFont).toBe(`${size.px}px`);
            if (r.scrollWidth > r.viewport) found.push(`${url} at ${width} px, ${size.name}: page ${r.scrollWidth} px wide (${r.out.join(', ')})`);
            if (r.isSchedule && r.scheduleCut) found.push(`${url} at ${width} px, ${size.name}: the schedule table is cut at the edge of its box`);
          }
        }
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 600_000);

  it('hyphenates long words in the language of each text (hyphens: auto, with the lang of the text)', async () => {
    const context = await browserWithTextSize(32, { width: WIDTHS[0]!, height: 700 });
    const page = await context.newPage();
    await page.setViewportSize({ width: 320, height: 700 });
    const found: string[] = [];
    try {
      for (const url of ['/de/integrated-development', '/online-consultation', '/de/prises', '/en/faq']) {
        await page.goto(base + url, { waitUntil: 'load' });
        const r = await page.evaluate(() => {
          const texts = [...document.querySelectorAll('main h1, main h2, main p, main li, main dd, main td, main th')];
          return {
            lang: document.documentElement.lang,
            notHyphenated: texts.filter((e) => getComputedStyle(e).hyphens !== 'auto').map((e) => e.tagName.toLowerCase()),
            withoutLang: texts.filter((e) => !e.closest('[lang]')?.getAttribute('lang')).length,
          };
        });
        if (r.notHyphenated.length) found.push(`${url}: hyphens not auto on ${r.notHyphenated.slice(0, 5).join(', ')}`);
        if (r.withoutLang) found.push(`${url}: ${r.withoutLang} texts without a language`);
        expect(r.lang).toBe(url.startsWith('/de') ? 'de' : url.startsWith('/en') ? 'en' : 'ru');
      }
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  }, 120_000);

  it('shows the keyboard focus in the dark footer with at least 3:1 contrast against it', async () => {
    const context = await browserWithTextSize(16, { width: WIDTHS[0]!, height: 700 });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/en/faq`, { waitUntil: 'load' });
      // Tab to the first link in the footer, as a keyboard user gets there.
      let inFooter = false;
      for (let i = 0; i < 200 && !inFooter; i++) {
        await page.keyboard.press('Tab');
        inFooter = await page.evaluate(() => Boolean(document.activeElement?.closest('.site-footer')));
      }
      expect(inFooter).toBe(true);
      const { outline, style, background } = await page.evaluate(() => {
        const a = document.activeElement!;
        const s = getComputedStyle(a);
        return { outline: s.outlineColor, style: s.outlineStyle, background: getComputedStyle(a.closest('.site-footer')!).backgroundColor };
      });
      expect(style).not.toBe('none');
      expect(contrast(outline, background)).toBeGreaterThanOrEqual(3);
    } finally {
      await context.close();
    }
  }, 60_000);
});

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map(Number) as [number, number, number];
    const lin = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
