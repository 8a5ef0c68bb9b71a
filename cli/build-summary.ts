import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CardModel, Locale } from '../templates/model.ts';
import { type BannerExpiry, nextBannerExpiry } from './resolve/banner-dates.ts';
import type { BannersFile } from './schema/banners.ts';

export interface BuildSummary {
  pages: number;
  pagesPerLocale: Record<string, number>;
  fallbacksPerLocale: Record<string, number>;
  totalBytes: number;
  largestPage: { file: string; bytes: number; gzipBytes: number };
  /** Gzipped JavaScript a page loads, including what its script imports on demand. */
  jsPerPage: { withForm: number; withoutForm: number };
  ms: number;
  /** Pages rendered anew; the others were unchanged (the same reads) and taken over from the previous build. */
  rendered?: number;
  /** Where the time went, in milliseconds per stage. */
  phases: Record<string, number>;
  /** Picture files encoded by this build and taken from the cache; share cards drawn and taken from the cache. */
  images?: { encoded: number; reused: number; cardsDrawn: number; cardsReused: number };
  /** What the user should know about the output folder (leftovers kept because they hold files of theirs). */
  notes?: string[];
  /** The first banner to stop showing: the site needs a build on or after the day after its last day. */
  nextBannerExpiry?: BannerExpiry;
}

/** What the summary needs of a page: its file (and its size, when the build knows it), its locale, whether it shows the form. */
export interface MadePage {
  file: string;
  locale: Locale;
  size?: number;
  inSitemap: boolean;
  form?: true;
  /** What its share card shows (cli/images/card-model.ts), when it has one. */
  card?: CardModel;
}

/** The build's summary, from the pages made and `files`, the files of the site in `dir` (as its mark lists them). */
export function summarize(
  dir: string,
  files: readonly string[],
  pages: MadePage[],
  fallbacks: Record<Locale, Set<string>>,
  /** The client bundle's own count of `jsPerPage` (scriptBytes reads the scripts of a page otherwise). */
  jsGzip: { static: number; form: number } | undefined,
): BuildSummary {
  const pagesPerLocale: Record<string, number> = {};
  let totalBytes = 0;
  let largest = { file: '', bytes: 0 };
  for (const p of pages) {
    pagesPerLocale[p.locale] = (pagesPerLocale[p.locale] ?? 0) + 1;
    const bytes = p.size ?? statSync(join(dir, p.file)).size;
    totalBytes += bytes;
    if (bytes > largest.bytes || (bytes === largest.bytes && p.file < largest.file)) largest = { file: p.file, bytes };
  }
  // Besides the pages: the client bundle, the sitemap, the server's manifest.
  const pageFiles = new Set(pages.map((p) => p.file));
  for (const path of files) if (!pageFiles.has(path)) totalBytes += statSync(join(dir, path)).size;
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
    ms: 0,
    phases: {},
  };
}

/** The figures known only once the site is in place, added to its summary. `started`: `performance.now()` when the build began. */
export function finishSummary(
  summary: BuildSummary,
  end: { started: number; phases: Record<string, number>; rendered?: number; notes: string[]; banners: BannersFile['banners'] | undefined; today: string },
): BuildSummary {
  summary.ms = Math.round(performance.now() - end.started);
  summary.phases = end.phases;
  if (end.rendered !== undefined) summary.rendered = end.rendered;
  if (end.notes.length) summary.notes = end.notes;
  const expiry = nextBannerExpiry(end.banners, end.today);
  if (expiry) summary.nextBannerExpiry = expiry;
  return summary;
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
