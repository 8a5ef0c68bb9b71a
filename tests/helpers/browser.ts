import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ServeOptions } from '../../cli/serve/server.ts';
import { serveSite } from './serve.ts';

/** Debian's Chromium, or CHROME_PATH. This machine has no network but the registries. */
export const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Chromium's flags for a machine with no network but the registries. */
export const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROME)) {
    throw new Error(`No Chromium at ${CHROME}. Install Debian's: sudo apt-get install -y chromium (or set CHROME_PATH).`);
  }
  return chromium.launch({
    executablePath: CHROME,
    args: CHROME_FLAGS,
  });
}

/**
 * Outside CI a machine without Chromium skips the browser tests with one line saying how to
 * install it; in CI (where .ci/run installs it) a missing browser fails them.
 */
export const SKIP_BROWSER = !existsSync(CHROME) && !process.env.CI;
if (SKIP_BROWSER) console.warn(`Browser tests skipped: no Chromium at ${CHROME}. Install it with: sudo apt-get install -y chromium (or set CHROME_PATH).`);

/** The built site served by `content serve` (its own inbox), and a Chromium to visit it. */
export interface SiteInBrowser {
  readonly browser: Browser;
  /** The server's address, `http://127.0.0.1:PORT`. */
  readonly base: string;
  /** The server's data folder (its SQLite inbox). */
  readonly inbox: string;
}

/**
 * Serves `site` and launches Chromium before the tests of the file (beforeAll), and stops both
 * after them (afterAll), however the tests ended. The fields are there once beforeAll has run.
 */
export function siteInBrowser(site: string, options: Partial<ServeOptions> = {}): SiteInBrowser {
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof serveSite>> | undefined;
  beforeAll(async () => {
    server = await serveSite(site, options);
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await server?.stop();
    }
  });
  return {
    get browser() {
      return browser!;
    },
    get base() {
      return server!.url;
    },
    get inbox() {
      return server!.data;
    },
  };
}

/**
 * A Chromium whose text size is set as a visitor sets it (Settings → Appearance → Font size: the
 * profile's preference `default_font_size`, 16 px by default), in a profile of its own that goes
 * when the context is closed.
 */
export async function browserWithTextSize(px: number, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'studio-text-size-'));
  mkdirSync(join(profile, 'Default'));
  writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ webkit: { webprefs: { default_font_size: px } } }));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROME, args: CHROME_FLAGS, viewport });
    // Removed once Chromium has closed (and stopped writing to it): not on the close event, which comes before.
    const close = context.close.bind(context);
    context.close = async (options) => {
      try {
        await close(options);
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    };
    return context;
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Moves the page's clock past the bot filter's minimum fill time instead of waiting for it: the
 * form sends how long it was open as `performance.now()` (counted from when the page was shown),
 * which now says `ms` more. Once per page, after it has loaded (the clock starts again at 0).
 */
export async function pastMinimumFillTime(page: Page, ms: number): Promise<void> {
  await page.clock.install();
  await page.clock.fastForward(ms + 100);
}
