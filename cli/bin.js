#!/usr/bin/env node
// The `content` command. The TypeScript sources run from an esbuild bundle: a `content validate` of
// the shipped content takes about a quarter of the time it takes through tsx's loader (measured with
// each run of the command as a whole, issue #28). The bundle is part of the installed compiler, not a
// cache: it lives in node_modules/.studio-site-cli (a cold build deletes node_modules/.cache, not
// this), is built by `npm ci` (the `prepare` script runs `content --version`), and is rebuilt here
// (about half a second) whenever the sources are not the ones it was built from. Without esbuild, or
// with STUDIO_NO_BUNDLE=1, the sources run through tsx's loader: the same program.
//
// The client bundle (the form's script and the stylesheet, cli/render/client-assets.ts) is an artifact
// of the same sources, so it lives beside the CLI bundle, in the same folder per version, and is
// built with it: node_modules/.studio-site-cli/<key>/cli/ and …/<key>/client/.
//
// "The sources" are what the hash of cli/, templates/, package.json and the lockfile says
// (cli/sources-key.js), not the files' times: a copy or checkout that keeps older times must not
// run the bundle of other sources. The hash is made only when their sizes, times or inodes changed
// since the last run (a file written in the last seconds counts as changed, as git does for its
// index: a time that fine may not tell two writes apart).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { artifactsDir, contentKey, sourceFiles, statsKey } from './sources-key.js';

const root = dirname(import.meta.dirname);
const home = join(root, 'node_modules', '.studio-site-cli');
const stampFile = join(home, 'sources.json');
const bundleDir = (key) => join(artifactsDir(root, key), 'cli');
const entry = (key) => join(bundleDir(key), 'main.cjs');

const readStamp = () => {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return {};
  }
};

/** Makes the bundle match the sources (building it if it does not); returns the sources key, and whether this run built it. */
async function bundle() {
  const files = sourceFiles(root);
  const stamp = readStamp();
  const stats = statsKey(root, files);
  if (stats && stats === stamp.stats && existsSync(entry(stamp.key))) return { key: stamp.key, built: false };
  const key = contentKey(root, files);
  const built = !existsSync(entry(key));
  if (built) await build(key);
  const tmp = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ key, stats }));
  renameSync(tmp, stampFile);
  return { key, built };
}

/**
 * Packages stay outside the bundle, loaded from node_modules when a command needs them, except
 * commander, which every command loads, and i18next, which every build loads: inside, they are
 * read with the rest of the bundle instead of found and loaded file by file.
 */
const INLINED = new Set(['commander', 'i18next']);
const packagesExceptInlined = {
  name: 'packages-except-inlined',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (INLINED.has(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Builds the bundle of sources `key` beside its folder, then moves it in whole; keeps the newest few
 * versions. One CommonJS file per entry: the CLI (main.cjs) and the worker threads that make pages
 * and draw share cards (render-worker.cjs, card-worker.cjs, which cli/paths.ts's workerEntry names). What a command does not need is still not
 * run: esbuild wraps each module that is imported with import() in a function called on import.
 */
async function build(key) {
  const { build } = await import('esbuild');
  mkdirSync(artifactsDir(root, key), { recursive: true });
  const tmp = `${bundleDir(key)}.${process.pid}.tmp`;
  await build({
    entryPoints: {
      main: join(root, 'cli', 'main.ts'),
      'render-worker': join(root, 'cli', 'build-worker.ts'),
      'card-worker': join(root, 'cli', 'images', 'card-worker.ts'),
    },
    outdir: tmp,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node24',
    plugins: [packagesExceptInlined],
    // The sources find the project, and the worker's entry, from their own place: the bundle's.
    define: { 'import.meta.url': '__import_meta_url', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
    banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    logLevel: 'silent',
  });
  try {
    renameSync(tmp, bundleDir(key));
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another run moved the same bundle in first
  }
  // A running `content dev` may still load chunks of the version it started with.
  const versions = readdirSync(home, { withFileTypes: true }).filter((e) => e.isDirectory());
  const newest = versions.map((e) => [e.name, statSync(join(home, e.name)).mtimeMs]).sort((a, b) => b[1] - a[1]);
  for (const [name] of newest.slice(5)) rmSync(join(home, name), { recursive: true, force: true });
}

/**
 * A new version of the compiler gets its client bundle now (at `npm ci`, or in the first run after
 * a change), so that no site build waits for it. A failure is left to the build that needs the
 * bundle: it builds it again and reports what went wrong.
 */
async function prepareClient(cli) {
  try {
    await cli.prepareClientBundle();
  } catch {
    // See above.
  }
}

/** The CLI's module (cli/main.ts): from the bundle, or else through tsx. */
async function loadMain() {
  if (process.env.STUDIO_NO_BUNDLE !== '1') {
    try {
      const { key, built } = await bundle();
      // V8's compiled code of the bundle and the packages it loads, kept with this version of the
      // bundle (and removed with it): a command no longer compiles a megabyte of JavaScript each time
      // it starts. Where the folder cannot be written (a service user's read-only install), Node goes
      // on without it.
      enableCompileCache(join(artifactsDir(root, key), 'compile-cache'));
      const cli = createRequire(import.meta.url)(entry(key));
      cli.takeSourcesKey(key); // the caches' salt is this key: not hashed again (cli/cache/policy.ts)
      if (built) await prepareClient(cli);
      return cli;
    } catch {
      // Fall through to the loader below.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return await import('./main.ts');
}

// A reader that stops early (`content validate | head`) closes the pipe: that is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

const cli = await loadMain();
try {
  await cli.prepareValidators(); // compiled from the zod shapes of these sources, once per version of them
} catch {
  // A run that validates installs them again (cli/validate/validators.ts) and reports what went wrong.
}
process.exitCode = await cli.main(process.argv.slice(2));
