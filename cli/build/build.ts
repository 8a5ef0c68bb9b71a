import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locale, PageModel } from '../../templates/model.ts';
import type { Problem } from '../core/problem.ts';
import { validateContent } from '../core/validate.ts';
import { enquiryManifest, writeManifest } from '../serve/manifest.ts';
import { resolveSite } from '../site/resolve.ts';
import { createTranslator } from '../site/translator.ts';
import { commitStaging, discardStaging, prepareStaging } from './atomic-dir.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';
import { prerenderWithVike } from './vike.ts';

export interface BuildOptions {
  content: string;
  out: string;
  baseUrl?: string;
  today?: string;
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
}

export type BuildResult = { ok: false; problems: Problem[]; sources: Map<string, string> } | { ok: true; problems: Problem[]; summary: BuildSummary };

/** validate → resolve → translate → render → write, into a staging directory swapped in on success. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const validated = validateContent(options.content, { today });
  if (!validated.ok) return { ok: false, problems: validated.problems, sources: validated.sources };

  const tr = createTranslator(validated.content);
  const pages = resolveSite(validated.content, tr, { baseUrl: options.baseUrl, today });
  const baseUrl = options.baseUrl ?? validated.content.site!.data.baseUrl;

  const staging = prepareStaging(options.out);
  try {
    let done = 0;
    await prerenderWithVike(pages, staging, () => options.onProgress?.(++done, pages.length));
    writeFileSync(join(staging, 'sitemap.xml'), sitemapXml(pages));
    writeFileSync(join(staging, 'robots.txt'), robotsTxt(baseUrl));
    writeManifest(staging, enquiryManifest(validated.content, tr, pages, stylesheetOf(staging, pages[0]?.file)));
    const summary = summarize(staging, pages, tr.fallbacks, started);
    commitStaging(staging, options.out);
    return { ok: true, problems: validated.problems, summary };
  } catch (error) {
    discardStaging(staging);
    throw error;
  }
}

/** The stylesheet the pages link to, for the pages `content serve` writes itself. */
function stylesheetOf(dir: string, file: string | undefined): string | undefined {
  if (!file) return undefined;
  return /<link rel="stylesheet"[^>]* href="([^"]+)"/.exec(readFileSync(join(dir, file), 'utf8'))?.[1];
}

function summarize(dir: string, pages: PageModel[], fallbacks: Record<Locale, Set<string>>, started: number): BuildSummary {
  const pagesPerLocale: Record<string, number> = {};
  let totalBytes = 0;
  let largest = { file: '', bytes: 0, gzipBytes: 0 };
  for (const p of pages) pagesPerLocale[p.locale] = (pagesPerLocale[p.locale] ?? 0) + 1;
  for (const file of walk(dir)) {
    const bytes = statSync(join(dir, file)).size;
    totalBytes += bytes;
    if (file.endsWith('.html') && bytes > largest.bytes) largest = { file, bytes, gzipBytes: gzipSync(readFileSync(join(dir, file))).length };
  }
  const withForm = pages.find((p) => p.form);
  const withoutForm = pages.find((p) => !p.form);
  return {
    pages: pages.length,
    pagesPerLocale,
    fallbacksPerLocale: Object.fromEntries(Object.entries(fallbacks).map(([l, s]) => [l, s.size])),
    totalBytes,
    largestPage: largest,
    jsPerPage: {
      withForm: withForm ? scriptBytes(dir, withForm.file) : 0,
      withoutForm: withoutForm ? scriptBytes(dir, withoutForm.file) : 0,
    },
    ms: Math.round(performance.now() - started),
  };
}

export function* walk(dir: string, base = dir): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path, base);
    else yield relative(base, path).replaceAll('\\', '/');
  }
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
