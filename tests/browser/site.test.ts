import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { pastMinimumFillTime, SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';
import { CONTENT, ROOT, runCli } from '../helpers/cli.ts';

const LOCALES = ['ru', 'en', 'de'] as const;
type L = (typeof LOCALES)[number];
const ui = parse(readFileSync(join(CONTENT, 'ui.yaml'), 'utf8')) as Record<string, Record<string, Record<L, string>>>;
const site = parse(readFileSync(join(CONTENT, 'site.yaml'), 'utf8')) as { menu: { label: Record<L, string> }[] };
const routes = (parse(readFileSync(join(CONTENT, 'routes.yaml'), 'utf8')) as { routes: { path: string }[] }).routes.map((r) => r.path);
const banners = (parse(readFileSync(join(CONTENT, 'banners.yaml'), 'utf8')) as { banners: { title: Record<L, string> }[] }).banners;
const SHOTS = join(ROOT, 'test-results', 'screenshots');
const home = (l: L) => (l === 'ru' ? '/' : `/${l}`);
const at = (l: L, route: string) => (l === 'ru' ? route : `/${l}${route}`);

const dist = inject('siteDir');
// The real server with its real inbox and its bot filter; the page's clock is moved past the minimum fill time.
const MIN_FILL_MS = 2000;
const served = siteInBrowser(dist, { minFillMs: MIN_FILL_MS, rateLimit: { max: 0, windowMs: 60_000 } });

/** What the studio sees: the enquiries `content enquiries list` shows. */
async function listed(): Promise<{ name: string; course: string; email: string; message: string; locale: string; via: string }[]> {
  const r = await runCli(['enquiries', 'list', '--data', served.inbox, '--out', dist, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

async function open(path: string, options: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<{ page: Page; context: BrowserContext }> {
  const context = await served.browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(served.base + path, { waitUntil: 'load' });
  return { page, context };
}

/** Waits until the form's React part has hydrated (the loader marks the form). */
const hydrated = (page: Page) => page.waitForSelector('form[data-hydrated="true"]', { timeout: 0 });

/** The error text tied to a field through aria-describedby. */
async function fieldError(page: Page, name: string): Promise<string> {
  return page.$eval(`#enquiry form [name="${name}"]`, (el) => {
    const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id.endsWith('-error')); // the e-mail field is also described by the privacy note
    return ids
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
  });
}

describe.skipIf(SKIP_BROWSER).each(LOCALES)('the site in %s', (locale) => {
  it('shows the course list, the seven banners, the contact section and the opening hours', async () => {
    const { page, context } = await open(home(locale));
    expect(await page.getAttribute('html', 'lang')).toBe(locale);
    expect(await page.textContent('#courses')).toContain(ui.home!.offeringsTitle![locale]);
    expect(await page.$$eval('#courses li', (els) => els.length)).toBeGreaterThanOrEqual(20);
    const offers = (await page.textContent('#offers')) ?? '';
    for (const b of banners) expect(offers).toContain(b.title[locale]);
    expect(await page.isVisible('#contacts')).toBe(true);
    expect(await page.textContent('footer')).toContain(ui.footer!.hours![locale]);
    await context.close();
  });

  it('reaches every menu entry of SPEC.md from the menu', async () => {
    const { page, context } = await open(home(locale));
    const labels = await page.$$eval('header nav a', (as) => as.map((a) => a.textContent?.trim() ?? ''));
    for (const m of site.menu) expect(labels).toContain(m.label[locale]);
    const hrefs = await page.$$eval('header nav a', (as) => as.map((a) => a.getAttribute('href')!));
    for (const href of hrefs) {
      const res = await page.request.get(served.base + href.split('#')[0]);
      expect(res.status(), href).toBe(200);
    }
    await context.close();
  });

  it('keeps the page when switching language', async () => {
    const { page, context } = await open(at(locale, '/vocal'));
    const other: L = locale === 'en' ? 'de' : 'en';
    await page.click(`a[hreflang="${other}"]`);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).pathname).toBe(at(other, '/vocal'));
    await context.close();
  });

  it('validates the form in the page language, ties errors to fields and moves focus', async () => {
    const { page, context } = await open(home(locale));
    await hydrated(page);
    const placeholder = await page.$eval('#enquiry select[name="course"] option', (o) => o.textContent?.trim());
    expect(placeholder).toBe(ui.form!.coursePlaceholder![locale]);
    await page.click('#enquiry button[type="submit"]');
    expect(await fieldError(page, 'name')).toBe(ui.form!.errorRequired![locale]);
    expect(await fieldError(page, 'email')).toBe(ui.form!.errorRequired![locale]);
    expect(await fieldError(page, 'course')).toBe(ui.form!.errorCourse![locale]);
    expect(await page.getAttribute('#enquiry [name="name"]', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await page.fill('#enquiry [name="email"]', 'not-an-email');
    await page.click('#enquiry [name="name"]');
    expect(await fieldError(page, 'email')).toBe(ui.form!.errorEmail![locale]);
    await context.close();
  });

  it('sends a valid enquiry and shows the confirmation', async () => {
    const { page, context } = await open(home(locale));
    await hydrated(page);
    await page.fill('#enquiry [name="name"]', `Test ${locale}`);
    await page.selectOption('#enquiry [name="course"]', 'music');
    await page.fill('#enquiry [name="message"]', 'Hello <b>there</b>');
    await page.fill('#enquiry [name="email"]', 'parent@example.org');
    await pastMinimumFillTime(page, MIN_FILL_MS);
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${ui.form!.success![locale]}")`);
    const human = await runCli(['enquiries', 'list', '--data', served.inbox, '--out', dist]);
    expect(human.stdout).toMatch(new RegExp(`Test ${locale} +Вокал +parent@example.org +${locale} +Hello <b>there</b>`));
    expect((await listed()).filter((e) => e.name === `Test ${locale}`)).toEqual([
      expect.objectContaining({ course: 'music', email: 'parent@example.org', message: 'Hello <b>there</b>', locale, via: 'json' }),
    ]);
    await context.close();
  });

  it('keeps everything typed and offers phone and e-mail when sending fails', async () => {
    const { page, context } = await open(home(locale));
    await hydrated(page);
    await page.route('**/api/enquiry', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.fill('#enquiry [name="name"]', 'Anna');
    await page.selectOption('#enquiry [name="course"]', 'piano');
    await page.fill('#enquiry [name="message"]', 'Please call me in the evening');
    await page.fill('#enquiry [name="email"]', 'anna@example.org');
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    const alert = (await page.textContent('#enquiry form [role="alert"]')) ?? '';
    expect(alert).toContain(ui.form!.failure![locale].slice(0, 20));
    expect(await page.inputValue('#enquiry [name="name"]')).toBe('Anna');
    expect(await page.inputValue('#enquiry [name="message"]')).toBe('Please call me in the evening');
    expect(await page.inputValue('#enquiry [name="course"]')).toBe('piano');
    await context.close();
  });

  it('can be completed with the keyboard only', async () => {
    const { page, context } = await open(home(locale));
    await hydrated(page);
    await page.focus('#enquiry [name="name"]');
    await page.keyboard.type('Keyboard User');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Sent with the keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keys@example.org');
    await pastMinimumFillTime(page, MIN_FILL_MS);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${ui.form!.success![locale]}")`);
    expect((await listed()).filter((e) => e.message === 'Sent with the keyboard' && e.locale === locale)).toHaveLength(1);
    await context.close();
  });

  it('preselects the course of a course page in its sign-up form', async () => {
    const { page, context } = await open(at(locale, '/piano-lessons'));
    await page.click(`main a[href$="#enquiry"]`);
    expect(await page.inputValue('#enquiry [name="course"]')).toBe('piano');
    await context.close();
  });

  it('leads an unknown path to the home page of its locale', async () => {
    const { page, context } = await open(at(locale, '/no-such-page'));
    // The not-found page says so for a few seconds first; the test's own time limit bounds the wait.
    await page.waitForURL((u) => u.pathname === home(locale), { timeout: 0 });
    await context.close();
  });

  it('shows the fallback message when the form script part cannot load', async () => {
    const context = await served.browser.newContext();
    const page = await context.newPage();
    // Block the form's React part: the chunk the loader imports on demand.
    const loader = readFileSync(join(dist, (await (await fetch(served.base + home(locale))).text()).match(/<script[^>]+src="\/([^"]+)"/)![1]!), 'utf8');
    const island = loader.match(/import\(["'`]\.\.\/chunks\/([^"'`]+)["'`]\)/)![1]!; // either bundler's quotes
    await page.route(`**/${island}`, (route) => route.abort());
    await page.goto(served.base + home(locale));
    await page.waitForSelector(`text=${ui.form!.scriptFailed![locale].slice(0, 25)}`, { timeout: 0 });
    await context.close();
  });

  it('works without JavaScript: content shows and the form posts natively', async () => {
    const { page, context } = await open(home(locale), { javaScriptEnabled: false });
    expect(await page.textContent('h1')).toBeTruthy();
    await page.fill('#enquiry [name="name"]', 'No Script');
    await page.selectOption('#enquiry [name="course"]', 'chess');
    await page.fill('#enquiry [name="email"]', 'noscript@example.org');
    await Promise.all([page.waitForURL((u) => u.pathname === at(locale, '/thanks')), page.click('#enquiry button[type="submit"]')]);
    expect(await page.textContent('h1')).toBe(ui.form!.thanksTitle![locale]);
    // The same words the form shows when it is sent with JavaScript.
    expect(await page.textContent('main p')).toBe(ui.form!.success![locale]);
    expect((await listed()).filter((e) => e.name === 'No Script' && e.locale === locale)).toEqual([
      expect.objectContaining({ course: 'chess', email: 'noscript@example.org', via: 'form' }),
    ]);
    await context.close();
  });

  it('shows every page with its content when JavaScript is off', async () => {
    const context = await served.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const route of routes) {
      const res = await page.goto(served.base + at(locale, route));
      expect(res?.status(), route).toBe(200);
      expect((await page.textContent('main h1'))?.trim(), route).toBeTruthy();
      expect(await page.isVisible('header nav'), route).toBe(true);
    }
    await context.close();
  });

  it('lays out home, a course page, prices, the schedule and the form with errors at phone and desktop widths (screenshots kept for review)', async () => {
    for (const [width, size] of [
      [390, 'phone'],
      [1280, 'desktop'],
    ] as const) {
      for (const [name, path] of [
        ['home', home(locale)],
        ['course', at(locale, '/vocal')],
        ['prices', at(locale, '/prises')],
        ['schedule', at(locale, '/schedule')],
      ] as const) {
        const { page, context } = await open(path, { width });
        // Nothing wider than the screen: no sideways scrolling on a phone. Wide tables and the row of
        // offers scroll inside their own box, so what is in a box that scrolls sideways is measured by
        // the page's scroll width alone.
        const widest = await page.evaluate(() => {
          const inScroller = (el: Element) => {
            for (let up = el.parentElement; up; up = up.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
            return false;
          };
          return Math.max(
            ...[...document.querySelectorAll('body *')].filter((el) => !el.closest('table') && !inScroller(el)).map((el) => el.getBoundingClientRect().right),
          );
        });
        expect(widest, `${name} at ${width}px`).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width}px`).toBeLessThanOrEqual(width);
        expect(await page.isVisible('main h1'), `${name} at ${width}px`).toBe(true);
        const shot = await page.screenshot({ path: join(SHOTS, `${name}-${locale}-${size}.png`), fullPage: true });
        expect(shot.subarray(1, 4).toString()).toBe('PNG');
        await context.close();
      }
      const { page, context } = await open(home(locale), { width });
      await hydrated(page);
      await page.click('#enquiry button[type="submit"]');
      await page.waitForSelector('#enquiry form [role="alert"]');
      // The error summary is on screen, inside the form's width.
      const alert = (await page.$('#enquiry form [role="alert"]'))!;
      expect(await alert.isVisible()).toBe(true);
      const box = (await alert.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await (await page.$('#enquiry'))!.screenshot({ path: join(SHOTS, `form-errors-${locale}-${size}.png`) });
      await context.close();
    }
  });
});
