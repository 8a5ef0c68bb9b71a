import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nextBannerExpiry } from '../../cli/resolve/banner-dates.ts';
import type { BannersFile } from '../../cli/schema/banners.ts';
import { contentCopy, FIXTURE, runCliProcess } from '../helpers/cli.ts';

/** A banner with only what its dates depend on. */
const banner = (id: string, validUntil?: string) => ({ id, validUntil }) as BannersFile['banners'][number];

describe('the next banner to expire', () => {
  it('is the first last day still to come; the rebuild is due the day after', () => {
    const banners = [banner('always'), banner('summer', '2027-08-31'), banner('winter', '2027-01-30'), banner('gone', '2027-01-01')];
    expect(nextBannerExpiry(banners, '2027-01-10')).toEqual({ banner: 'winter', lastDay: '2027-01-30', rebuildOnOrAfter: '2027-01-31' });
    // Shown on its last day, gone the day after.
    expect(nextBannerExpiry(banners, '2027-01-30')?.banner).toBe('winter');
    expect(nextBannerExpiry(banners, '2027-01-31')).toEqual({ banner: 'summer', lastDay: '2027-08-31', rebuildOnOrAfter: '2027-09-01' });
    expect(nextBannerExpiry(banners, '2027-09-01')).toBeUndefined();
    expect(nextBannerExpiry([banner('always')], '2027-01-01')).toBeUndefined();
    expect(nextBannerExpiry(undefined, '2027-01-01')).toBeUndefined();
  });

  it('counts calendar days across months, years and leap days', () => {
    const dayAfter = (day: string) => nextBannerExpiry([banner('b', day)], '2000-01-01')?.rebuildOnOrAfter;
    expect(dayAfter('2026-12-31')).toBe('2027-01-01');
    expect(dayAfter('2028-02-28')).toBe('2028-02-29');
    expect(dayAfter('2027-02-28')).toBe('2027-03-01');
    expect(dayAfter('2027-03-28')).toBe('2027-03-29'); // the night clocks change in Germany
  });
});

describe('content build names the day to rebuild on', () => {
  const banners = readFileSync(join(FIXTURE, 'banners.yaml'), 'utf8');
  // Two of the frozen fixture's banners get a last day.
  const dated = banners.replace(/(- id: school-prep\n)/, '$1  validUntil: 2027-03-15\n').replace(/(- id: recording-gift\n)/, '$1  validUntil: 2027-01-30\n');
  const content = contentCopy({ 'banners.yaml': dated });
  const out = mkdtempSync(join(tmpdir(), 'studio-banner-site-'));
  afterAll(() => {
    content.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  it('in the summary and in --format json', async () => {
    expect(dated).not.toBe(banners);
    const human = await runCliProcess(['build', '--content', content.dir, '--out', join(out, 'a'), '--today', '2027-01-10']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout + human.stderr).toContain('"recording-gift" is shown until 2027-01-30: rebuild on or after 2027-01-31');
    const json = await runCliProcess(['build', '--content', content.dir, '--out', join(out, 'b'), '--today', '2027-01-10', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).summary.nextBannerExpiry).toEqual({ banner: 'recording-gift', lastDay: '2027-01-30', rebuildOnOrAfter: '2027-01-31' });
    // The day after: the banner is gone from the home page, and the next one is named.
    const later = await runCliProcess(['build', '--content', content.dir, '--out', join(out, 'a'), '--today', '2027-01-31', '--format', 'json']);
    expect(JSON.parse(later.stdout).summary.nextBannerExpiry).toEqual({ banner: 'school-prep', lastDay: '2027-03-15', rebuildOnOrAfter: '2027-03-16' });
    expect(readFileSync(join(out, 'a', 'en.html'), 'utf8')).not.toContain('Gift certificate for a song recording');
    expect(readFileSync(join(out, 'b', 'en.html'), 'utf8')).toContain('Gift certificate for a song recording');
  });

  it('says nothing when no banner has a last day (the shipped content)', async () => {
    const r = await runCliProcess(['build', '--out', join(out, 'c'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).summary).not.toHaveProperty('nextBannerExpiry');
  });
});
