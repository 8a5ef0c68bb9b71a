import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cacheFolder, cacheKey, cachesOff } from '../cache/policy.ts';
import { CACHE_DIR, fromRoot, PROJECT_ROOT } from '../paths.ts';
import { InternalError } from '../report/problem.ts';

/** What a page of each group gets besides its own HTML: the stylesheet after `<head>`, the form's script before `</body>`. */
export interface Inserts {
  head: string;
  body: string;
}

export interface ClientAssets {
  /** A directory holding `assets/…`, as the site serves them. */
  dir: string;
  inserts: { static: Inserts; form: Inserts };
  /** The hash of everything the bundle is built from (`bundleKey`). */
  key: string;
  /** Gzipped bytes of the JavaScript a page of each group loads (its script and what that imports). */
  jsGzip: { static: number; form: number };
  /** Whether they came from the cache. */
  cached: boolean;
}

/**
 * The key of the client bundle: the compiler's salt alone (cache-policy.ts), which covers every
 * file the bundle can be built from, no list kept by hand: the templates, this file's options,
 * and through the lockfile the packages in node_modules. Each build checks that claim against
 * esbuild's own list of the files it read (`checkInputs`).
 */
export function bundleKey(): string {
  return cacheKey('client');
}

/**
 * Whether the salt covers a file esbuild read: the compiler's own folders, or an installed
 * package (in a node_modules folder wherever it is linked from, its version pinned by the lockfile).
 */
const salted = (input: string) => input.startsWith('templates/') || input.startsWith('cli/') || input.split('/').includes('node_modules');

/** Fails the build (our bug, exit 70) when esbuild read a file the bundle's key does not cover. */
function checkInputs(inputs: string[]): void {
  const outside = inputs.filter((input) => !salted(input));
  if (outside.length) throw new InternalError(`the client bundle was built from files its cache key does not cover: ${outside.join(', ')}`);
}

/** The browsers Vite 8 builds for by default ('baseline-widely-available'), so both bundles target the same. */
const TARGET = ['chrome111', 'edge111', 'firefox114', 'safari16.4', 'ios16.4'];

/** The tags as Vike writes them, so a page has the same elements whichever bundler built its assets. */
const stylesheetTag = (href: string) => `<link rel="stylesheet" type="text/css" href="${href}">`;
const scriptTag = (src: string) => `<script src="${src}" type="module" async></script>`;

/** A client bundle under way (esbuild works in a process of its own, beside validation). */
export interface Bundling {
  assets: Promise<ClientAssets>;
  /** The assets at once, when they come from the cache. */
  ready?: ClientAssets;
  /** Stops it (a build whose content has errors needs no bundle). */
  cancel(): void;
}

/**
 * The client bundle: the stylesheet, and for pages with the enquiry form its first script
 * (templates/form/client.ts), which loads the React part (island.tsx) on demand. Built with
 * esbuild straight from the templates, with the compiler's own folder as the root (never the
 * working directory); Vike builds the same sources for `--renderer vike`, and a browser test
 * checks both bundles behave the same. Kept under node_modules/.cache by the hash of what it
 * is built from; STUDIO_NO_CACHE=1 builds it afresh (and keeps the result for later builds).
 */
export function startClientAssets(key = bundleKey()): Bundling {
  const cached = !cachesOff() && readCached(key);
  if (cached) return { assets: Promise.resolve(cached), ready: cached, cancel: () => {} };
  let cancelled = false;
  let stop = () => {};
  const assets = (async () => {
    const esbuild = await import('esbuild');
    const root = cacheFolder('client');
    const work = mkdtempSync(join(root, 'build-'));
    try {
      const context = await esbuild.context({
        absWorkingDir: PROJECT_ROOT,
        entryPoints: { 'entries/enquiry-form': fromRoot('templates/form/client.ts'), 'static/styles': fromRoot('templates/styles.css') },
        outdir: join(work, 'assets'),
        entryNames: '[dir]/[name].[hash]',
        chunkNames: 'chunks/[name].[hash]',
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'browser',
        target: TARGET,
        minify: true,
        legalComments: 'none',
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        metafile: true,
        write: false,
        logLevel: 'silent',
      });
      if (cancelled) {
        await context.dispose();
        throw new Error('cancelled');
      }
      stop = () => void context.cancel();
      const result = await context.rebuild().finally(() => context.dispose());
      checkInputs(Object.keys(result.metafile.inputs));
      const href: Record<string, string> = {};
      // Every script of the bundle is the form's: its first script, and the React part that one imports.
      const jsGzip = { static: 0, form: 0 };
      for (const file of result.outputFiles) {
        mkdirSync(dirname(file.path), { recursive: true });
        writeFileSync(file.path, file.contents);
        if (file.path.endsWith('.js')) jsGzip.form += gzipSync(file.contents).length;
      }
      for (const [path, output] of Object.entries(result.metafile.outputs))
        if (output.entryPoint) href[output.entryPoint] = `/${relative(work, join(PROJECT_ROOT, path)).split('\\').join('/')}`;
      const css = stylesheetTag(href['templates/styles.css']!);
      const inserts: ClientAssets['inserts'] = { static: { head: css, body: '' }, form: { head: css, body: scriptTag(href['templates/form/client.ts']!) } };
      writeFileSync(join(work, 'inserts.json'), JSON.stringify({ ...inserts, jsGzip }));
      const dir = join(root, key);
      // A complete bundle appears under its key in one rename, and is never replaced: another build
      // that finished the same bundle first keeps its own (same key, same bytes), even while read.
      try {
        renameSync(work, dir);
      } catch (error) {
        if (!existsSync(join(dir, 'inserts.json'))) throw error;
      }
      pruneOthers(key);
      return { dir, key, inserts, jsGzip, cached: false };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  })();
  assets.catch(() => {}); // a cancelled bundle is nobody's error
  return {
    assets,
    cancel: () => {
      cancelled = true;
      stop();
    },
  };
}

function readCached(key: string): ClientAssets | undefined {
  const dir = join(CACHE_DIR, 'client', key);
  try {
    const { jsGzip, ...inserts } = JSON.parse(readFileSync(join(dir, 'inserts.json'), 'utf8')) as ClientAssets['inserts'] & Pick<ClientAssets, 'jsGzip'>;
    return { dir, key, inserts, jsGzip, cached: true };
  } catch {
    return undefined;
  }
}

/** Only the newest few bundles are kept, and no half-built one of a process that was stopped. */
function pruneOthers(keep: string): void {
  const root = join(CACHE_DIR, 'client');
  const hourAgo = Date.now() - 3600_000;
  for (const n of readdirSync(root))
    if (n.startsWith('build-') && statSync(join(root, n)).mtimeMs < hourAgo) rmSync(join(root, n), { recursive: true, force: true });
  const others = readdirSync(root)
    .filter((n) => n !== keep && !n.startsWith('build-'))
    .map((n) => ({ path: join(root, n), mtime: statSync(join(root, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const o of others.slice(3)) rmSync(o.path, { recursive: true, force: true });
}
