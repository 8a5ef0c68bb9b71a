import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
