import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BuildOptions, BuildResult, Metafile } from 'esbuild';
import { compilerSalt } from '../cache/policy.ts';
import { fromRoot, PROJECT_ROOT } from '../paths.ts';
import { InternalError } from '../report/problem.ts';
import { artifactsDir } from '../sources-key.js';

/** What a page of each group gets besides its own HTML: the stylesheet after `<head>`, the form's script before `</body>`. */
export interface Inserts {
  head: string;
  body: string;
}

export interface ClientAssets {
  /** A directory holding `assets/…`, as the site serves them. */
  dir: string;
  inserts: { static: Inserts; form: Inserts };
  /** The stylesheet every page links to, as the site serves it (the server's own pages link to it too). */
  stylesheet: string;
  /** The hash of everything the bundle is built from (`bundleKey`). */
  key: string;
  /** Gzipped bytes of the JavaScript a page of each group loads (its script and what that imports). */
  jsGzip: { static: number; form: number };
  /** Whether this run built them (they were not installed yet). */
  built: boolean;
}

/**
 * The key of the client bundle: the sources key (cli/sources-key.js), the key of the CLI bundle
 * too, which covers every file the bundle can be built from, no list kept by hand: the templates,
 * this file's options, and through the lockfile the packages in node_modules. Each build checks
 * that claim against esbuild's own list of the files it read (`checkInputs`).
 */
export function bundleKey(): string {
  return compilerSalt();
}

/** Where the client bundle of sources `key` is installed: beside the CLI bundle of the same sources (cli/bin.js). */
const installedDir = (key: string) => join(artifactsDir(PROJECT_ROOT, key), 'client');

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

/** The stylesheet in the page (`</style` cannot occur in esbuild's minified CSS but in a string, which ours has none of). */
const styleTag = (css: string) => {
  if (/<\/style/i.test(css)) throw new InternalError('the stylesheet contains "</style", which would end its <style> element');
  return `<style>${css}</style>`;
};
/** The script tag as Vike writes it, so a page has the same elements whichever bundler built its assets. */
const scriptTag = (src: string) => `<script src="${src}" type="module" async></script>`;

/** A client bundle under way (esbuild works in a process of its own, beside validation). */
export interface Bundling {
  assets: Promise<ClientAssets>;
  /** The assets at once, when they are installed already. */
  ready?: ClientAssets;
  /** Stops it (a build whose content has errors needs no bundle). */
  cancel(): void;
}

/**
 * The client bundle: the stylesheet, and for pages with the enquiry form its first script
 * (templates/form/client.ts), which loads the React part (island.tsx) on demand. Built with
 * esbuild straight from the templates, with the compiler's own folder as the root (never the
 * working directory); Vike builds the same sources for `--renderer vike`, and a browser test
 * checks both bundles behave the same.
 *
 * Not a cache but part of the installed compiler, like the CLI bundle: cli/bin.js builds it with
 * that one (at `npm ci`, or after a change of the sources), so a site build, cold or not, only
 * reads it. It is built here when it is missing (a folder deleted, a run through tsx after a
 * change); STUDIO_NO_CACHE=1 does not rebuild it, as it does not rebuild the CLI bundle.
 */
export function startClientAssets(key = bundleKey()): Bundling {
  const ready = readInstalled(key);
  if (ready) return { assets: Promise.resolve(ready), ready, cancel: () => {} };
  let cancelled = false;
  let stop = () => {};
  const assets = (async () => {
    const esbuild = await import('esbuild');
    const context = await esbuild.context(buildOptions());
    if (cancelled) {
      await context.dispose();
      throw new Error('cancelled');
    }
    stop = () => void context.cancel();
    const result = await context.rebuild().finally(() => context.dispose());
    checkInputs(Object.keys(result.metafile.inputs));
    return install(key, result);
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

/** What esbuild is asked to build (written nowhere: `install` writes the result). */
function buildOptions() {
  return {
    absWorkingDir: PROJECT_ROOT,
    entryPoints: { 'entries/enquiry-form': fromRoot('templates/form/client.ts'), 'static/styles': fromRoot('templates/styles.css') },
    outdir: fromRoot(OUTDIR),
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
  } satisfies BuildOptions;
}

/** Where esbuild's output paths point (nothing is written there): `assets/…` below it is what the site serves. */
const OUTDIR = 'client-bundle/assets';

/**
 * Writes the bundle into a folder of its own, then moves it in under its key in one rename. A
 * complete bundle is never replaced: another run that installed the same bundle first (same key,
 * same bytes) keeps its own, even while it is read.
 */
function install(key: string, result: BuildResult<{ metafile: true; write: false }>): ClientAssets {
  const dir = installedDir(key);
  const version = dirname(dir);
  mkdirSync(version, { recursive: true });
  removeLeftovers(version);
  // Not mkdtemp, whose folder is the installing user's alone (0700): the server's own user, which
  // reads the compiler another user installed (docs/deploy.md), would find no bundle and try to build one.
  const work = join(version, `${TEMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(work);
  try {
    const jsGzip = { static: 0, form: 0 };
    // Every script of the bundle is the form's: its first script, and the React part that one imports.
    for (const file of result.outputFiles) {
      const path = join(work, 'assets', relative(fromRoot(OUTDIR), file.path));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.contents);
      if (file.path.endsWith('.js')) jsGzip.form += gzipSync(file.contents).length;
    }
    const css = result.outputFiles.find((f) => f.path.endsWith('.css'))!.text.trim();
    const { inserts, stylesheet } = insertsOf(result.metafile, css);
    writeFileSync(join(work, 'inserts.json'), JSON.stringify({ inserts, stylesheet, jsGzip }));
    try {
      renameSync(work, dir);
    } catch (error) {
      if (!existsSync(join(dir, 'inserts.json'))) throw error;
    }
    return { dir, key, inserts, stylesheet, jsGzip, built: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The tags each group of pages gets: the stylesheet itself in a <style> (7 KB, 2.6 KB compressed:
 * a request of its own cost a slow connection a round trip of white screen before the first
 * paint), and the form's script by the path the site serves it at. The stylesheet's file stays
 * for the server's own pages (cli/serve/http/answer.ts).
 */
function insertsOf(metafile: Metafile, css: string): Pick<ClientAssets, 'inserts' | 'stylesheet'> {
  const href: Record<string, string> = {};
  for (const [path, output] of Object.entries(metafile.outputs))
    if (output.entryPoint) href[output.entryPoint] = `/assets/${relative(fromRoot(OUTDIR), join(PROJECT_ROOT, path)).split('\\').join('/')}`;
  const stylesheet = href['templates/styles.css']!;
  const style = styleTag(css);
  return { inserts: { static: { head: style, body: '' }, form: { head: style, body: scriptTag(href['templates/form/client.ts']!) } }, stylesheet };
}

function readInstalled(key: string): ClientAssets | undefined {
  const dir = installedDir(key);
  try {
    const { inserts, stylesheet, jsGzip } = JSON.parse(readFileSync(join(dir, 'inserts.json'), 'utf8')) as Pick<
      ClientAssets,
      'inserts' | 'stylesheet' | 'jsGzip'
    >;
    return { dir, key, inserts, stylesheet, jsGzip, built: false };
  } catch {
    return undefined;
  }
}

/** The folders a build writes into before its rename: a process stopped meanwhile leaves its own. */
const TEMP_PREFIX = 'client-build-';

/** Leftovers of builds stopped more than an hour ago (a younger one may still be under way). */
function removeLeftovers(version: string): void {
  const hourAgo = Date.now() - 3600_000;
  for (const n of readdirSync(version))
    if (n.startsWith(TEMP_PREFIX) && statSync(join(version, n)).mtimeMs < hourAgo) rmSync(join(version, n), { recursive: true, force: true });
}
