import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locale, PageModel } from '../templates/model.ts';
import type { Rendered } from './cache/page-cache.ts';
import { readPageRecords, writePageRecords } from './cache/page-cache.ts';
import { cacheKey } from './cache/policy.ts';
import { fromRoot } from './paths.ts';
import { type Bundling, startClientAssets } from './render/client-assets.ts';
import { type RenderPool, renderPoolAhead } from './render/render-pool.ts';
import { robotsTxt, sitemapXml } from './render/sitemap.ts';
import { prerenderWithVike } from './render/vike.ts';
import type { Problem } from './report/problem.ts';
import { resolveSite } from './resolve/resolve.ts';
import { createTranslator } from './resolve/translator.ts';
import { enquiryManifest, writeManifest } from './serve/manifest.ts';
import { validateContent } from './validate/validate.ts';
import { commitStaging, discardStaging, prepareStaging } from './write/atomic-dir.ts';
import { checkOutDir } from './write/out-dir.ts';

export interface BuildOptions {
  content: string;
  out: string;
  baseUrl?: string;
  today?: string;
  /**
   * `react` (default): React's server renderer in worker threads, with the client bundle Vike
   * builds from one page of each kind (cached). `vike`: every page through Vike's prerender,
   * the reference the fast path is tested against (byte for byte).
   */
  renderer?: 'react' | 'vike';
  onProgress?: (done: number, total: number) => void;
}

export interface BuildSummary {
  pages: number;
  pagesPerLocale: Record<string, number>;
  fallbacksPerLocale: Record<string, number>;
  totalBytes: number;
  largestPage: { file: string; bytes: number; gzipBytes: number };
  /** Gzipped JavaScript a page loads, including what its script imports on demand. */
  jsPerPage: { withForm: number; withoutForm: number };
  ms: number;
  /** Pages rendered anew; the others were unchanged (same `pageKey`) and taken over from the previous build. */
  rendered?: number;
  /** Where the time went, in milliseconds per stage. */
  phases: Record<string, number>;
  /** What the user should know about the output folder (leftovers kept because they hold files of theirs). */
  notes?: string[];
}

export type BuildResult = { ok: false; problems: Problem[]; sources: Map<string, string> } | { ok: true; problems: Problem[]; summary: BuildSummary };

/**
 * validate → resolve → translate → render → write, into a staging directory swapped in on
 * success. The fast path builds the client bundle in a child process meanwhile.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  checkOutDir(options.out, options.content); // before anything is started or written
  const fast = options.renderer !== 'vike';
  const bundling = fast ? startClientAssets() : undefined;
  // A large build from nothing starts its render workers now: they load React while this thread validates.
  const pool = fast ? renderPoolAhead(options.content, options.out) : undefined;
  try {
    const result = await build(options, bundling, pool);
    if (!result.ok) bundling?.cancel();
    return result;
  } catch (error) {
    bundling?.cancel();
    throw error;
  } finally {
    await pool?.terminate();
  }
}

async function build(options: BuildOptions, bundling: Bundling | undefined, pool?: RenderPool): Promise<BuildResult> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  let mark = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
  };
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const validated = validateContent(options.content, { today });
  phase('validate');
  if (!validated.ok) return { ok: false, problems: validated.problems, sources: validated.sources };

  const tr = createTranslator(validated.content);
  const pages = resolveSite(validated.content, tr, { baseUrl: options.baseUrl, today });
  phase('resolve');
  const baseUrl = options.baseUrl ?? validated.content.site!.data.baseUrl;

  const notes: string[] = [];
  const records = bundling && readPageRecords(options.out);
  const staging = prepareStaging(options.out, notes);
  try {
    let done = 0;
    let rendered: Rendered[] | undefined;
    let jsGzip: { static: number; form: number } | undefined;
    const progress = () => options.onProgress?.(++done, pages.length);
    if (!bundling) await prerenderWithVike(pages, staging, progress);
    else {
      process.env.NODE_ENV ??= 'production'; // React's production build, as under Vike
      const { renderPages } = await import('./render/render-pages.ts');
      const assets = await bundling.assets;
      jsGzip = assets.jsGzip;
      cpSync(join(assets.dir, 'assets'), join(staging, 'assets'), { recursive: true });
      phase(assets.cached ? 'client bundle (cached)' : 'client bundle (the rest of its time)');
      rendered = await renderPages(
        pages,
        {
          inserts: assets.inserts,
          // A page's bytes are its model, the templates (in the salt) and the tags inserted into it.
          templateKey: cacheKey('pages', JSON.stringify(assets.inserts)),
          outDir: staging,
          previous: records && { dir: resolve(options.out), pages: records },
        },
        progress,
        pool,
      );
    }
    phase('render and write');
    // Files served as they are (the favicon), the same for both renderers.
    cpSync(fromRoot('templates/public'), staging, { recursive: true });
    writeFileSync(join(staging, 'sitemap.xml'), sitemapXml(pages));
    writeFileSync(join(staging, 'robots.txt'), robotsTxt(baseUrl));
    writeManifest(staging, enquiryManifest(validated.content, tr, pages, stylesheetOf(staging, pages[0]?.file)));
    phase('sitemap and manifest');
    const written: string[] = [];
    const summary = summarize(staging, pages, tr.fallbacks, started, written, rendered && new Map(rendered.map((r) => [r.file, r.size])), jsGzip);
    phase('summary');
    summary.phases = phases;
    if (rendered) summary.rendered = rendered.filter((r) => r.rendered).length;
    commitStaging(staging, options.out, { content: options.content, written, notes });
    if (notes.length) summary.notes = notes;
    if (rendered) writePageRecords(options.out, rendered);
    return { ok: true, problems: validated.problems, summary };
  } catch (error) {
    discardStaging(staging, options.out);
    throw error;
  }
}

/** The stylesheet the pages link to, for the pages `content serve` writes itself. */
function stylesheetOf(dir: string, file: string | undefined): string | undefined {
  if (!file) return undefined;
  return /<link rel="stylesheet"[^>]* href="([^"]+)"/.exec(readFileSync(join(dir, file), 'utf8'))?.[1];
}

/**
 * Sizes of the pages come from what the render recorded (`pageBytes`) when it can; other files are
 * listed without a stat per page. Every file found is added to `written` (for the site's mark).
 */
function summarize(
  dir: string,
  pages: PageModel[],
  fallbacks: Record<Locale, Set<string>>,
  started: number,
  written: string[],
  pageBytes?: Map<string, number>,
  /** The client bundle's own count of `jsPerPage` (scriptBytes gzips the React part again otherwise). */
  jsGzip?: { static: number; form: number },
): BuildSummary {
  const pagesPerLocale: Record<string, number> = {};
  let totalBytes = 0;
  let largest = { file: '', bytes: 0 };
  for (const p of pages) {
    pagesPerLocale[p.locale] = (pagesPerLocale[p.locale] ?? 0) + 1;
    const bytes = pageBytes?.get(p.file) ?? statSync(join(dir, p.file)).size;
    totalBytes += bytes;
    if (bytes > largest.bytes || (bytes === largest.bytes && p.file < largest.file)) largest = { file: p.file, bytes };
  }
  // Besides the pages: the client bundle, the sitemap, the server's manifest.
  const pageFiles = new Set(pages.map((p) => p.file));
  const addOthers = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) addOthers(path);
      else {
        written.push(path);
        if (!pageFiles.has(path)) totalBytes += statSync(join(dir, path)).size;
      }
    }
  };
  addOthers('');
  const withForm = pages.find((p) => p.form);
  const withoutForm = pages.find((p) => !p.form);
  return {
    pages: pages.length,
    pagesPerLocale,
    fallbacksPerLocale: Object.fromEntries(Object.entries(fallbacks).map(([l, s]) => [l, s.size])),
    totalBytes,
    largestPage: { ...largest, gzipBytes: largest.file ? gzipSync(readFileSync(join(dir, largest.file))).length : 0 },
    jsPerPage: {
      withForm: withForm ? (jsGzip?.form ?? scriptBytes(dir, withForm.file)) : 0,
      withoutForm: withoutForm ? (jsGzip?.static ?? scriptBytes(dir, withoutForm.file)) : 0,
    },
    ms: Math.round(performance.now() - started),
    phases: {},
  };
}

/** Gzipped bytes of every script a page references, following static and dynamic imports. */
export function scriptBytes(siteDir: string, htmlFile: string): number {
  const html = readFileSync(join(siteDir, htmlFile), 'utf8');
  const queue = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
  const seen = new Set<string>();
  let total = 0;
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url) || !url.startsWith('/')) continue;
    seen.add(url);
    const code = readFileSync(join(siteDir, url));
    total += gzipSync(code).length;
    const dir = url.slice(0, url.lastIndexOf('/') + 1);
    for (const m of code.toString('utf8').matchAll(/(?:import\(|from|import)\s*["'`]([^"'`]+\.js)["'`]/g)) {
      const spec = m[1]!;
      queue.push(spec.startsWith('/') ? spec : new URL(spec, `http://x${dir}`).pathname);
    }
  }
  return total;
}
