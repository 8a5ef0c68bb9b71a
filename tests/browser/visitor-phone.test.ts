import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { USES } from '../../cli/schema/image-uses.ts';
import { browserWithTextSize, SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';

/**
 * Issue 37, "Visitors on phones": what a parent on a phone (390 and 320 px, a large text size,
 * a slow connection, dark mode, a printer) meets on the shipped site, point by point, in Chromium.
 */
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const dist = inject('siteDir');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const served = siteInBrowser(dist);

async function withPage<T>(options: Parameters<Browser['newContext']>[0], use: (page: Page) => Promise<T>): Promise<T> {
  const context = await served.browser.newContext(options);
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** axe-core's serious and critical violations on the page as it is (light or dark). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected into the page
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: { target: string[] }[] }) => `${location.pathname}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`);
  });
}

describe.skipIf(SKIP_BROWSER)('a visitor on a phone (issue 37)', () => {
  it('1. paints from the first response: the stylesheet is in the page, the form script is loaded only by pages with the form (slow 3G measured)', async () => {
    const measured: string[] = [];
    for (const path of ['/early-development', '/prises']) {
      await withPage(PHONE, async (page) => {
        const requests: string[] = [];
        page.on('request', (r) => requests.push(new URL(r.url()).pathname));
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        // DevTools' "Slow 3G": 2 s round trip, 50 KB/s (a figure reported, never asserted).
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2000, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 });
        const started = Date.now();
        await page.goto(served.base + path, { waitUntil: 'commit' });
        const hasForm = path !== '/prises';
        if (hasForm) await page.waitForSelector('form[data-hydrated]', { timeout: 0 });
        const interactive = Date.now() - started;
        await page.waitForLoadState('load');
        const paint = await page.evaluate(
          () =>
            new Promise<number>((resolve) =>
              new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({ type: 'paint', buffered: true }),
            ),
        );
        measured.push(`${path}: first contentful paint ${Math.round(paint)} ms${hasForm ? `, form hydrated ${interactive} ms after the request` : ''}`);
        expect(requests.filter((r) => r.endsWith('.css'))).toEqual([]);
        const scripts = requests.filter((r) => r.endsWith('.js'));
        if (hasForm) expect(scripts.length).toBeGreaterThan(0);
        else expect(scripts).toEqual([]);
        // The page is styled: the stylesheet came with it.
        expect(await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
        // The form's script never holds the first paint: it is a module at the end of the body, fetched on the side.
        const tags = await page.evaluate(() =>
          [...document.scripts].filter((s) => s.src).map((s) => ({ inHead: !!s.closest('head'), type: s.type, async: s.async })),
        );
        for (const t of tags) expect(t).toEqual({ inHead: false, type: 'module', async: true });
      });
    }
    console.info(`Slow 3G (CDP), 390 px phone:\n  ${measured.join('\n  ')}`);
  }, 300_000);

  it('2. finds the courses by audience from the top of the home page, without JavaScript; offers take one row; the menu closes after an in-page link', async () => {
    await withPage({ ...PHONE, javaScriptEnabled: false }, async (page) => {
      await page.goto(`${served.base}/`, { waitUntil: 'load' });
      const index = await page.$$eval('nav.course-index a', (as) =>
        as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent, top: a.getBoundingClientRect().top })),
      );
      expect(index.map((a) => a.href)).toEqual(['#courses-children', '#courses-all', '#courses-adults']);
      expect(index.map((a) => a.text)).toEqual(['Для детей', 'Для детей и взрослых', 'Для взрослых']);
      // On the first screen.
      for (const a of index) expect(a.top).toBeLessThan(844);
      // The adults' choir is among the adults', not among the toddlers' groups.
      const groups = await page.$$eval('section.course-group', (ss) =>
        ss.map((s) => ({ id: s.id, titles: [...s.querySelectorAll('.card h4')].map((h) => h.textContent) })),
      );
      expect(groups.map((g) => g.id)).toEqual(['courses-children', 'courses-all', 'courses-adults']);
      expect(groups[2]!.titles).toContain('Хор для взрослых');
      expect(groups[0]!.titles).not.toContain('Хор для взрослых');
      expect(groups[0]!.titles[0]).toBe('Мини-садик Mini-Kita 2+');
      await page.click('nav.course-index a[href="#courses-adults"]');
      expect(new URL(page.url()).hash).toBe('#courses-adults');
      const heading = await page.$eval('#courses-adults h3', (h) => h.getBoundingClientRect().top);
      expect(heading).toBeGreaterThanOrEqual(-1);
      expect(heading).toBeLessThan(200);
      // Courses come before the offers; the offers are one row that scrolls sideways.
      const order = await page.evaluate(() => [document.getElementById('courses')!.offsetTop, document.getElementById('offers')!.offsetTop]);
      expect(order[0]).toBeLessThan(order[1]!);
      const banners = await page.$eval('ul.banners', (u) => ({
        height: u.getBoundingClientRect().height,
        scrolls: u.scrollWidth > u.clientWidth,
        count: u.children.length,
      }));
      expect(banners.count).toBeGreaterThan(1);
      expect(banners.scrolls).toBe(true);
      expect(banners.height).toBeLessThan(844);
    });
    await withPage(PHONE, async (page) => {
      await page.goto(`${served.base}/`, { waitUntil: 'load' });
      await page.click('details.menu-toggle summary');
      expect(await page.$eval('details.menu-toggle', (d) => (d as HTMLDetailsElement).open)).toBe(true);
      await page.click('details.menu-toggle a[href="/#contacts"]');
      await page.waitForFunction(() => location.hash === '#contacts');
      expect(await page.$eval('details.menu-toggle', (d) => (d as HTMLDetailsElement).open)).toBe(false);
    });
  });

  it('3. goes on from the price page: lines link to their course, each section signs up for its course with the course chosen', async () => {
    await withPage(PHONE, async (page) => {
      await page.goto(`${served.base}/en/prises`, { waitUntil: 'load' });
      const sections = await page.$$eval('section.price-category', (ss) =>
        ss.map((s) => ({
          id: s.id || s.getAttribute('aria-labelledby'),
          lines: [...s.querySelectorAll('.price-list li:not(.sub)')].map((li) => li.querySelector('a.price-name')?.getAttribute('href') ?? null),
          signUps: [...s.querySelectorAll('.card-actions a.button')].map((a) => a.getAttribute('href')!),
        })),
      );
      const vocal = sections.find((s) => s.id === 'cat-vocal')!;
      expect(vocal.lines.every((h) => h === '/en/vocal')).toBe(true);
      expect(vocal.signUps).toEqual(['/en/vocal#enquiry']);
      // Every section that prices a course of the site signs up for it; the links lead to pages that exist.
      const linked = sections.flatMap((s) => [...s.lines.filter((h): h is string => h !== null), ...s.signUps]);
      expect(linked.length).toBeGreaterThan(20);
      for (const href of new Set(linked.map((h) => h.split('#')[0]!))) expect((await fetch(served.base + href)).status, href).toBe(200);
      for (const s of sections.filter((s) => s.lines.some((h) => h !== null))) expect(s.signUps.length, s.id ?? '').toBeGreaterThan(0);
      // The sign-up link opens the course's form with the course chosen.
      const piano = sections.find((s) => s.id === 'cat-guitar-piano')!.signUps.find((h) => h.includes('piano'))!;
      await Promise.all([page.waitForURL(`${served.base}${piano}`), page.click(`.card-actions a[href="${piano}"]`)]);
      expect(new URL(page.url()).pathname).toBe('/en/piano-lessons');
      expect(await page.$eval('#enquiry-course', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toMatch(/piano/i);
    });
  });

  it('4. keeps words and amounts whole in tables and prices at a 24 px text size on 320 and 390 px; a wide table scrolls in its box', async () => {
    const context = await browserWithTextSize(24, { width: 320, height: 700 });
    const page = await context.newPage();
    const broken: string[] = [];
    try {
      for (const width of [320, 390]) {
        await page.setViewportSize({ width, height: 700 });
        for (const path of ['/prises', '/de/prises', '/schedule', '/de/schedule']) {
          await page.goto(served.base + path, { waitUntil: 'load' });
          const r = await page.evaluate(() => {
            // A word drawn on more than one line is broken; so is an amount whose number and currency part.
            const split: string[] = [];
            const pieces = (el: Element, text: string, at: number) => {
              const range = document.createRange();
              const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes(text));
              if (!node) return 1;
              range.setStart(node, at);
              range.setEnd(node, at + text.length);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            };
            const walker = (root: Element) => [...root.querySelectorAll('th, td, th *, td *, .price strong')];
            for (const el of walker(document.querySelector('main')!)) {
              for (const node of el.childNodes) {
                if (node.nodeType !== Node.TEXT_NODE) continue;
                const text = node.textContent!;
                const words = el.matches('.price strong') ? [text.trim()] : text.split(/\s+/).filter(Boolean);
                let from = 0;
                for (const w of words) {
                  const at = text.indexOf(w, from);
                  from = at + w.length;
                  if (w.length > 1 && pieces(el, w, at) > 1) split.push(w);
                }
              }
            }
            const box = document.querySelector('main .table-scroll');
            return { split, wrap: getComputedStyle(document.body).overflowWrap, box: box ? { scroll: box.scrollWidth, client: box.clientWidth } : null };
          });
          expect(r.wrap).not.toBe('anywhere');
          for (const w of r.split) broken.push(`${path} at ${width} px: "${w}"`);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), path).toBe(true);
        }
      }
    } finally {
      await context.close();
    }
    expect(broken).toEqual([]);
  }, 120_000);

  it('5. caps a course photo on a wide screen, and its sizes pick a file sharp for its box', async () => {
    const { sizes, widths, aspect } = USES.coursePage;
    for (const [width, dpr] of [
      [1280, 1],
      [1280, 2],
      [390, 3],
    ] as const)
      await withPage({ viewport: { width, height: 800 }, deviceScaleFactor: dpr }, async (page) => {
        // The shipped content has no photos: the course page gets one as the build writes it (templates/Picture.tsx), files served here.
        await page.route(/\/photo-\d+\.png$/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TINY_PNG }));
        await page.goto(`${served.base}/early-development`, { waitUntil: 'load' });
        const box = await page.evaluate(
          ({ sizes, widths, aspect }) => {
            const h1 = document.querySelector('main h1')!;
            h1.insertAdjacentHTML(
              'afterend',
              `<picture class="page-photo"><img src="/photo-${widths[0]}.png" srcset="${widths.map((w) => `/photo-${w}.png ${w}w`).join(', ')}" sizes="${sizes}" width="${widths.at(-1)}" height="${Math.round(widths.at(-1)! / aspect!)}" alt=""></picture>`,
            );
            const img = document.querySelector<HTMLImageElement>('.page-photo img')!;
            return new Promise<{ width: number; height: number; chosen: number }>((resolve) => {
              const done = () =>
                resolve({
                  width: img.getBoundingClientRect().width,
                  height: img.getBoundingClientRect().height,
                  chosen: Number(/photo-(\d+)/.exec(img.currentSrc)![1]),
                });
              if (img.complete) done();
              else img.addEventListener('load', done);
            });
          },
          { sizes, widths, aspect },
        );
        // Sharp: the file chosen has as many pixels as the box has device pixels (or it is the largest there is).
        expect(box.chosen >= Math.min(box.width * dpr, widths.at(-1)!) - 1, `${width} px at ${dpr}x: ${box.chosen}w for ${box.width} px`).toBe(true);
        if (width >= 1280) expect(box.height, 'the photo leaves room on the first screen').toBeLessThanOrEqual(800 * 0.55);
      });
  });

  it('6. lists the courses in the form as the home page does: its names, its order, its groups', async () => {
    await withPage(PHONE, async (page) => {
      await page.goto(`${served.base}/de`, { waitUntil: 'load' });
      const home = await page.$$eval('section.course-group', (ss) =>
        ss.map((s) => ({ label: s.querySelector('h3')!.textContent, titles: [...s.querySelectorAll('.card h4')].map((h) => h.textContent) })),
      );
      const form = () =>
        page.$$eval('#enquiry-course optgroup', (gs) =>
          gs.map((g) => ({ label: g.getAttribute('label'), titles: [...g.querySelectorAll('option')].map((o) => o.textContent) })),
        );
      expect(await form()).toEqual(home);
      expect(await page.$$eval('#enquiry-course > option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['']);
      await page.waitForSelector('form[data-hydrated]');
      expect(await form()).toEqual(home);
      expect(JSON.stringify(home)).not.toMatch(/Konzentration/);
    });
  });

  it('7. shows the not-found page, then goes home unless the visitor stays; obvious price addresses lead to the price page', async () => {
    // bypassCSP only so that axe itself can be injected at the end.
    await withPage({ ...PHONE, bypassCSP: true }, async (page) => {
      await page.clock.install();
      const res = await page.goto(`${served.base}/en/no-such-page`, { waitUntil: 'load' });
      expect(res?.status()).toBe(404);
      expect(await page.$('meta[http-equiv="refresh"]')).toBeNull();
      expect(await page.textContent('main h1')).toBe('Page not found');
      expect(await page.$$eval('main a', (as) => as.map((a) => a.getAttribute('href')))).toEqual(['/en', '/en#courses']);
      expect(await page.$$eval('.lang-switch a', (as) => as.map((a) => a.getAttribute('href')))).toEqual(['/', '/en', '/de']);
      expect(await page.isVisible('text=The home page will open in a few seconds.')).toBe(true);
      await page.clock.runFor(11_000);
      await page.waitForURL(`${served.base}/en`);

      await page.goto(`${served.base}/de/gibt-es-nicht`, { waitUntil: 'load' });
      await page.click('button:has-text("Auf dieser Seite bleiben")');
      expect(await page.isVisible('text=In Ordnung, Sie bleiben auf dieser Seite.')).toBe(true);
      await page.clock.runFor(30_000);
      expect(new URL(page.url()).pathname).toBe('/de/gibt-es-nicht');
      expect(await axeViolations(page)).toEqual([]);
    });
    for (const [from, to] of [
      ['/prices', '/prises'],
      ['/en/prices', '/en/prises'],
      ['/de/preise', '/de/prises'],
      ['/de/prices', '/de/prises'],
    ]) {
      const r = await fetch(served.base + from, { redirect: 'manual' });
      expect([r.status, r.headers.get('location')], from).toEqual([301, to]);
    }
  }, 120_000);

  it('8. gives language and footer links a 24 px target at least, apart; the skip link stays hidden at a 24 px text size until focused', async () => {
    await withPage(PHONE, async (page) => {
      await page.goto(`${served.base}/de`, { waitUntil: 'load' });
      const targets = await page.$$eval('.lang-switch a, .footer-links a', (as) => as.map((a) => a.getBoundingClientRect().toJSON() as DOMRect));
      expect(targets.length).toBe(6);
      for (const t of targets) {
        expect(t.width).toBeGreaterThanOrEqual(24);
        expect(t.height).toBeGreaterThanOrEqual(24);
      }
      // No two overlap.
      for (const [i, a] of targets.entries())
        for (const b of targets.slice(i + 1)) expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top).toBe(true);
    });
    const context = await browserWithTextSize(24, { width: 320, height: 700 });
    const page = await context.newPage();
    try {
      for (const width of [320, 390])
        for (const path of ['/', '/de/early-development']) {
          await page.setViewportSize({ width, height: 700 });
          await page.goto(served.base + path, { waitUntil: 'load' });
          expect((await page.$eval('.skip-link', (a) => a.getBoundingClientRect().bottom)) <= 0, `${path} at ${width} px`).toBe(true);
          await page.keyboard.press('Tab');
          expect(await page.$eval('.skip-link', (a) => a.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
        }
    } finally {
      await context.close();
    }
  });

  it('9. prints what is read: no menus or form, dark contacts, headings kept with what follows, rows whole', async () => {
    await withPage({ viewport: { width: 1280, height: 800 } }, async (page) => {
      await page.goto(`${served.base}/early-development`, { waitUntil: 'load' });
      await page.emulateMedia({ media: 'print' });
      const r = await page.evaluate(() => {
        const shown = (sel: string) => [...document.querySelectorAll(sel)].some((e) => getComputedStyle(e).display !== 'none');
        const footer = getComputedStyle(document.querySelector('.site-footer dd, .site-footer dt')!);
        return {
          nav: shown('.main-nav') || shown('.lang-switch') || shown('.skip-link'),
          form: shown('.enquiry'),
          footerColor: footer.color,
          footerBackground: getComputedStyle(document.querySelector('.site-footer')!).backgroundColor,
          h2: getComputedStyle(document.querySelector('main h2')!).breakAfter,
        };
      });
      expect(r).toMatchObject({ nav: false, form: false, footerColor: 'rgb(0, 0, 0)', footerBackground: 'rgb(255, 255, 255)', h2: 'avoid' });
      await page.goto(`${served.base}/prises`, { waitUntil: 'load' });
      expect(await page.$eval('main tr', (tr) => getComputedStyle(tr).breakInside)).toBe('avoid');
      const pdf = await page.pdf({ format: 'A4' });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    });
  });

  it('10. follows a dark colour scheme with no contrast problem (axe-core in light and dark)', async () => {
    const found: string[] = [];
    for (const colorScheme of ['dark', 'light'] as const)
      await withPage({ ...PHONE, colorScheme, bypassCSP: true }, async (page) => {
        for (const path of ['/', '/en/vocal', '/de/prises', '/teachers', '/en/faq', '/de/schedule', '/en/impressum', '/de/thanks', '/en/no-such-page']) {
          await page.goto(served.base + path, { waitUntil: 'load' });
          if (colorScheme === 'dark') expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(21, 23, 28)');
          found.push(...(await axeViolations(page)).map((v) => `${colorScheme} ${v}`));
        }
        // The form with its errors shown.
        await page.goto(`${served.base}/en/vocal#enquiry`, { waitUntil: 'load' });
        await page.waitForSelector('form[data-hydrated]');
        await page.click('#enquiry button[type="submit"]');
        await page.waitForSelector('.form-alert');
        found.push(...(await axeViolations(page)).map((v) => `${colorScheme} form errors ${v}`));
      });
    expect(found).toEqual([]);
  }, 240_000);
});

/** A tiny PNG of the photo's shape: what its files are in test 5 (only which file the browser asks for matters). */
const TINY_PNG = await sharp({ create: { width: 16, height: 9, channels: 3, background: '#887766' } })
  .png()
  .toBuffer();
