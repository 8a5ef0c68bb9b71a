#!/usr/bin/env node
// The `content` command. The TypeScript sources run from an esbuild bundle, so a plain `content
// validate` starts in a fraction of the time a TypeScript loader needs. The bundle is part of the
// installed compiler, not a cache: it lives in node_modules/.studio-site-cli (a cold build deletes
// node_modules/.cache, not this), is built by `npm ci` (the `prepare` script runs `content --version`),
// and is rebuilt here (about half a second) whenever the sources are not the ones it was built from.
// It is one CommonJS script per entry, run through V8's code cache (cli/code-cache.js), so that a
// run deserialises the code its command calls instead of compiling it. Without esbuild it falls
// back to tsx's loader.
//
// The client bundle (the form's script and the stylesheet, cli/render/client-assets.ts) is an artifact
// of the same sources, so it lives beside the CLI bundle, in the same folder per version, and is
// built with it: node_modules/.studio-site-cli/<key>/cli/ and …/<key>/client/.
//
// "The sources" are what the hash of cli/, templates/, package.json and the lockfile says
// (cli/sources-key.js), not the files' times: a copy or checkout that keeps older times must not
// run the bundle of other sources. Hashing them all costs more than the rest of a small `validate`,
// so it is done only when their sizes, times or inodes changed since the last run (a file written
// in the last seconds counts as changed, as git does for its index: a time that fine may not tell
// two writes apart). The hash is also the compiler's salt for its caches (cli/cache/policy.ts),
// handed over instead of made again.
import { runBundle } from './code-cache.js';
import { artifactsDir, contentKey, sourceFiles, statsKey } from './sources-key.js';

// Node's own modules as objects, not imported: an ES module import of one makes a module of it
// first, about a millisecond each in a run whose whole start-up is a few dozen.
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');
const { dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const root = dirname(dirname(fileURLToPath(import.meta.url)));
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
 * commander, which every command loads (as a package, an ES module wrapping CommonJS, six files,
 * it costs more to find and load than the command line takes to parse), and i18next, which every
 * build loads (inside, its 90 KB are compiled from the bundle's code cache, not anew each run).
 * A package imported with import() (vike, esbuild…) is imported by cli/code-cache.js for the
 * bundle: a script compiled by node:vm has no import() of its own in Node 20 (not without an
 * experimental flag or warning).
 */
const INLINED = new Set(['commander', 'i18next']);
/** Not a package name (a colon), so found in the bundle only where the plugin put it. */
const HOST_IMPORT = 'studio-site:host-import:';
const packagesExceptInlined = {
  name: 'packages-except-inlined',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (INLINED.has(args.path)) return undefined;
      return { path: args.kind === 'dynamic-import' ? `${HOST_IMPORT}${args.path}` : args.path, external: true };
    });
  },
};

/**
 * commander requires node:child_process when it loads (a few ms: it brings node:net and node:dgram
 * with it), for commands that are programs of their own, which the CLI has none of: the module is
 * required when commander would spawn one instead. Should commander's line change, it is bundled as it is.
 */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const commanderChildProcessOnUse = {
  name: 'commander-child-process-on-use',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      if (!code.includes(COMMANDER_CHILD_PROCESS)) return undefined;
      const onUse = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: code.replace(COMMANDER_CHILD_PROCESS, onUse), loader: 'js' };
    });
  },
};

/** The bundle's import() of package X, marked by the plugin above, as a call of the host's: `__hostImport("X")`. */
const callHostImport = (code) => code.replaceAll(`import("${HOST_IMPORT}`, '__hostImport("');

/**
 * esbuild writes ASCII but for the characters of regular expressions (`/[€$]/`): those as \u escapes
 * too, which a regular expression reads as the same character (a pair of them as the same astral
 * one under the u flag); one escaped by an odd number of backslashes (`/\€/`) loses that escape,
 * which meant the character itself. An ASCII bundle is run as a one-byte string (cli/code-cache.js),
 * half the memory of a two-byte one, and without a pass of UTF-8 decoding.
 */
const asciiOnly = (code) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: every character past ASCII
  code.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, c) => `${slashes.slice(slashes.length % 2)}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The bundle's code as it is run (see the two above). */
function finishBundle(file) {
  writeFileSync(file, asciiOnly(callHostImport(readFileSync(file, 'utf8'))));
}

/**
 * The entry of a render worker thread (cli/render/entry.ts names it): an ES module that runs the
 * worker's bundle through its code cache, and writes that cache once the worker has rendered its
 * first batch (a worker is stopped, not left to finish).
 */
const WORKER_ENTRY = `import { parentPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { runBundle } from '../../../../cli/code-cache.js';
const { saveCodeCache } = runBundle(fileURLToPath(new URL('./render-worker.cjs', import.meta.url)), 'render');
parentPort.once('message', () => saveCodeCache());
`;

/**
 * Builds the bundle of sources `key` beside its folder, then moves it in whole; keeps the newest few
 * versions. One CommonJS file per entry, not ES modules split in chunks: V8 keeps a code cache of a
 * script, not of a module, in Node 20 (cli/code-cache.js). What a command does not need is still
 * not run: esbuild wraps each module that is imported with import() in a function called on import.
 */
async function build(key) {
  const { build } = await import('esbuild');
  mkdirSync(artifactsDir(root, key), { recursive: true });
  const tmp = `${bundleDir(key)}.${process.pid}.tmp`;
  await build({
    entryPoints: {
      main: join(root, 'cli', 'main.ts'),
      'render-worker': join(root, 'cli', 'build-worker.ts'),
    },
    outdir: tmp,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    plugins: [packagesExceptInlined, commanderChildProcessOnUse],
    // The sources find the project, and the worker's entry, from their own URL: the bundle's.
    define: { 'import.meta.url': '__import_meta_url' },
    banner: { js: "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    logLevel: 'silent',
  });
  for (const name of ['main.cjs', 'render-worker.cjs']) finishBundle(join(tmp, name));
  writeFileSync(join(tmp, 'render-worker.js'), WORKER_ENTRY);
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

/** The code cache a run of `argv` uses: one per command, since each calls other functions. */
const cacheName = (argv) => (/^[a-z][a-z0-9-]*$/.test(argv[0] ?? '') ? argv[0] : 'main');

/** The CLI's module, and what to call once it has run successfully. */
async function loadMain(argv) {
  if (process.env.STUDIO_NO_BUNDLE !== '1') {
    try {
      const { key, built } = await bundle();
      globalThis[Symbol.for('studio-site.sources-key')] = key;
      const { exports: cli, saveCodeCache } = runBundle(entry(key), cacheName(argv));
      if (built) await prepareClient(cli);
      return { cli, saveCodeCache };
    } catch {
      // Fall through to the loader below.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return { cli: await import('./main.ts'), saveCodeCache: () => {} };
}

// A reader that stops early (`content validate | head`) closes the pipe: that is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

const argv = process.argv.slice(2);
const { cli, saveCodeCache } = await loadMain(argv);
process.exitCode = await cli.main(argv);
// A run that failed may have called little of what the command usually does.
if (process.exitCode === 0) saveCodeCache();
// Once all that was written is out (a write's callback comes when the stream has handed it on,
// to a pipe as to a file), the process ends at once: nothing is left to run (a command that
// starts work to outlive it detaches it), and tearing down the heap of a build of 15,000 pages
// by the usual way out takes a quarter of a second.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((flushed) => stream.write('', flushed))));
process.exit();
