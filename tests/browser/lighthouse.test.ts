import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROME, CHROME_FLAGS, SKIP_BROWSER } from '../helpers/browser.ts';
import { serveSite } from '../helpers/serve.ts';

/**
 * Lighthouse with its mobile defaults (Moto G Power screen, simulated slow 4G) against the built
 * site served by `content serve`: one page of each kind, in sequence. Its performance score
 * depends on how busy the machine is, so `npm test` runs this file on its own, after the rest
 * (`npm run test:lighthouse`): beside other test files, total blocking time rose to seconds.
 */
const PAGES = [
  { kind: 'home', url: '/' },
  { kind: 'course', url: '/en/vocal' },
  { kind: 'prices', url: '/de/prises' },
  { kind: 'teachers', url: '/teachers' },
  { kind: 'FAQ', url: '/en/faq' },
  { kind: 'schedule', url: '/de/schedule' },
  { kind: 'legal', url: '/en/impressum' },
  { kind: 'thanks', url: '/de/thanks' },
  { kind: 'not found', url: '/en/no-such-page' },
] as const;

/**
 * What a page of a kind may lose, and why: an unknown address is answered with status 404,
 * which Chromium logs as a console error and which SEO's http-status-code audit fails by
 * definition (whatever the page shows); the page stays on screen for a few seconds, then takes the
 * visitor home (issue 37), and says `noindex` (is-crawlable: its /404 address must not be found
 * in a search), where it used to refresh to the home page at once, which Lighthouse audited instead. The thank-you page
 * says `noindex` (a page a visitor reaches only after an enquiry must not be found in a search),
 * which SEO's is-crawlable audit fails by definition: the right trade (issue 26). Every other kind
 * scores 100 in accessibility, best practices and SEO.
 */
const ALLOWED: Partial<Record<(typeof PAGES)[number]['kind'], string[]>> = {
  thanks: ['seo/is-crawlable'],
  'not found': ['best-practices/errors-in-console', 'seo/http-status-code', 'seo/is-crawlable'],
};

/**
 * The performance score is timing: on two shared cores the same page scored 100, 99 and 57 in one
 * run (total blocking time, beside other test files), so it is printed, not asserted (speed is
 * measured in benchmarks, never as timed assertions). What makes a page fast and does not depend
 * on timing is asserted: no layout shift, the page's weight, its DOM size, compressed and minified
 * text, no legacy or duplicated JavaScript.
 */
const STRUCTURAL = ['cumulative-layout-shift', 'total-byte-weight', 'unminified-javascript', 'unminified-css'];
/**
 * The same checks that Lighthouse 13 makes as insights (they replace dom-size, legacy-javascript and
 * duplicated-javascript): passed (score 1), or with nothing to judge (a page without a script).
 */
const INSIGHTS = ['dom-size-insight', 'legacy-javascript-insight', 'duplicated-javascript-insight'];
const insightPassed = (a: Lhr['audits'][string] | undefined) => !!a && (a.score === 1 || a.scoreDisplayMode === 'notApplicable');
/** The page compressed (document-latency-insight, which replaces uses-text-compression; its server response time is timing, not asserted). */
const compressed = (lhr: Lhr) =>
  (lhr.audits['document-latency-insight']?.details as { items?: { usesCompression?: { value?: boolean } } } | undefined)?.items?.usesCompression?.value ===
  true;

const dist = inject('siteDir');
let base: string;
let stop: () => Promise<void>;
let chrome: ChildProcess;
let port: number;
let profile: string;

/** Chromium with a DevTools port for Lighthouse; the port is read from what it prints. */
function launchChrome(): Promise<{ child: ChildProcess; port: number }> {
  profile = mkdtempSync(join(tmpdir(), 'studio-lighthouse-'));
  const child = spawn(CHROME, ['--headless=new', ...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Chromium did not open its DevTools port:\n${err}`)), 120_000);
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${err}`)));
  });
}

/**
 * Lighthouse's CPU slowdown calibrated to this machine, as its throttling guide recommends
 * (docs/throttling.md, "Calibrating the CPU slowdown"): its default of 4 assumes a fast desktop,
 * and a CI runner of two shared cores is several times slower, which would be counted against
 * the page. The mapping is the guide's calculator: benchmark index 150 → 1×, 800 → 2×, 1300 → 3×,
 * +1× per 233 above.
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1300) return Math.min(3 + (benchmarkIndex - 1300) / 233, 4);
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return 1;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function audit(url: string, cpuSlowdownMultiplier?: number, attempt = 1): Promise<Lhr> {
  const result = await lighthouse(
    base + url,
    { port, logLevel: 'error', output: 'json', ignoreStatusCode: true },
    {
      extends: 'lighthouse:default',
      settings: {
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        // Pictures of the page score nothing and cost time.
        disableFullPageScreenshot: true,
        skipAudits: ['screenshot-thumbnails', 'final-screenshot'],
        // Lighthouse's mobileSlow4G, with the calibrated CPU slowdown.
        ...(cpuSlowdownMultiplier
          ? {
              throttling: {
                rttMs: 150,
                throughputKbps: 1.6 * 1024,
                requestLatencyMs: 150 * 3.75,
                downloadThroughputKbps: 1.6 * 1024 * 0.9,
                uploadThroughputKbps: 750 * 0.9,
                cpuSlowdownMultiplier,
              },
            }
          : {}),
      },
    },
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  // A trace Chromium failed to record (NO_NAVSTART and kin) says "run Lighthouse again": once more, not a score retried.
  if (result.lhr.runtimeError && attempt < 3 && /again/i.test(result.lhr.runtimeError.message)) return audit(url, cpuSlowdownMultiplier, attempt + 1);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

/** Every scored audit below 1, as "category/audit (score): what it says" (the reasons for a category below 100). */
function losses(lhr: Lhr): string[] {
  const out: string[] = [];
  for (const category of Object.values(lhr.categories))
    for (const ref of category.auditRefs) {
      const a = lhr.audits[ref.id]!;
      if (ref.weight > 0 && a.score !== null && a.score < 1) out.push(`${category.id}/${ref.id} (${a.score}): ${a.displayValue ?? a.title}`);
    }
  return out;
}

beforeAll(async () => {
  const server = await serveSite(dist);
  base = server.url;
  stop = server.stop;
  ({ child: chrome, port } = await launchChrome());
}, 240_000);

afterAll(async () => {
  if (chrome && chrome.exitCode === null) {
    // The profile can go only once Chromium has stopped writing to it.
    const exited = new Promise((resolve) => chrome.once('exit', resolve));
    chrome.kill();
    await exited;
  }
  await stop?.();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe.skipIf(SKIP_BROWSER)('Lighthouse, mobile', () => {
  it('scores 100 in accessibility, best practices and SEO on one page of each kind, and meets the performance audits that do not depend on timing', async () => {
    // A first run measures the machine (and warms the server and Chromium): its score does not count.
    const warm = await audit('/');
    const slowdown = cpuSlowdownFor(warm.environment.benchmarkIndex);
    const found: string[] = [];
    for (const { kind, url } of PAGES) {
      const allowed = ALLOWED[kind] ?? [];
      const excused = allowed.map((a) => a.split('/')[0]);
      /** What keeps this run below 100: a category as Lighthouse shows it (rounded), or an audit of an excused one. */
      const problems = (lhr: Lhr) => [
        ...Object.values(lhr.categories)
          .filter((c) => c.id !== 'performance' && Math.round((c.score ?? 0) * 100) < 100 && !excused.includes(c.id))
          .map(
            (c) =>
              `${c.id} ${Math.round((c.score ?? 0) * 100)} (${losses(lhr)
                .filter((l) => l.startsWith(`${c.id}/`))
                .join('; ')})`,
          ),
        ...losses(lhr).filter((l) => excused.includes(l.split('/')[0]!) && !allowed.some((a) => l.startsWith(`${a} `))),
        ...STRUCTURAL.filter((id) => lhr.audits[id]?.score !== 1).map(
          (id) => `performance/${id} (${lhr.audits[id]?.score}): ${lhr.audits[id]?.displayValue ?? ''}`,
        ),
        ...INSIGHTS.filter((id) => !insightPassed(lhr.audits[id])).map(
          (id) => `performance/${id} (${lhr.audits[id]?.score}): ${lhr.audits[id]?.displayValue ?? ''}`,
        ),
        ...(compressed(lhr) ? [] : ['performance/document-latency-insight: the page is sent uncompressed']),
      ];
      // A run can still be disturbed by whatever else the two cores do. Lighthouse's variability
      // guide says: several runs, the median. A page that passes at once runs once; otherwise
      // three runs, and it passes when most of them do.
      const runs: string[][] = [];
      let lhr: Lhr | undefined;
      const passed = () => runs.filter((r) => r.length === 0).length;
      while (!(runs.length === 1 && passed() === 1) && passed() < 2 && runs.length - passed() < 2) {
        lhr = await audit(url, slowdown);
        runs.push(problems(lhr));
        const scores = Object.values(lhr.categories).map((c) => `${c.id} ${Math.round((c.score ?? 0) * 100)}`);
        console.info(`${kind} ${url} (CPU ×${slowdown.toFixed(1)}), run ${runs.length}: ${scores.join(', ')}`);
      }
      if (passed() * 2 < runs.length) found.push(`${kind} ${url}: ${runs.map((r) => r.join(', ')).join(' | ')}`);
      if (kind === 'thanks') {
        // Not to be indexed, and in no sitemap.
        expect(await (await fetch(base + url)).text()).toContain('<meta name="robots" content="noindex"/>');
        expect(await (await fetch(`${base}/sitemap.xml`)).text()).not.toContain('/thanks');
      }
      if (kind === 'not found') {
        expect((await fetch(base + url)).status).toBe(404);
        // The one console error allowed is the 404 of the address itself.
        const logged = (lhr!.audits['errors-in-console']!.details as { items: { sourceLocation?: { url?: string } }[] }).items;
        expect(logged.map((i) => i.sourceLocation?.url)).toEqual([base + url]);
      }
    }
    expect(found).toEqual([]);
  }, 900_000);
});
