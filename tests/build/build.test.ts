import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderCacheFile } from '../../cli/cache/policy.ts';
import { runCliProcess } from '../helpers/cli.ts';
import { fileForUrl, internalRefs, siteFiles, snapshotDir } from '../helpers/site.ts';
import { lineOf, syntheticContent } from '../helpers/synthetic.ts';

// A small synthetic site (3 courses) keeps this fast; the shipped site is built and checked
// by the browser tests.
const content = syntheticContent(3);
const out = mkdtempSync(join(tmpdir(), 'studio-build-'));
const dist = join(out, 'dist');
let first: Map<string, Buffer>;

beforeAll(async () => {
  // A missing German text: the page must show the Russian one, marked lang="ru".
  const file = 'courses/course00000.yaml';
  const text = content.read(file);
  const deLine = lineOf(text, '  de:', lineOf(text, 'goal:'));
  content.edit(file, (t) =>
    t
      .split('\n')
      .filter((_, i) => i !== deLine - 1)
      .join('\n'),
  );
  const r = await runCliProcess(['build', '--content', content.dir, '--out', dist, '--today', '2026-11-22']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  first = snapshotDir(dist);
}, 180_000);

afterAll(() => {
  content.cleanup();
  rmSync(out, { recursive: true, force: true });
});

describe('content build', () => {
  const routes = ['/', '/prises', '/teachers', '/faq', '/schedule', '/impressum', '/privacy', '/terms', '/course00000', '/course00001', '/course00002'];
  const urls = ['ru', 'en', 'de'].flatMap((l) => routes.map((r) => (l === 'ru' ? r : r === '/' ? `/${l}` : `/${l}${r}`)));

  it('writes one page per route and locale, plus thank-you and not-found pages, sitemap and robots', () => {
    for (const url of urls) expect(existsSync(join(dist, fileForUrl(url))), url).toBe(true);
    const html = siteFiles(dist).filter((f) => f.endsWith('.html'));
    expect(html.length).toBe(urls.length + 6);
    for (const f of ['404.html', 'en/404.html', 'de/404.html', 'thanks.html', 'en/thanks.html', 'de/thanks.html', 'sitemap.xml', 'robots.txt'])
      expect(existsSync(join(dist, f)), f).toBe(true);
  });

  it('lists exactly the indexable pages in the sitemap, each with its alternates', () => {
    const sitemap = readFileSync(join(dist, 'sitemap.xml'), 'utf8');
    const locs = [...sitemap.matchAll(/<loc>https:\/\/bench\.example([^<]*)<\/loc>/g)].map((m) => m[1]!).sort();
    expect(locs).toEqual([...urls].sort());
    expect(sitemap.match(/hreflang="x-default"/g)?.length).toBe(urls.length);
  });

  it('gives every page its lang, title, description, canonical and hreflang set', () => {
    for (const url of urls) {
      const html = readFileSync(join(dist, fileForUrl(url)), 'utf8');
      const locale = /^\/(en|de)(\/|$)/.exec(url)?.[1] ?? 'ru';
      expect(html).toMatch(new RegExp(`<html lang="${locale}"`));
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]+"/);
      expect(html).toContain(`<link rel="canonical" href="https://bench.example${url}"`);
      for (const l of ['ru', 'en', 'de', 'x-default']) expect(html, `${url} hreflang ${l}`).toMatch(new RegExp(`hreflang="${l}"`, 'i'));
      expect(html).toContain('id="app"');
    }
  });

  it('resolves every internal link and asset reference to a built file', () => {
    for (const f of siteFiles(dist).filter((x) => x.endsWith('.html')))
      for (const ref of internalRefs(readFileSync(join(dist, f), 'utf8'))) {
        if (ref.startsWith('/api/')) continue;
        expect(existsSync(join(dist, fileForUrl(ref))), `${f} → ${ref}`).toBe(true);
      }
  });

  it('shows a missing German text in Russian, inside an element with lang="ru"', () => {
    const de = readFileSync(join(dist, 'de/course00000.html'), 'utf8');
    const ru = readFileSync(join(dist, 'course00000.html'), 'utf8');
    const goal = content.read('courses/course00000.yaml').split('goal:')[1]!.split('ru: ')[1]!.split('\n')[0]!;
    expect(ru).toContain(goal);
    expect(de).toMatch(new RegExp(`<[a-z0-9]+[^>]* lang="ru"[^>]*>${goal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}<`));
  });

  it('ships no JavaScript on pages without the form, and one small script on pages with it', () => {
    expect(readFileSync(join(dist, 'prises.html'), 'utf8')).not.toContain('<script src');
    expect(readFileSync(join(dist, 'en/faq.html'), 'utf8')).not.toMatch(/<script(?![^>]*type="application\/(ld\+)?json")/);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toMatch(/<script[^>]+src="\/assets\/[^"]+\.js"/);
  });

  it('is byte-identical when built twice from the same content', async () => {
    const again = join(out, 'again');
    const r = await runCliProcess(['build', '--content', content.dir, '--out', again, '--today', '2026-11-22']);
    expect(r.code).toBe(0);
    const second = snapshotDir(again);
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [f, bytes] of first) expect(second.get(f)!.equals(bytes), f).toBe(true);
  }, 120_000);

  it('leaves the previous site byte-for-byte untouched when the content is broken', async () => {
    const broken = syntheticContent(3);
    try {
      broken.edit('courses/course00001.yaml', (t) => t.replace('amount: 90', 'amount: neunzig'));
      const r = await runCliProcess(['build', '--content', broken.dir, '--out', dist]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('courses/course00001.yaml');
      expect(r.stdout).toMatch(/was left as it was/);
      const after = snapshotDir(dist);
      expect([...after.keys()]).toEqual([...first.keys()]);
      for (const [f, bytes] of first) expect(after.get(f)!.equals(bytes), f).toBe(true);
      expect(siteFiles(out).some((f) => f.includes('staging'))).toBe(false);
    } finally {
      broken.cleanup();
    }
  });

  it('creates the folders the output goes into', async () => {
    const nested = join(out, 'not', 'there', 'yet', 'site');
    const r = await runCliProcess(['build', '--content', content.dir, '--out', nested, '--today', '2026-11-22', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(nested, 'index.html'))).toBe(true);
  });

  it('deletes the old site after the swap, and what builds that were killed left behind', async () => {
    const site = join(out, 'swap');
    const build = () => runCliProcess(['build', '--content', content.dir, '--out', site, '--today', '2026-11-22', '--quiet']);
    expect((await build()).code).toBe(0);
    // What a build killed while writing (staging, marked as such) or a deletion cut short
    // (trash: an old site with its mark) leaves. Folders named so without a mark are a user's
    // and are kept (tests/build/out-dir.test.ts).
    mkdirSync(join(out, '.swap.staging-999999999', 'en'), { recursive: true });
    writeFileSync(join(out, '.swap.staging-999999999', '.studio-site.json'), '{"tool":"studio-site","format":1,"staging":true}\n');
    writeFileSync(join(out, '.swap.staging-999999999', 'en', 'index.html'), 'old');
    cpSync(site, join(out, '.swap.trash-999999999-1'), { recursive: true });
    rmSync(join(out, '.swap.trash-999999999-1', 'en'), { recursive: true }); // half deleted
    expect((await build()).code).toBe(0);
    expect(snapshotDir(site)).toEqual(snapshotDir(dist));
    // The old site and the leftovers are deleted by a process of their own, soon after the build.
    const others = () => readdirSync(out).filter((n) => n.startsWith('.swap.'));
    while (others().length) await new Promise((r) => setTimeout(r, 100)); // no time limit of its own: the test's is the backstop
    expect(others()).toEqual([]);
  }, 60_000);

  const summaryOf = async (site: string, env: Record<string, string> = {}) => {
    const r = await runCliProcess(['build', '--content', content.dir, '--out', site, '--today', '2026-11-22', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).summary as { pages: number; rendered: number; phases: Record<string, number> };
  };
  const expectSameBytes = (site: string) => {
    const files = snapshotDir(site);
    expect([...files.keys()]).toEqual([...first.keys()]);
    for (const [f, bytes] of first) expect(files.get(f)!.equals(bytes), f).toBe(true);
  };

  it('writes the same bytes when workers make the pages as when this thread makes them all', async () => {
    const site = join(out, 'workers');
    const summary = await summaryOf(site, { STUDIO_RENDER_WORKERS_FROM: '1', STUDIO_NO_CACHE: '1' });
    expect(Object.keys(summary.phases)).toContain('pages: resolve, render, write (on workers)');
    expectSameBytes(site);
  }, 120_000);

  it('takes every page over when nothing changed, nothing under STUDIO_NO_CACHE=1, and nothing from a damaged record', async () => {
    const site = join(out, 'records');
    const fresh = await summaryOf(site);
    expect(fresh.rendered).toBe(fresh.pages);
    const again = await summaryOf(site);
    expect(again.rendered).toBe(0);
    expect((await summaryOf(site, { STUDIO_NO_CACHE: '1' })).rendered).toBe(again.pages);
    const records = folderCacheFile('pages', site, 'json');
    const damaged = JSON.parse(readFileSync(records, 'utf8'));
    for (const item of Object.values(damaged.items) as { reads: unknown; ino: unknown }[]) {
      item.reads = 'not a list';
      item.ino = null;
    }
    writeFileSync(records, JSON.stringify(damaged));
    expect((await summaryOf(site)).rendered).toBe(again.pages);
    writeFileSync(records, 'null');
    expect((await summaryOf(site)).rendered).toBe(again.pages);
    expectSameBytes(site);
  }, 120_000);
});
