import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { pastMinimumFillTime, SKIP_BROWSER, siteInBrowser } from '../helpers/browser.ts';
import { CONTENT, runCli } from '../helpers/cli.ts';

/**
 * Issue #37 point 6: the optional phone field of the enquiry form in real Chromium, with the
 * site's script and without it, sent to the real server and looked up in its inbox.
 */

type L = 'ru' | 'en' | 'de';
const form = (parse(readFileSync(join(CONTENT, 'ui.yaml'), 'utf8')) as Record<string, Record<string, Record<L, string>>>).form!;
const dist = inject('siteDir');

const served = siteInBrowser(dist, { rateLimit: { max: 0, windowMs: 60_000 } });

async function stored(name: string): Promise<{ phone?: string; via: string; locale: string }[]> {
  const r = await runCli(['enquiries', 'export', '--data', served.inbox, '--out', dist, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { name: string; phone?: string; via: string; locale: string }[]).filter((e) => e.name === name);
}

async function fill(page: Page, name: string, phone: string) {
  await page.fill('#enquiry [name="name"]', name);
  await page.selectOption('#enquiry [name="course"]', 'piano');
  await page.fill('#enquiry [name="email"]', 'parent@example.org');
  await page.fill('#enquiry [name="phone"]', phone);
}

/** The phone control as a visitor's assistive technology meets it. */
async function phoneControl(page: Page) {
  return page.$eval('#enquiry [name="phone"]', (el) => {
    const input = el as HTMLInputElement;
    const label = document.querySelector(`label[for="${input.id}"]`)?.textContent?.trim();
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return {
      type: input.type,
      autocomplete: input.autocomplete,
      required: input.required,
      label,
      describedByExisting: described.every((id) => document.getElementById(id)),
      errorId: described.find((id) => id.endsWith('-error')),
      invalid: input.getAttribute('aria-invalid'),
    };
  });
}

describe.skipIf(SKIP_BROWSER)('#37 point 6: the phone field in the browser', () => {
  it('with the script: an optional tel field; a malformed number is named beside it, in German, and a right one is stored', async () => {
    const context = await served.browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${served.base}/de`, { waitUntil: 'load' });
      await page.waitForSelector('form[data-hydrated="true"]', { timeout: 0 });
      expect(await phoneControl(page)).toEqual({
        type: 'tel',
        autocomplete: 'tel',
        required: false,
        label: form.phone!.de,
        describedByExisting: true,
        errorId: 'enquiry-phone-error',
        invalid: null,
      });
      await fill(page, 'Telefon mit Skript', 'ruf mich an');
      await page.click('#enquiry button[type="submit"]');
      await page.waitForSelector('#enquiry-phone-error:not(:empty)', { timeout: 0 });
      expect(await page.textContent('#enquiry-phone-error')).toBe(form.errorPhone!.de);
      expect((await phoneControl(page)).invalid).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('phone');
      expect(await stored('Telefon mit Skript')).toEqual([]);

      await page.fill('#enquiry [name="phone"]', '+49 (0)30 123-45/67');
      // The server's minimum fill time, counted from when the page was shown.
      await pastMinimumFillTime(page, 3000); // the server's default minimum fill time
      await page.click('#enquiry button[type="submit"]');
      await page.waitForSelector(`#enquiry [role="status"]:has-text("${form.success!.de}")`, { timeout: 0 });
      expect(await stored('Telefon mit Skript')).toEqual([expect.objectContaining({ phone: '+49 (0)30 123-45/67', via: 'json', locale: 'de' })]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('without JavaScript: the plain form posts the phone; a malformed one comes back with its error beside it, and the corrected form is stored', async () => {
    const context = await served.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${served.base}/en`, { waitUntil: 'load' });
      expect(await phoneControl(page)).toMatchObject({ type: 'tel', autocomplete: 'tel', required: false, label: form.phone!.en, describedByExisting: true });
      await fill(page, 'Phone without script', 'not a number');
      await Promise.all([page.waitForLoadState('load'), page.click('#enquiry button[type="submit"]')]);
      // The server's page: the form again, the number as typed, the message tied to the field.
      const again = await page.$eval('#again-phone', (el) => ({
        value: (el as HTMLInputElement).value,
        type: (el as HTMLInputElement).type,
        error: document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
      }));
      expect(again).toEqual({ value: 'not a number', type: 'tel', error: form.errorPhone!.en });
      expect(await stored('Phone without script')).toEqual([]);

      await page.fill('#again-phone', '030 1234567');
      await Promise.all([page.waitForURL((u) => u.pathname === '/en/thanks', { timeout: 0 }), page.click('button[type="submit"]')]);
      // And one sent without a phone at all.
      await page.goto(`${served.base}/en`, { waitUntil: 'load' });
      await fill(page, 'No phone without script', '');
      await Promise.all([page.waitForURL((u) => u.pathname === '/en/thanks', { timeout: 0 }), page.click('#enquiry button[type="submit"]')]);
      expect(await stored('Phone without script')).toEqual([expect.objectContaining({ phone: '030 1234567', via: 'form' })]);
      const none = await stored('No phone without script');
      expect(none).toHaveLength(1);
      expect(none[0]).not.toHaveProperty('phone');
    } finally {
      await context.close();
    }
  });
});
