import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';
import { CONTENT } from '../helpers/cli.ts';

/**
 * Issue #24, point 10, and #25 "Transparency": the form as a visitor sees and uses it, with a
 * mouse, a screen reader, a long text, a sign-up button, and without JavaScript.
 */

const LOCALES = ['ru', 'en', 'de'] as const;
type L = (typeof LOCALES)[number];
const ui = parse(readFileSync(join(CONTENT, 'ui.yaml'), 'utf8')) as Record<string, Record<string, Record<L, string>>>;
const form = ui.form!;
const home = (l: L) => (l === 'ru' ? '/' : `/${l}`);
const at = (l: L, route: string) => (l === 'ru' ? route : `/${l}${route}`);
const dist = inject('siteDir');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious or critical accessibility violations axe-core finds in the page as it is now. */
async function axe(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected into the page
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: { target: string[] }[] }) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

const served = siteInBrowser(dist, { minFillMs: 0, rateLimit: { max: 0, windowMs: 60_000 } });

async function open(path: string, javaScriptEnabled = true): Promise<{ page: Page; context: BrowserContext }> {
  // bypassCSP only so that axe can be injected; the page's own policy forbids inline script.
  const context = await served.browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(served.base + path, { waitUntil: 'load' });
  if (javaScriptEnabled) await page.waitForSelector('form[data-hydrated="true"]', { timeout: 0 });
  return { page, context };
}

/** The error text tied to a field through aria-describedby. */
const fieldError = (page: Page, name: string) => fieldErrorIn(page, '#enquiry form', name);
const fieldErrorIn = (page: Page, form: string, name: string) =>
  page.$eval(`${form} [name="${name}"]`, (el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter((id) => id.endsWith('-error'))
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );

/** What has the focus: its role or name, and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { role: el?.getAttribute('role') ?? '', name: el?.getAttribute('name') ?? '', text: el?.textContent ?? '', tag: el?.tagName ?? '' };
  });

describe.skipIf(SKIP_BROWSER)('the form in a visitor’s hands (#24, point 10)', () => {
  it('does not move the Send button under the pointer when a field’s error appears', async () => {
    const { page, context } = await open('/en');
    await page.fill('#enquiry [name="name"]', 'Pointer');
    await page.selectOption('#enquiry [name="course"]', 'piano');
    await page.fill('#enquiry [name="email"]', 'wrong@address'); // still focused
    const button = (await page.$('#enquiry button[type="submit"]'))!;
    await button.scrollIntoViewIfNeeded();
    const before = (await button.boundingBox())!;
    // A real click: pressed where the button is (the field loses the focus and shows its error), released there.
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    expect((await button.boundingBox())!.y).toBe(before.y);
    await page.mouse.up();
    // The click was a click: the form was checked, and the summary and the field say what is wrong.
    await page.waitForSelector('#enquiry form [role="alert"]', { timeout: 0 });
    expect(await fieldError(page, 'email')).toBe(form.errorEmail!.en);
    expect((await focused(page)).name).toBe('email');
    await context.close();
  });

  it('keeps the button where it is when an error shows up on leaving a field', async () => {
    const { page, context } = await open('/de');
    // Where the button is on the page (not in the viewport, which scrolls to the focused field).
    const y = () => page.$eval('#enquiry button[type="submit"]', (b) => b.getBoundingClientRect().top + window.scrollY);
    const before = await y();
    await page.fill('#enquiry [name="email"]', 'falsch');
    await page.focus('#enquiry [name="name"]');
    expect(await fieldError(page, 'email')).toBe(form.errorEmail!.de);
    expect(await y()).toBe(before);
    await context.close();
  });

  for (const locale of LOCALES)
    it(`moves the focus to the confirmation once sent, and to the failure when not (${locale})`, async () => {
      const { page, context } = await open(home(locale));
      await page.fill('#enquiry [name="name"]', `Focus ${locale}`);
      await page.selectOption('#enquiry [name="course"]', 'piano');
      await page.fill('#enquiry [name="email"]', 'focus@example.org');
      await page.route('**/api/enquiry', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"ok":false}' }));
      await page.click('#enquiry button[type="submit"]');
      await page.waitForSelector('#enquiry form [role="alert"]');
      const failed = await focused(page);
      expect(failed.role).toBe('alert');
      expect(failed.text).toContain(form.failure![locale].slice(0, 20));
      await page.unroute('**/api/enquiry');
      await page.click('#enquiry button[type="submit"]');
      await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success![locale]}")`);
      const sent = await focused(page);
      expect(sent).toMatchObject({ role: 'status', text: form.success![locale] });
      await context.close();
    });

  it('moves the focus to the first field the server refused', async () => {
    const { page, context } = await open('/en');
    await page.fill('#enquiry [name="name"]', 'Refused');
    await page.selectOption('#enquiry [name="course"]', 'piano');
    await page.fill('#enquiry [name="email"]', 'refused@example.org');
    await page.route('**/api/enquiry', (route) =>
      route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ ok: false, errors: { email: 'Not accepted' } }) }),
    );
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    expect(await focused(page)).toMatchObject({ name: 'email' });
    expect(await fieldError(page, 'email')).toBe('Not accepted');
    await context.close();
  });

  it('says when a text is too long and cuts nothing typed', async () => {
    const { page, context } = await open('/en');
    for (const [name, max] of [
      ['name', 200],
      ['message', 5000],
      ['email', 254],
    ] as const) {
      const text = name === 'email' ? `${'a'.repeat(max - 11)}@example.org` : 'x'.repeat(max + 1);
      expect(text.length).toBe(max + 1);
      await page.focus(`#enquiry [name="${name}"]`);
      await page.keyboard.insertText(text); // as a paste
      expect((await page.inputValue(`#enquiry [name="${name}"]`)).length, name).toBe(max + 1);
      expect(await fieldError(page, name), name).toBe(form.errorTooLong!.en.replace('{{max}}', String(max)));
    }
    await context.close();
  });

  it('preselects the course of every sign-up button on the home page', async () => {
    const { page, context } = await open('/en');
    // Chess once chose nothing; every card's button is tried, whether it opens the course's own page
    // (a course without a page, such as Concentration, has neither a card nor an option: issue 37).
    const titles = await page.$$eval('#courses li h4', (hs) => hs.map((h) => h.textContent ?? ''));
    expect(titles).toContain('Chess');
    for (const title of titles) {
      await page.goto(`${served.base}/en`, { waitUntil: 'load' });
      await page.click(`#courses li:has(h4:text-is("${title}")) a.button`);
      await page.waitForFunction(() => location.hash === '#enquiry');
      await page.waitForSelector('#enquiry form[data-hydrated="true"]');
      const chosen = await page.$eval('#enquiry [name="course"]', (s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
      expect(chosen, title).not.toBe('');
      expect(await page.inputValue('#enquiry [name="course"]'), title).not.toBe('');
      if (title === 'Chess') expect(await page.inputValue('#enquiry [name="course"]')).toBe('chess');
    }
    // Every course has an option: a course page's sign-up always preselects its own.
    await page.goto(`${served.base}/en/logorhythmics`, { waitUntil: 'load' });
    await page.click('main a.button[href="#enquiry"]');
    expect(await page.$eval('#enquiry [name="course"]', (s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe('Logorhythmics');
    await context.close();
  });

  it('shows the localized rate-limit message, not the server’s, when sending too often', async () => {
    const { page, context } = await open('/de');
    await page.fill('#enquiry [name="name"]', 'Limited');
    await page.selectOption('#enquiry [name="course"]', 'piano');
    await page.fill('#enquiry [name="email"]', 'limited@example.org');
    await page.route('**/api/enquiry', (route) =>
      route.fulfill({ status: 429, contentType: 'application/json', headers: { 'retry-after': '60' }, body: '{"ok":false,"message":"Too many enquiries"}' }),
    );
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    expect(await page.textContent('#enquiry form [role="alert"]')).toContain(form.errorRateLimited!.de);
    expect(await page.inputValue('#enquiry [name="name"]')).toBe('Limited');
    await context.close();
  });
});

describe.skipIf(SKIP_BROWSER).each(LOCALES)('without JavaScript, in %s', (locale) => {
  it('answers a refused form with a page of the site: its styles, its header and a link back to the form', async () => {
    const { page, context } = await open(at(locale, '/piano-lessons'), false);
    await page.fill('#enquiry [name="name"]', 'No script');
    await page.fill('#enquiry [name="email"]', 'no@dot'); // the browser accepts it, the server does not
    await Promise.all([page.waitForURL((u) => u.pathname === '/api/enquiry'), page.click('#enquiry button[type="submit"]')]);
    expect(await page.getAttribute('html', 'lang')).toBe(locale);
    expect(await page.isVisible('header.site-header a.brand')).toBe(true);
    expect(await page.evaluate(() => [...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0))).toBeGreaterThan(20);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).maxWidth)).not.toBe('none');
    const back = (await page.$('main a[href$="#enquiry"]'))!;
    expect(back).not.toBeNull();
    expect((await back.textContent())?.trim()).toBe(form.backToForm![locale]);
    await Promise.all([page.waitForURL((u) => u.pathname === at(locale, '/piano-lessons')), back.click()]);
    await context.close();
  });
});

describe.skipIf(SKIP_BROWSER)('the form in each of its states', () => {
  it('has no serious or critical accessibility violation (axe-core): errors, a long text, failure, sent', async () => {
    const { page, context } = await open('/en');
    const found: string[] = [];
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    found.push(...(await axe(page)));
    await page.fill('#enquiry [name="name"]', 'Axe');
    await page.selectOption('#enquiry [name="course"]', 'piano');
    await page.fill('#enquiry [name="email"]', 'axe@example.org');
    await page.focus('#enquiry [name="message"]');
    await page.keyboard.insertText('x'.repeat(5001));
    found.push(...(await axe(page)));
    await page.fill('#enquiry [name="message"]', 'Short');
    await page.route('**/api/enquiry', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"ok":false}' }));
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form .form-alert');
    found.push(...(await axe(page)));
    await page.unroute('**/api/enquiry');
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.en}")`);
    found.push(...(await axe(page)));
    expect(found).toEqual([]);
    await context.close();
  });

  it('has none on the server’s page for a refused plain form post either', async () => {
    const context = await served.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const answer = await page.request.post(`${served.base}/api/enquiry`, { form: { name: 'Axe', course: '', email: 'no@dot', locale: 'en' } });
    expect(answer.status()).toBe(422);
    const html = await answer.text();
    // Shown at the site's own address (its stylesheet applies), with JavaScript on for axe.
    await page.route(`${served.base}/__answer`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${served.base}/__answer`, { waitUntil: 'load' });
    expect(await axe(page)).toEqual([]);
    await context.close();
  });
});

describe.skipIf(SKIP_BROWSER)('without JavaScript, a refused form', () => {
  it('comes back with everything sent in it, each error at its field, and can be sent from there', async () => {
    const { page, context } = await open('/de/piano-lessons', false);
    await page.fill('#enquiry [name="name"]', 'Zweiter Versuch');
    await page.fill('#enquiry [name="message"]', 'Bitte <b>abends</b> anrufen & "danke"');
    await page.fill('#enquiry [name="email"]', 'kein@punkt');
    await Promise.all([page.waitForURL((u) => u.pathname === '/api/enquiry'), page.click('#enquiry button[type="submit"]')]);
    expect(await page.inputValue('main form [name="name"]')).toBe('Zweiter Versuch');
    expect(await page.inputValue('main form [name="course"]')).toBe('piano');
    expect(await page.$eval('main form [name="course"]', (s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe('Klavierunterricht');
    expect(await page.inputValue('main form [name="message"]')).toBe('Bitte <b>abends</b> anrufen & "danke"');
    expect(await page.inputValue('main form [name="email"]')).toBe('kein@punkt');
    expect(await fieldErrorIn(page, 'main form', 'email')).toBe(form.errorEmail!.de);
    await page.fill('main form [name="email"]', 'mit@punkt.de');
    await Promise.all([page.waitForURL((u) => u.pathname === '/de/thanks'), page.click('main form button[type="submit"]')]);
    await context.close();
  });
});

describe.skipIf(SKIP_BROWSER).each(LOCALES)('who receives the data, in %s (#25)', (locale) => {
  it('is said by the form, with a link to the privacy page, which covers the form', async () => {
    const { page, context } = await open(home(locale), false);
    const note = (await page.textContent('#enquiry-privacy')) ?? '';
    expect(note).toContain(form.privacyNote![locale]);
    const link = (await page.$('#enquiry-privacy a'))!;
    expect(await link.getAttribute('href')).toBe(at(locale, '/privacy'));
    await link.click();
    await page.waitForURL((u) => u.pathname === at(locale, '/privacy'));
    const text = (await page.textContent('main')) ?? '';
    const legal = parse(readFileSync(join(CONTENT, 'legal.yaml'), 'utf8')) as { privacy: { sections: { heading: Record<L, string> }[] } };
    for (const s of legal.privacy.sections) expect(text).toContain(s.heading[locale]);
    expect(text).toMatch(/TODO:/);
    await context.close();
  });
});
