import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { makePages } from './build-pages.ts';
import type { PageProduct } from './build-share.ts';
import { type BuildSummary, finishSummary, type MadePage, summarize } from './build-summary.ts';
import { releaseImageCaches } from './cache/file-cache.ts';
import { cacheKey, cacheUnwritable } from './cache/policy.ts';
import { type ImagesOutput, prepareImages, writeImages } from './images/stage.ts';
import { digestOf } from './incremental/digests.ts';
import { memo } from './incremental/memo.ts';
import { ParseMemo } from './incremental/parse-memo.ts';
import { LOCALES, type Locale } from './locales.ts';
import { type ClientAssets, startClientAssets } from './render/client-assets.ts';
import { buildHtmlRenderer } from './render/html-renderer.ts';
import { redirectsFile } from './render/redirects.ts';
import { robotsTxt, sitemapXml } from './render/sitemap.ts';
import { prerenderWithVike } from './render/vike.ts';
import type { Problem } from './report/problem.ts';
import type { ResolveOptions } from './resolve/context.ts';
import { type SiteResolver, siteResolver } from './resolve/resolve.ts';
import { createTranslator } from './resolve/translator.ts';
import { enquiryManifest } from './serve/manifest.ts';
import type { Content } from './validate/content.ts';
import { FILE_CHECKS, validateContent } from './validate/validate.ts';
import { commitStaging, discardStaging, prepareStaging } from './write/atomic-dir.ts';
import { checkOutDir } from './write/out-dir.ts';
import { installAssets, writeSiteFiles } from './write/site-files.ts';
import { linkUnchanged } from './write/write-page.ts';

export type { BuildSummary } from './build-summary.ts';
export { scriptBytes } from './build-summary.ts';

export interface BuildOptions {
  content: string;
  out: string;
  baseUrl?: string;
  today?: string;
  /**
   * `react` (default): the React templates written by the build's own serializer (cli/render/html,
   * the bytes React's server renderer writes), with the client bundle installed with the compiler.
   * `vike`: every page through Vike's prerender and React's server renderer, the reference the
   * default is tested against (byte for byte).
   */
  renderer?: 'react' | 'vike';
  onProgress?: (done: number, total: number) => void;
}

export type BuildResult = { ok: false; problems: Problem[]; sources: Map<string, string> } | { ok: true; problems: Problem[]; summary: BuildSummary };

/** The pages a build made, with what is needed of them after the render. */
interface Made {
  pages: MadePage[];
  /** The texts that fell back to Russian, per locale. */
  fallbacks: Record<Locale, Set<string>>;
  /** The stylesheet the pages link to (the server's own pages link to it too). */
  stylesheet: string | undefined;
  /** Gzipped JavaScript of a page of each kind, when the client bundle counted it. */
  jsGzip?: ClientAssets['jsGzip'];
  /** How many pages were rendered anew (the others were taken over from the previous build). */
  rendered?: number;
  /** How many threads made the pages. */
  threads: number;
  /** Keeps what the incremental layer learnt, for the next build into the same folder. */
  save?(): void;
}

/**
 * load and validate → resolve → render → write, into a staging folder swapped in on success: a
 * failed build leaves the previous site as it was. The pages are made through the one
 * incremental layer (cli/incremental), which takes over those whose recorded reads are unchanged.
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  try {
    return await build(options);
  } finally {
    releaseImageCaches(); // the images stage's own folders, where the compiler's cache cannot be written
  }
}

async function build(options: BuildOptions): Promise<BuildResult> {
  checkOutDir(options.out, options.content); // before anything is started or written
  const started = performance.now();
  const phases = stopwatch();
  // Installed with the compiler, so normally at hand; built meanwhile when missing. Vike bundles
  // the form's script itself, but its pages carry this bundle's stylesheet as the others do.
  const bundling = startClientAssets();
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const known = ParseMemo.open(options.content);
  const validated = validateContent(options.content, { today, known });
  known?.save(FILE_CHECKS);
  phases.end('validate');
  if (!validated.ok) {
    bundling?.cancel();
    return { ok: false, problems: validated.problems, sources: validated.sources };
  }
  const content = validated.content;
  // Images (cli/images): the pictures the content names, read and made into the cache; one that cannot be decoded is a content problem.
  const images = await prepareImages(options.content, validated.pictures);
  phases.end('images');
  if (images.problems.length) {
    bundling?.cancel();
    return { ok: false, problems: [...validated.problems, ...images.problems], sources: validated.sources };
  }
  const settings: ResolveOptions = { baseUrl: options.baseUrl, today, images: { key: images.index.key, meta: images.index.meta } };
  const notes: string[] = [];
  const unwritable = cacheUnwritable();
  if (unwritable) notes.push(unwritable);
  const staging = prepareStaging(options.out, notes);
  let written: { made: Made; pictures: ImagesOutput; files: string[] };
  try {
    const tr = createTranslator(content);
    const site = siteResolver(content, tr, settings);
    const progress = counter(site.pages.length, options.onProgress);
    const assets = await bundling.assets;
    const made =
      options.renderer === 'vike'
        ? await withVike(site, staging, progress, assets)
        : await withSerializer(content, settings, site, { out: options.out, staging, assets }, progress);
    phases.end(made.threads > 1 ? 'pages: resolve, render, write (on workers)' : 'pages: resolve, render, write');
    const manifest = enquiryManifest(content, tr, formPages(site, made.pages), made.stylesheet);
    const baseUrl = options.baseUrl ?? content.site!.data.baseUrl;
    writeSiteFiles(staging, {
      sitemap: sitemapXml(sitemapEntries(site, made.pages)),
      robots: robotsTxt(baseUrl),
      redirects: redirectsFile(site.pages, content.routes!.data.routes.find((r) => r.page === 'prices')?.path),
      manifest,
    });
    phases.end('sitemap, manifest, host files');
    // Every picture's files, and the share card of each page that has one (a page taken over has its card's facts in its record).
    const pictures = await writeImages(
      images,
      made.pages.flatMap((p) => p.card ?? []),
      staging,
    );
    phases.end('images and share cards');
    const files = commitStaging(staging, options.out, { content: options.content, notes });
    made.save?.();
    written = { made, pictures, files };
  } catch (error) {
    discardStaging(staging, options.out);
    throw error;
  }
  // The summary of the site as it now stands in its folder.
  const { made, pictures, files } = written;
  const summary = summarize(options.out, files, made.pages, made.fallbacks, made.jsGzip);
  summary.images = { encoded: images.encoded.encoded, reused: images.encoded.reused, cardsDrawn: pictures.cards.drawn, cardsReused: pictures.cards.reused };
  phases.end('commit and summary');
  const end = { started, phases: phases.all, rendered: made.rendered, notes, banners: content.banners?.data.banners, today };
  return { ok: true, problems: validated.problems, summary: finishSummary(summary, end) };
}

/**
 * The default renderer: every page made by `makePages` (resolve, render, write; on workers for a
 * large site), through `memo`, which takes over the pages whose recorded reads have the digests
 * they had and links their files from the previous site.
 */
async function withSerializer(
  content: Content,
  settings: ResolveOptions,
  site: SiteResolver,
  where: { out: string; staging: string; assets: ClientAssets },
  progress: () => void,
): Promise<Made> {
  const { staging, assets } = where;
  const renderer = buildHtmlRenderer(); // a wrong STUDIO_HTML_RENDERER is said before any page is made
  installAssets(staging, assets.dir);
  let threads = 1;
  const input = {
    out: where.out,
    // A page's bytes are made from its reads, the compiler (the salt) and the tags inserted into it.
    key: cacheKey('pages', JSON.stringify(assets.inserts)),
    files: site.pages.map((p) => p.file),
    digest: digestOf(content, settings),
  };
  const memoized = await memo<PageProduct>(
    'pages',
    input,
    async (indexes) => {
      const made = await makePages({ content, settings, inserts: assets.inserts, renderer, dir: staging }, indexes, progress);
      threads = made.threads;
      return made;
    },
    (previous) => {
      const linked = linkUnchanged(resolve(where.out), staging, previous);
      for (const _ of linked) progress();
      return linked;
    },
  );
  const pages = memoized.products.map((p, i) => ({ ...p, locale: site.pages[i]!.locale }));
  const fallbacks = fallbacksByLocale(pages);
  return { pages, fallbacks, stylesheet: assets.stylesheet, jsGzip: assets.jsGzip, rendered: memoized.computed, threads, save: memoized.save };
}

/** The reference renderer: every page resolved as the default renderer resolves it (`site`), then prerendered by Vike. */
async function withVike(site: SiteResolver, staging: string, progress: () => void, assets: ClientAssets): Promise<Made> {
  const resolved = site.pages.map((_, i) => site.resolve(i));
  const models = resolved.map((r) => r.model);
  await prerenderWithVike(models, staging, progress, assets.inserts.static.head);
  // The stylesheet's file, for the server's own pages (the site's pages have it inline).
  const stylesheet = join(staging, assets.stylesheet);
  mkdirSync(dirname(stylesheet), { recursive: true });
  copyFileSync(join(assets.dir, assets.stylesheet), stylesheet);
  const pages = models.map(
    (m): MadePage => ({ file: m.file, locale: m.locale, inSitemap: m.inSitemap, ...(m.form && { form: true }), ...(m.card && { card: m.card }) }),
  );
  const fallbacks = fallbacksByLocale(resolved.map((r) => ({ locale: r.model.locale, fallbacks: r.fallbacks })));
  return { pages, fallbacks, stylesheet: assets.stylesheet, threads: 1 };
}

/** The texts that fell back to Russian on the pages of each locale. */
function fallbacksByLocale(pages: { locale: Locale; fallbacks?: readonly string[] }[]): Made['fallbacks'] {
  const fallbacks = Object.fromEntries(LOCALES.map((l) => [l, new Set<string>()])) as Made['fallbacks'];
  for (const p of pages) for (const id of p.fallbacks ?? []) fallbacks[p.locale].add(id);
  return fallbacks;
}

/** The form of each locale that has a page with it, for the server's manifest (the form's error texts). */
const formPages = (site: SiteResolver, pages: MadePage[]) =>
  [...new Set(pages.flatMap((p) => (p.form ? [p.locale] : [])))].map((locale) => ({ locale, form: site.form(locale) }));

/** What sitemap.xml lists of each page: whether it is listed (the page said), its address and alternates (the plan says). */
const sitemapEntries = (site: SiteResolver, pages: MadePage[]) =>
  site.pages.map((p, i) => ({ inSitemap: pages[i]!.inSitemap, canonical: p.canonical, hreflang: p.hreflang }));

/** Milliseconds per phase of the build, each from the end of the one before. */
function stopwatch() {
  const all: Record<string, number> = {};
  let mark = performance.now();
  return {
    all,
    end(name: string) {
      const now = performance.now();
      all[name] = Math.round(now - mark);
      mark = now;
    },
  };
}

function counter(total: number, onProgress: BuildOptions['onProgress']): () => void {
  let done = 0;
  return () => onProgress?.(++done, total);
}
