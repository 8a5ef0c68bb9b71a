import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../cli/paths.ts';
import { walk } from '../../cli/util/walk.ts';
import { MARK_FILE } from '../../cli/write/site-mark.ts';
import { FIXTURE, runCliProcess } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

const work = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every file of a built site with the hash of its bytes. */
function snapshot(dir: string): Map<string, string> {
  return new Map(
    [...walk(dir)].map((f) => [
      f,
      createHash('sha1')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

/**
 * The site mark with the bundle's entries as one: each bundler names (and splits) its files its own
 * way. Every other byte stays as written.
 */
const markWithoutBundle = (text: string) => text.replace(/"assets\/[^"]+"/g, '"assets/BUNDLE"').replace(/(?:"assets\/BUNDLE",\s*)+(?="assets\/BUNDLE")/g, '');

/**
 * The site without its client bundle, every other file with its bytes, where the only thing
 * allowed to differ is the name of a bundle file. Vike (the reference) and the fast path's
 * esbuild each name the stylesheet and the form's script after their own hashes, in their own
 * folders; everything else, the tags that load them and the site mark's list included, must be the very same bytes.
 */
function withoutBundle(dir: string): Map<string, string> {
  return new Map(
    [...walk(dir)]
      .filter((f) => !f.startsWith('assets/'))
      .map((f) => {
        const text = readFileSync(join(dir, f), 'utf8');
        if (f === MARK_FILE) return [f, markWithoutBundle(text)];
        return [f, text.replace(/"\/assets\/[^"]+\.css"/g, '"/assets/STYLESHEET.css"').replace(/"\/assets\/[^"]+\.js"/g, '"/assets/SCRIPT.js"')];
      }),
  );
}

/** The files a site's mark lists: every file of the folder but the mark, the bundle's included. */
const markedFiles = (dir: string) => [...(JSON.parse(readFileSync(join(dir, MARK_FILE), 'utf8')) as { files: string[] }).files];

/** Every file under /assets/ a page of the site refers to exists. */
function bundleReferences(dir: string): string[] {
  const refs = new Set<string>();
  for (const f of walk(dir)) if (f.endsWith('.html')) for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/"\/(assets\/[^"]+)"/g)) refs.add(m[1]!);
  return [...refs].sort();
}

async function build(args: string[], env: Record<string, string> = {}) {
  const r = await runCliProcess(['build', '--today', '2026-11-22', '--format', 'json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).summary as { pages: number; rendered?: number; fallbacksPerLocale: Record<string, number>; phases: Record<string, number> };
}

const changedFiles = (a: Map<string, string>, b: Map<string, string>) => [...b].filter(([f, h]) => a.get(f) !== h).map(([f]) => f);

// 150 synthetic courses: 480 pages, rendered by worker threads from 400 pages on (they start from 2,000 otherwise).
const synthetic = syntheticContent(150);
afterAll(() => synthetic.cleanup());

describe('the fast renderer', () => {
  it.each([
    ['the shipped content', undefined],
    ['480 synthetic pages, rendered in worker threads', synthetic.dir],
  ])(
    'writes %s byte for byte as Vike does, but for the names of the bundle files',
    async (_name, content) => {
      const contentArgs = content ? ['--content', content] : [];
      const viaVike = join(work, `vike-${content ? 'syn' : 'shipped'}`);
      const fast = join(work, `fast-${content ? 'syn' : 'shipped'}`);
      await build([...contentArgs, '--renderer', 'vike', '--out', viaVike]);
      const summary = await build([...contentArgs, '--out', fast], { STUDIO_NO_CACHE: '1', STUDIO_RENDER_WORKERS_FROM: '400' });
      expect(summary.rendered).toBe(summary.pages);
      // The synthetic site goes the way of a large one: its pages are resolved and rendered by workers.
      if (content) expect(Object.keys(summary.phases)).toContain('pages: resolve, render, write (on workers)');
      const a = withoutBundle(viaVike);
      const b = withoutBundle(fast);
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      expect([...b].filter(([f, text]) => a.get(f) !== text).map(([f]) => f)).toEqual([]);
      for (const dir of [viaVike, fast]) expect(markedFiles(dir).sort()).toEqual([...walk(dir)].filter((f) => f !== MARK_FILE).sort());
      expect([...a.keys()].filter((f) => f.endsWith('.html')).length).toBe(summary.pages);
      // The stylesheet in every page (no request of its own before the first paint), and one script for the pages with the form, there.
      const refs = bundleReferences(fast);
      expect(refs.map((r) => r.replace(/[^/]+$/, '').concat(r.slice(r.lastIndexOf('.'))))).toEqual(['assets/entries/.js']);
      for (const r of refs) expect(existsSync(join(fast, r)), r).toBe(true);
      expect(bundleReferences(viaVike)).toHaveLength(1);
      for (const dir of [viaVike, fast])
        for (const f of walk(dir))
          if (f.endsWith('.html')) expect(readFileSync(join(dir, f), 'utf8'), f).toMatch(/^<!DOCTYPE html><html lang="\w+"><head><style>[^<]{2000,}<\/style>/);
    },
    240_000,
  );

  it('takes a wrong STUDIO_HTML_RENDERER as a usage error before any page is made, workers or not, and leaves the site as it was', async () => {
    const out = join(work, 'wrong-renderer');
    await build(['--content', FIXTURE, '--out', out]);
    const before = snapshot(out);
    for (const workersFrom of ['1', '100000']) {
      const r = await runCliProcess(['build', '--content', FIXTURE, '--out', out], {
        env: { STUDIO_HTML_RENDERER: 'svelte', STUDIO_RENDER_WORKERS_FROM: workersFrom, STUDIO_NO_CACHE: '1' },
      });
      expect([r.code, r.stdout], r.stderr).toEqual([2, '']);
      expect(r.stderr).toContain('STUDIO_HTML_RENDERER=svelte names no renderer');
      expect(r.stderr).toContain('use serializer or react, or leave it unset');
      expect(r.stderr).not.toMatch(/internal error|worker|\n\s+at /i);
      expect(changedFiles(before, snapshot(out))).toEqual([]);
      expect([...snapshot(out).keys()].sort()).toEqual([...before.keys()].sort());
    }
    // React's renderer, the reference, chosen by name: the same bytes from the workers.
    const summary = await build(['--content', FIXTURE, '--out', out], { STUDIO_HTML_RENDERER: 'react', STUDIO_RENDER_WORKERS_FROM: '1', STUDIO_NO_CACHE: '1' });
    expect(summary.rendered).toBe(summary.pages);
    expect(changedFiles(before, snapshot(out))).toEqual([]);
  }, 120_000);

  it('after one course file changed renders again only the pages that read it, and equals a clean build', async () => {
    const out = join(work, 'incremental');
    const first = await build(['--content', synthetic.dir, '--out', out]);
    expect(first.pages).toBe(480);
    const before = snapshot(out);

    // Nothing changed: nothing is rendered, every page is taken over as it was.
    expect((await build(['--content', synthetic.dir, '--out', out])).rendered).toBe(0);
    expect(changedFiles(before, snapshot(out))).toEqual([]);

    synthetic.edit('courses/course00007.yaml', (t) => t.replace(/^title:\n {2}ru: .*$/m, 'title:\n  ru: Новое название курса'));
    const again = await build(['--content', synthetic.dir, '--out', out]);
    const after = snapshot(out);
    const changed = changedFiles(before, after);
    // The course's own Russian page, and every Russian page that lists it (home, teachers, schedule)…
    expect(changed).toContain('course00007.html');
    expect(changed).toContain('index.html');
    expect(changed.filter((f) => f.startsWith('en/') || f.startsWith('de/') || !f.endsWith('.html'))).toEqual([]);
    // What was rendered: the pages that read the course file (its own page in every locale, the pages listing it), no others.
    expect(again.rendered).toBeGreaterThanOrEqual(changed.filter((f) => f.endsWith('.html')).length);
    expect(again.rendered).toBeLessThan(20);

    const clean = join(work, 'clean');
    await build(['--content', synthetic.dir, '--out', clean], { STUDIO_NO_CACHE: '1' });
    expect(changedFiles(snapshot(clean), after)).toEqual([]);
  }, 240_000);

  it('renders a page again when its file in the previous site was changed by hand', async () => {
    const out = join(work, 'incremental');
    const page = join(out, 'course00003.html');
    const original = readFileSync(page, 'utf8');
    writeFileSync(page, original.replace('</main>', '<p>edited by hand</p></main>'));
    const again = await build(['--content', synthetic.dir, '--out', out]);
    expect(again.rendered).toBe(1);
    expect(readFileSync(page, 'utf8')).toBe(original);
  }, 120_000);

  it('drops the pages of a course that is gone and adds those of a new one, as a clean build has them', async () => {
    // The last course gets another key: its three pages go (they were linked in beforehand), three new ones come.
    const out = join(work, 'incremental');
    synthetic.write('courses/course00150.yaml', synthetic.read('courses/course00149.yaml').replace('route: /course00149', 'route: /course00150'));
    rmSync(join(synthetic.dir, 'courses/course00149.yaml'));
    synthetic.edit('routes.yaml', (t) => t.replaceAll('course00149', 'course00150'));
    const again = await build(['--content', synthetic.dir, '--out', out]);
    const after = snapshot(out);
    for (const prefix of ['', 'en/', 'de/']) {
      expect(after.has(`${prefix}course00149.html`)).toBe(false);
      expect(after.has(`${prefix}course00150.html`)).toBe(true);
    }
    // routes.yaml changed, and every page read it (its menu and links): every page was made again.
    expect(again.rendered).toBe(again.pages);
    const clean = join(work, 'clean-renamed');
    await build(['--content', synthetic.dir, '--out', clean], { STUDIO_NO_CACHE: '1' });
    expect([...after.keys()]).toEqual([...snapshot(clean).keys()]);
    expect(changedFiles(snapshot(clean), after)).toEqual([]);
  }, 240_000);
});

describe('course pages taken over without resolving them', () => {
  // 20 courses: 90 pages, rendered in this thread; what is taken over does not depend on the workers.
  const content = syntheticContent(20);
  afterAll(() => content.cleanup());
  const out = join(work, 'taken-over');
  const cleanBuild = async (name: string) => {
    const dir = join(work, name);
    const summary = await build(['--content', content.dir, '--out', dir], { STUDIO_NO_CACHE: '1' });
    return { summary, files: snapshot(dir) };
  };

  it('resolves every course page again when a file they share changes, and equals a clean build', async () => {
    await build(['--content', content.dir, '--out', out]);
    const before = snapshot(out);
    content.edit('site.yaml', (t) => t.replace('name: Synthetic Studio', 'name: Synthetic Studio Two'));
    const again = await build(['--content', content.dir, '--out', out]);
    const after = snapshot(out);
    // The studio's name is on every page, so every page was rendered again…
    expect(again.rendered).toBe(again.pages);
    expect(changedFiles(before, after).filter((f) => f.endsWith('.html'))).toHaveLength(again.pages);
    // …exactly as a build from nothing renders them.
    expect(changedFiles((await cleanBuild('taken-over-clean-1')).files, after)).toEqual([]);
  }, 120_000);

  it('counts the Russian fallbacks of pages it takes over, as a clean build does', async () => {
    // A course whose English trial text (shown on its own page only) is missing: that page shows the Russian one.
    content.edit('courses/course00004.yaml', (t) => t.replace(/^(trial:\n {2}ru: .*\n) {2}en: .*\n/m, '$1'));
    const first = await build(['--content', content.dir, '--out', out]);
    expect(first.fallbacksPerLocale.en).toBeGreaterThan(0);
    // Another course changes: course00004's pages are taken over, not resolved, and still counted.
    content.edit('courses/course00011.yaml', (t) => t.replace(/^title:\n {2}ru: .*$/m, 'title:\n  ru: Другое название'));
    const again = await build(['--content', content.dir, '--out', out]);
    // Only the pages that show that course's title are rendered again (its own, the home page's
    // card, the price list's link and sign-up, in each locale); the other course pages are taken over.
    expect(again.rendered).toBeLessThan(again.pages / 4);
    expect(again.fallbacksPerLocale).toEqual(first.fallbacksPerLocale);
    const clean = await cleanBuild('taken-over-clean-2');
    expect(again.fallbacksPerLocale).toEqual(clean.summary.fallbacksPerLocale);
    expect(changedFiles(clean.files, snapshot(out))).toEqual([]);
    expect(readFileSync(join(out, 'en/course00004.html'), 'utf8')).toMatch(/lang="ru"/);
  }, 120_000);
});

// `script` (util-linux) gives the build a terminal, where it shows its progress.
const SCRIPT = '/usr/bin/script';

describe.skipIf(!existsSync(SCRIPT))("Vike's prerender", () => {
  it('reports every page rendered, through the page context Vike is handed (no globalThis)', () => {
    const out = join(work, 'vike-progress');
    const command = `${process.execPath} ${fromRoot('cli/bin.js')} build --renderer vike --today 2026-11-22 --content ${FIXTURE} --out ${out}`;
    // Vike leaves its build plugin out when it sees Vitest's variables (as runCliProcess does).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    const r = spawnSync(SCRIPT, ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...env, STUDIO_NO_CACHE: '1', NO_COLOR: '1' } });
    expect(r.status, r.stdout).toBe(0);
    const shown = [...r.stdout.matchAll(/Rendering pages (\d+)\/(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const total = [...walk(out)].filter((f) => f.endsWith('.html')).length;
    expect(shown.map(([done]) => done)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(new Set(shown.map(([, of]) => of))).toEqual(new Set([total]));
  }, 240_000);
});
