import { closeSync, cpSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locale, PageModel } from '../templates/model.ts';
import { linkPrevious } from './cache/link-previous.ts';
import { type PageRecords, type Rendered, readPageRecords, writePageRecords } from './cache/page-cache.ts';
import { pageInputs, reuseRecorded } from './cache/page-inputs.ts';
import { cacheKey } from './cache/policy.ts';
import { prepareImages, writeImages } from './images/stage.ts';
import { fromRoot } from './paths.ts';
import { type Bundling, type ClientAssets, startClientAssets } from './render/client-assets.ts';
import { renderAsResolved, renderPages } from './render/render-pages.ts';
import { type RenderPool, renderPoolAhead } from './render/render-pool.ts';
import { robotsTxt, sitemapXml } from './render/sitemap.ts';
import { prerenderWithVike } from './render/vike.ts';
import type { Problem } from './report/problem.ts';
import { type BannerExpiry, nextBannerExpiry } from './resolve/banner-dates.ts';
import { resolveSite, resolveSitePages, type SitePage, sitePagesInChunks } from './resolve/resolve.ts';
import { createTranslator } from './resolve/translator.ts';
import { enquiryManifest, writeManifest } from './serve/manifest.ts';
import { validateContent } from './validate/validate.ts';
import { commitStaging, discardStaging, prepareStaging } from './write/atomic-dir.ts';
import { writeHostFiles } from './write/host-files.ts';
import { checkOutDir } from './write/out-dir.ts';

export interface BuildOptions {
  content: string;
  out: string;
  baseUrl?: string;
  today?: string;
  /**
   * `react` (default): the React templates written by the build's own serializer
   * (cli/render/html, the bytes React's server renderer writes), with the client bundle built by
   * esbuild from the templates (installed with the compiler). `vike`: every page through Vike's prerender and React's server renderer,
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
  /** The first banner to stop showing: the site needs a build on or after the day after its last day. */
  nextBannerExpiry?: BannerExpiry;
}

export type BuildResult = { ok: false; problems: Problem[]; sources: Map<string, string> } | { ok: true; problems: Problem[]; summary: BuildSummary };

/** What the fast path starts before validation, to run beside it. */
interface Ahead {
  /** The client bundle, installed with the compiler (or built in a process of its own, when missing). */
  bundling: Bundling;
  /** What the last build into the same folder knew of each page. */
  records?: PageRecords;
  /** Render workers, loading React meanwhile (`renderPoolAhead`). */
  pool?: RenderPool;
}

/**
 * validate → resolve → translate → render → write, into a staging directory swapped in on
 * success. The fast path takes the installed client bundle, or builds it in a child process meanwhile.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  checkOutDir(options.out, options.content); // before anything is started or written
  const ahead = options.renderer === 'vike' ? undefined : startAhead(options);
  try {
    const result = await build(options, ahead);
    if (!result.ok) ahead?.bundling.cancel();
    return result;
  } catch (error) {
    ahead?.bundling.cancel();
    throw error;
  } finally {
    await ahead?.pool?.terminate();
  }
}

function startAhead(options: BuildOptions): Ahead {
  const bundling = startClientAssets();
  const records = readPageRecords(options.out);
  return { bundling, records, pool: renderPoolAhead(options.content, records && Object.keys(records.pages).length) };
}

async function build(options: BuildOptions, ahead: Ahead | undefined): Promise<BuildResult> {
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

  // Images (cli/images): the pictures the content names, read and made into the cache; one that cannot be decoded is a content problem.
  const images = await prepareImages(options.content, validated.content);
  phase('images');
  if (images.problems.length) return { ok: false, problems: [...validated.problems, ...images.problems], sources: validated.sources };

  const notes: string[] = [];
  const staging = prepareStaging(options.out, notes);
  let fast: { rendered: Promise<Rendered[]>; assets: ClientAssets; templateKey: string } | undefined;
  try {
    // Linked while this thread resolves: most pages of a rebuild are the previous build's.
    const linked = ahead && linkUnlessRenderedAnew(options.out, staging, ahead);
    const tr = createTranslator(validated.content);
    const settings = { baseUrl: options.baseUrl, today, images: images.index };
    // A rebuild takes over the course pages whose declared inputs did not change without resolving them.
    const reuse = ahead && reuseRecorded(pageInputs(validated.content, settings), linked && ahead.records);
    let done = 0;
    let total = 0;
    const progress = () => options.onProgress?.(++done, total);
    let pages: SitePage[];
    if (ahead?.pool && !ahead.records) {
      // A build from nothing on workers started ahead: they render a share of the pages while this thread resolves the next.
      const { assets, templateKey } = await installClientAssets(ahead, staging);
      const resolving = sitePagesInChunks(validated.content, tr, settings, reuse!, RESOLVE_SHARE);
      total = resolving.total;
      pages = await renderWhileResolving(resolving.chunks, { inserts: assets.inserts, templateKey, outDir: staging }, ahead.pool, progress, (rendered) => {
        fast = { rendered, assets, templateKey };
      });
      phase('resolve (the workers rendering meanwhile)');
    } else {
      pages = reuse ? resolveSitePages(validated.content, tr, settings, reuse) : resolveSite(validated.content, tr, settings).map(resolved);
      total = pages.length;
      phase('resolve');
      if (!ahead)
        await prerenderWithVike(
          pages.map((p) => p.model!),
          staging,
          progress,
        );
      else {
        const { assets, templateKey } = await installClientAssets(ahead, staging);
        phase(assets.built ? 'client bundle (the rest of its time)' : 'client bundle (installed)');
        const previous = linked && { dir: resolve(options.out), records: ahead.records!, linked };
        // The keys are computed now, in this call; the pages that changed then render on the workers.
        fast = { rendered: renderPages(pages, { inserts: assets.inserts, templateKey, outDir: staging, previous }, progress, ahead.pool), assets, templateKey };
      }
    }
    // Written while the workers render. Files served as they are (the favicon), the same for both renderers.
    cpSync(fromRoot('templates/public'), staging, { recursive: true });
    writeFileSync(join(staging, 'sitemap.xml'), sitemapXml(pages));
    writeFileSync(join(staging, 'robots.txt'), robotsTxt(options.baseUrl ?? validated.content.site!.data.baseUrl));
    writeHostFiles(staging);
    // Images (cli/images): every picture's files and every page's share card, while the workers render.
    await writeImages(validated.content, images.index, pages, staging);
    phase('images and share cards');
    const rendered = await fast?.rendered;
    phase('render and write');
    writeManifest(staging, enquiryManifest(validated.content, tr, pages, stylesheetOf(staging, pages[0]?.file)));
    phase('manifest');
    const written: string[] = [];
    const sizes = rendered && new Map(rendered.map((r) => [r.file, r.size]));
    const gzip = gzipOnce(staging, ahead?.records, rendered);
    const summary = summarize(staging, pages, tr.fallbacks, started, written, sizes, fast?.assets.jsGzip, gzip.of);
    phase('summary');
    summary.phases = phases;
    if (rendered) summary.rendered = rendered.filter((r) => r.rendered).length;
    commitStaging(staging, options.out, { content: options.content, written, notes });
    if (notes.length) summary.notes = notes;
    const expiry = nextBannerExpiry(validated.content.banners?.data.banners, today);
    if (expiry) summary.nextBannerExpiry = expiry;
    if (rendered) writePageRecords(options.out, rendered, { templateKey: fast!.templateKey, largest: gzip.largest() }, factsOf(pages));
    return { ok: true, problems: validated.problems, summary };
  } catch (error) {
    await fast?.rendered.catch(() => {}); // the workers are done writing into the staging folder
    discardStaging(staging, options.out);
    throw error;
  }
}

/** The client bundle's files copied into the site, and the key of the tags it inserts into the pages (for the fast path's renderers). */
async function installClientAssets(ahead: Ahead, staging: string): Promise<{ assets: ClientAssets; templateKey: string }> {
  const assets = await ahead.bundling.assets;
  cpSync(join(assets.dir, 'assets'), join(staging, 'assets'), { recursive: true });
  process.env.NODE_ENV ??= 'production'; // React's production build, as under Vike
  return { assets, templateKey: templateKeyOf(assets) };
}

/** Pages resolved between two hand-overs to the render workers. */
const RESOLVE_SHARE = 200;

/**
 * Resolves the pages a share at a time, each share sent to the workers at once (`renderAsResolved`),
 * yielding between shares so that their answers are heard and they get the next batch. `started`
 * is given the rendering's promise once every share was added (a failed build waits for it before
 * it discards the staging folder); a share that fails to resolve stops the workers before the
 * error goes on, so nothing writes into that folder any more.
 */
async function renderWhileResolving(
  chunks: Iterable<SitePage[]>,
  options: Parameters<typeof renderAsResolved>[0],
  pool: RenderPool,
  onPage: () => void,
  started: (rendered: Promise<Rendered[]>) => void,
): Promise<SitePage[]> {
  const rendering = renderAsResolved(options, pool, onPage);
  const pages: SitePage[] = [];
  try {
    for (const chunk of chunks) {
      pages.push(...chunk);
      rendering.add(chunk);
      await new Promise(setImmediate);
    }
  } catch (error) {
    await pool.terminate();
    throw error;
  }
  started(rendering.finish());
  return pages;
}

/** A resolved page, as a build handles it. */
const resolved = (model: PageModel): SitePage => ({ ...model, hasForm: Boolean(model.form), model, resolve: () => model, facts: undefined });

/** The facts of each page with declared inputs, recorded for the next build to take it over. */
const factsOf = (pages: SitePage[]) => new Map(pages.flatMap((p) => (p.facts ? [[p.file, p.facts] as const] : [])));

/** A page's bytes are its model, the templates (in the salt) and the tags inserted into it. */
const templateKeyOf = (assets: ClientAssets) => cacheKey('pages', JSON.stringify(assets.inserts));

/**
 * Links the previous site's pages into `staging` (see `linkPrevious`), unless every page is to be
 * rendered anew: when the client bundle was not installed or its tags changed, no page key
 * can be the one recorded.
 */
function linkUnlessRenderedAnew(out: string, staging: string, ahead: Ahead): Promise<Set<string>> | undefined {
  const assets = ahead.bundling.ready;
  if (!ahead.records || !assets || templateKeyOf(assets) !== ahead.records.templateKey) return undefined;
  const linked = linkPrevious({ dir: resolve(out), pages: ahead.records.pages }, staging, ahead.pool?.workers[0]);
  linked.catch(() => {}); // heard where it is awaited; a build stopped before that has its own error
  return linked;
}

/**
 * The gzipped size of a page, for the summary's largest page: taken from the records while the
 * page's key is the one they hold it for, and `largest()` what to record for the next build.
 */
function gzipOnce(dir: string, records: PageRecords | undefined, rendered: Rendered[] | undefined) {
  const keys = new Map(rendered?.map((r) => [r.file, r.key]));
  let last: PageRecords['largest'];
  return {
    of: (file: string) => {
      const key = keys.get(file);
      const gzipBytes = key && key === records?.largest?.key ? records.largest.gzipBytes : gzipSync(readFileSync(join(dir, file))).length;
      if (key) last = { key, gzipBytes };
      return gzipBytes;
    },
    largest: () => last,
  };
}

const STYLESHEET = /<link rel="stylesheet"[^>]* href="([^"]+)"/;

/** The stylesheet the pages link to, for the pages `content serve` writes itself: looked for in the page's start (its head) first. */
function stylesheetOf(dir: string, file: string | undefined): string | undefined {
  if (!file) return undefined;
  const path = join(dir, file);
  const fd = openSync(path, 'r');
  const start = Buffer.alloc(64 * 1024);
  const n = readSync(fd, start);
  closeSync(fd);
  // latin1: the tag is ASCII, and a character cut at the end of the start must not break the rest
  const found = STYLESHEET.exec(start.toString('latin1', 0, n))?.[1];
  return found ? Buffer.from(found, 'latin1').toString('utf8') : STYLESHEET.exec(readFileSync(path, 'utf8'))?.[1];
}

/**
 * Sizes of the pages come from what the render recorded (`pageBytes`) when it can; other files are
 * listed without a stat per page. Every file found is added to `written` (for the site's mark).
 */
function summarize(
  dir: string,
  pages: Pick<SitePage, 'locale' | 'file' | 'hasForm'>[],
  fallbacks: Record<Locale, Set<string>>,
  started: number,
  written: string[],
  pageBytes?: Map<string, number>,
  /** The client bundle's own count of `jsPerPage` (scriptBytes gzips the React part again otherwise). */
  jsGzip?: { static: number; form: number },
  gzipped = (file: string) => gzipSync(readFileSync(join(dir, file))).length,
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
  const withForm = pages.find((p) => p.hasForm);
  const withoutForm = pages.find((p) => !p.hasForm);
  return {
    pages: pages.length,
    pagesPerLocale,
    fallbacksPerLocale: Object.fromEntries(Object.entries(fallbacks).map(([l, s]) => [l, s.size])),
    totalBytes,
    largestPage: { ...largest, gzipBytes: largest.file ? gzipped(largest.file) : 0 },
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
