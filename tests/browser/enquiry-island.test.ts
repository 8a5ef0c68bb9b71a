import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { CHROME, CHROME_FLAGS, pastMinimumFillTime as pastFillTime, SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';
import { CONTENT, runCli } from '../helpers/cli.ts';
import { siteFiles } from '../helpers/site.ts';

/**
 * Issue #24, the browser's side: the form island may only add to the browser's own submit,
 * never take it away, and nothing a visitor typed is lost. Every send here goes to the real
 * server with the production minimum fill time, and is looked up in its real inbox.
 */

type L = 'ru' | 'en' | 'de';
const ui = parse(readFileSync(join(CONTENT, 'ui.yaml'), 'utf8')) as Record<string, Record<string, Record<L, string>>>;
const form = ui.form!;
const dist = inject('siteDir');

// The default minimum fill time of `content serve` (3 s): what a visitor meets in production.
const served = siteInBrowser(dist, { rateLimit: { max: 0, windowMs: 60_000 } });

/** What the studio sees in its inbox (`content enquiries list`). */
async function stored(name: string): Promise<{ name: string; course: string; email: string; message: string; locale: string; via: string }[]> {
  const r = await runCli(['enquiries', 'list', '--data', served.inbox, '--out', dist, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { name: string; course: string; email: string; message: string; locale: string; via: string }[]).filter(
    (e) => e.name === name,
  );
}

const hydrated = (page: Page) => page.waitForSelector('form[data-hydrated="true"]', { timeout: 0 });
/** The time a person needs at least, counted from when the page was shown (the server's rule, 3 s by default): the page's clock is moved past it. */
const pastMinimumFillTime = (page: Page) => pastFillTime(page, 3000);

async function fillAll(page: Page, name: string, email = 'parent@example.org') {
  await page.fill('#enquiry [name="name"]', name);
  await page.selectOption('#enquiry [name="course"]', 'piano');
  await page.fill('#enquiry [name="message"]', `Message from ${name}`);
  await page.fill('#enquiry [name="email"]', email);
}

async function newPage(options: { javaScriptEnabled?: boolean } = {}): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await served.browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, context, errors };
}

describe.skipIf(SKIP_BROWSER)('the form island cannot fail closed (#24, point 1)', () => {
  it('sends from a plain-http origin that is not a secure context (no crypto.randomUUID)', async () => {
    const lan = await chromium.launch({ executablePath: CHROME, args: [...CHROME_FLAGS, '--host-resolver-rules=MAP studio.test 127.0.0.1'] });
    try {
      const page = await lan.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://studio.test:${new URL(served.base).port}/en`, { waitUntil: 'load' });
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      await hydrated(page);
      await fillAll(page, 'Plain http');
      await pastMinimumFillTime(page);
      await page.click('#enquiry button[type="submit"]');
      await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.en}")`, { timeout: 0 });
      expect(errors).toEqual([]);
      expect(await stored('Plain http')).toEqual([expect.objectContaining({ course: 'piano', locale: 'en', via: 'json' })]);
    } finally {
      await lan.close();
    }
  });

  it('sends in a browser without crypto.randomUUID', async () => {
    const { page, context, errors } = await newPage();
    await page.addInitScript(() => {
      // biome-ignore lint/suspicious/noExplicitAny: removing an API the way an older browser lacks it
      delete (Crypto.prototype as any).randomUUID;
    });
    await page.goto(`${served.base}/de`, { waitUntil: 'load' });
    await hydrated(page);
    await fillAll(page, 'No randomUUID');
    await pastMinimumFillTime(page);
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.de}")`, { timeout: 0 });
    expect(errors).toEqual([]);
    expect(await stored('No randomUUID')).toHaveLength(1);
    await context.close();
  });

  it('lets the browser post the form itself when the island meets a missing API', async () => {
    const { page, context } = await newPage();
    await page.addInitScript(() => {
      // An embedded browser that has no fetch: the island must not swallow the submit.
      // biome-ignore lint/suspicious/noExplicitAny: removing an API the way an older browser lacks it
      (window as any).fetch = undefined;
    });
    await page.goto(`${served.base}/en`, { waitUntil: 'load' });
    await hydrated(page);
    await fillAll(page, 'No fetch');
    await Promise.all([page.waitForURL((u) => u.pathname === '/en/thanks', { timeout: 0 }), page.click('#enquiry button[type="submit"]')]);
    expect(await stored('No fetch')).toEqual([expect.objectContaining({ course: 'piano', via: 'form' })]);
    await context.close();
  });

  it('lets the browser post the form itself when the island’s request fails on the network', async () => {
    const { page, context } = await newPage();
    // Only the island's own request fails (a filter, a proxy that refuses it); the browser's post goes through.
    await page.route('**/api/enquiry', (route) => (route.request().resourceType() === 'document' ? route.continue() : route.abort('failed')));
    await page.goto(`${served.base}/en`, { waitUntil: 'load' });
    await hydrated(page);
    await fillAll(page, 'Network error');
    await Promise.all([page.waitForURL((u) => u.pathname === '/en/thanks', { timeout: 0 }), page.click('#enquiry button[type="submit"]')]);
    expect(await stored('Network error')).toEqual([expect.objectContaining({ via: 'form' })]);
    await context.close();
  });

  it('stores an enquiry once when the island’s request reached the server but its answer was lost', async () => {
    const { page, context } = await newPage();
    // The island's request is stored by the server, then the answer never reaches the page (a
    // connection cut on the way back): the browser's own post follows with the same key.
    await page.route('**/api/enquiry', async (route) => {
      if (route.request().resourceType() === 'document') return route.continue();
      await route.fetch();
      return route.abort('connectionreset');
    });
    await page.goto(`${served.base}/en`, { waitUntil: 'load' });
    await hydrated(page);
    await fillAll(page, 'Answer lost');
    await pastMinimumFillTime(page);
    await Promise.all([page.waitForURL((u) => u.pathname === '/en/thanks', { timeout: 0 }), page.click('#enquiry button[type="submit"]')]);
    expect(await stored('Answer lost')).toEqual([expect.objectContaining({ via: 'json' })]);
    await context.close();
  });

  it('gives the plain form back, with what was typed, when the island breaks while rendering', async () => {
    const { page, context } = await newPage();
    await page.addInitScript(() => {
      // An API the form uses only once there are errors to count: missing, the render throws.
      // biome-ignore lint/suspicious/noExplicitAny: removing an API the way an older browser lacks it
      (Intl as any).PluralRules = undefined;
    });
    await page.goto(`${served.base}/en`, { waitUntil: 'load' });
    await hydrated(page);
    await page.fill('#enquiry [name="name"]', 'Broken island');
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('[data-enquiry-fallback]:not([hidden])', { timeout: 0 });
    expect(await page.inputValue('#enquiry [name="name"]')).toBe('Broken island');
    await page.selectOption('#enquiry [name="course"]', 'piano');
    await page.fill('#enquiry [name="email"]', 'broken@example.org');
    await Promise.all([page.waitForURL((u) => u.pathname === '/en/thanks', { timeout: 0 }), page.click('#enquiry button[type="submit"]')]);
    expect(await stored('Broken island')).toEqual([expect.objectContaining({ via: 'form' })]);
    await context.close();
  });
});

describe.skipIf(SKIP_BROWSER)('nothing a visitor typed is lost (#24, point 2)', () => {
  it('keeps what was typed before the island hydrated', async () => {
    const { page, context } = await newPage();
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    // The island's script arrives only once the visitor has filled in the whole form.
    await page.route('**/chunks/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${served.base}/en`, { waitUntil: 'domcontentloaded' });
    expect(await page.getAttribute('#enquiry form', 'data-hydrated')).toBeNull();
    await fillAll(page, 'Typed early');
    release();
    await hydrated(page);
    expect(await page.inputValue('#enquiry [name="name"]')).toBe('Typed early');
    expect(await page.inputValue('#enquiry [name="course"]')).toBe('piano');
    expect(await page.inputValue('#enquiry [name="message"]')).toBe('Message from Typed early');
    expect(await page.inputValue('#enquiry [name="email"]')).toBe('parent@example.org');
    await pastMinimumFillTime(page);
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.en}")`, { timeout: 0 });
    expect(await stored('Typed early')).toEqual([expect.objectContaining({ message: 'Message from Typed early', email: 'parent@example.org' })]);
    await context.close();
  });

  it('keeps the text when a send fails and sends it on the next try', async () => {
    const { page, context } = await newPage();
    await page.goto(`${served.base}/`, { waitUntil: 'load' });
    await hydrated(page);
    let fail = true;
    await page.route('**/api/enquiry', (route) =>
      fail ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"ok":false}' }) : route.continue(),
    );
    await fillAll(page, 'Second try');
    await pastMinimumFillTime(page);
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    expect(await page.inputValue('#enquiry [name="message"]')).toBe('Message from Second try');
    fail = false;
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.ru}")`, { timeout: 0 });
    expect(await stored('Second try')).toHaveLength(1);
    await context.close();
  });

  it('keeps the text when the browser is offline, and sends it once back online', async () => {
    const { page, context } = await newPage();
    await page.goto(`${served.base}/en`, { waitUntil: 'load' });
    await hydrated(page);
    await fillAll(page, 'Offline first');
    await pastMinimumFillTime(page);
    await context.setOffline(true);
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    expect(new URL(page.url()).pathname).toBe('/en');
    expect(await page.inputValue('#enquiry [name="message"]')).toBe('Message from Offline first');
    await context.setOffline(false);
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.en}")`, { timeout: 0 });
    expect(await stored('Offline first')).toEqual([expect.objectContaining({ via: 'json' })]);
    await context.close();
  });

  it('keeps the text on a validation error', async () => {
    const { page, context } = await newPage();
    await page.goto(`${served.base}/en`, { waitUntil: 'load' });
    await hydrated(page);
    await fillAll(page, 'Wrong address', 'not-an-address');
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector('#enquiry form [role="alert"]');
    expect(await page.inputValue('#enquiry [name="name"]')).toBe('Wrong address');
    expect(await page.inputValue('#enquiry [name="message"]')).toBe('Message from Wrong address');
    expect(await page.inputValue('#enquiry [name="email"]')).toBe('not-an-address');
    await context.close();
  });
});

describe.skipIf(SKIP_BROWSER)('the fill time is counted from when the page was shown (#24, point 3)', () => {
  it('takes an autofilled form sent right after a late hydration as a person’s', async () => {
    const { page, context } = await newPage();
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/chunks/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${served.base}/en`, { waitUntil: 'domcontentloaded' });
    // A slow phone: the page has been on screen longer than the minimum before its script is in.
    await pastMinimumFillTime(page);
    release();
    await hydrated(page);
    // Autofill: everything at once, then Send straight away.
    await page.evaluate(() => {
      const set = (name: string, value: string) => {
        const el = document.querySelector<HTMLInputElement>(`#enquiry [name="${name}"]`)!;
        const proto = Object.getPrototypeOf(el);
        Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
        el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
      };
      set('name', 'Autofilled');
      set('course', 'piano');
      set('email', 'auto@example.org');
    });
    await page.click('#enquiry button[type="submit"]');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.en}")`, { timeout: 0 });
    expect(await stored('Autofilled')).toEqual([expect.objectContaining({ email: 'auto@example.org', course: 'piano' })]);
    await context.close();
  });
});

describe('the browsers the form supports (README: the enquiry form in the visitor’s browser)', () => {
  const scripts = () => siteFiles(dist).filter((f) => f.endsWith('.js'));

  it('ships scripts with no syntax Safari 15 lacks: esbuild has nothing to lower for it', async () => {
    expect(scripts().length).toBeGreaterThan(0);
    for (const file of scripts()) {
      const code = readFileSync(join(dist, file), 'utf8');
      const as = async (target: string) => (await transform(code, { format: 'esm', target, minifyWhitespace: true })).code;
      expect(await as('safari15'), file).toBe(await as('esnext'));
    }
  });

  it('calls no API newer than Safari 15.0 (those need a check first, or another way)', () => {
    for (const file of scripts()) {
      const code = readFileSync(join(dist, file), 'utf8');
      for (const api of ['randomUUID', 'structuredClone', 'Object.hasOwn', '.findLast(', 'AbortSignal.timeout', '.at(-'])
        expect(code, `${file}: ${api}`).not.toContain(api);
    }
  });
});
