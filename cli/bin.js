#!/usr/bin/env node
// The `content` command. The TypeScript sources run from an esbuild bundle, so a plain `content
// validate` starts in a fraction of the time a TypeScript loader needs. The bundle is part of the
// installed compiler, not a cache: it lives in node_modules/.studio-site-cli (a cold build deletes
// node_modules/.cache, not this), is built by `npm ci` (the `prepare` script runs `content --version`),
// and is rebuilt here (about half a second) whenever the sources are not the ones it was built from.
// Without esbuild it falls back to tsx's loader.
//
// "The sources" are what the hash of cli/, templates/, package.json and the lockfile says, not the
// files' times: a copy or checkout that keeps older times must not run the bundle of other sources.
// Hashing them all costs more than the rest of a small `validate`, so it is done only when their
// sizes, times or inodes changed since the last run (a file written in the last seconds counts as
// changed, as git does for its index: a time that fine may not tell two writes apart). The hash is
// also the compiler's salt for its caches (cli/cache/policy.ts), handed over instead of made again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const home = join(root, 'node_modules', '.studio-site-cli');
const stampFile = join(home, 'sources.json');
/** One folder per version of the sources, so a run never sees a bundle half written by another. */
const bundleDir = (key) => join(home, key.slice(0, 16));
const entry = (key) => join(bundleDir(key), 'main.js');
/** A file changed less than this long ago may change again within the same time stamp. */
const RACY_MS = 3000;

/** The files the sources key covers, relative to the root, sorted. */
function sourceFiles() {
  const files = [];
  for (const folder of ['cli', 'templates'])
    for (const e of readdirSync(join(root, folder), { recursive: true, withFileTypes: true }))
      if (e.isFile())
        files.push(
          join(e.parentPath, e.name)
            .slice(root.length + 1)
            .split('\\')
            .join('/'),
        );
  const lock = ['package-lock.json', 'node_modules/.package-lock.json'].find((f) => existsSync(join(root, f)));
  return [...files.sort(), 'package.json', ...(lock ? [lock] : [])];
}

/** What the files are, by their metadata; undefined while one of them may still be being written. */
function statsKey(files) {
  const hash = createHash('sha256');
  const settled = Date.now() - RACY_MS;
  for (const file of files) {
    const s = statSync(join(root, file));
    if (s.mtimeMs > settled || s.ctimeMs > settled) return undefined;
    hash.update(`${file}\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\0${s.ino}\0`);
  }
  return hash.digest('hex');
}

/** What the files are, by their contents. */
function contentKey(files) {
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

const readStamp = () => {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return {};
  }
};

/** Makes the bundle match the sources (building it if it does not); returns the sources key. */
async function bundle() {
  const files = sourceFiles();
  const stamp = readStamp();
  const stats = statsKey(files);
  if (stats && stats === stamp.stats && existsSync(entry(stamp.key))) return stamp.key;
  const key = contentKey(files);
  if (!existsSync(entry(key))) await build(key);
  const tmp = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ key, stats }));
  renameSync(tmp, stampFile);
  return key;
}

/** Builds the bundle of sources `key` beside its folder, then moves it in whole; keeps the newest few versions. */
async function build(key) {
  const { build } = await import('esbuild');
  const tmp = `${bundleDir(key)}.${process.pid}.tmp`;
  await build({
    entryPoints: {
      main: join(root, 'cli', 'main.ts'),
      'render-worker': join(root, 'cli', 'render', 'render-worker.ts'),
    },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
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

async function loadMain() {
  if (process.env.STUDIO_NO_BUNDLE !== '1') {
    try {
      const key = await bundle();
      globalThis[Symbol.for('studio-site.sources-key')] = key;
      return await import(pathToFileURL(entry(key)).href);
    } catch {
      // Fall through to the loader below.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

// A reader that stops early (`content validate | head`) closes the pipe: that is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

const { main } = await loadMain();
process.exitCode = await main(process.argv.slice(2));
// Once all that was written is out (a write's callback comes when the stream has handed it on,
// to a pipe as to a file), the process ends at once: nothing is left to run (a command that
// starts work to outlive it detaches it), and tearing down the heap of a build of 15,000 pages
// by the usual way out takes a quarter of a second.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((flushed) => stream.write('', flushed))));
process.exit();
