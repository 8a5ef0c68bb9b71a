// Runs the CLI bundle (CommonJS, one file) with V8's code cache. Most of a short run is code that V8
// compiles on first call and runs before it is optimised; the code cache holds the compiled code of
// every function a run of that command called, so the next run deserialises it instead of
// compiling. Node 20 caches no ES module (module.enableCompileCache came in Node 22), hence a
// CommonJS bundle compiled through vm.Script.
//
// A cache file per command (`validate`, `build`…: each calls other functions), and one for the
// compiled schema validators (400 KB of code, loaded by every run that checks a file), beside the
// bundle in node_modules/.studio-site-cli/<key>/cli/, made by the first run that used it and
// succeeded, and moved in whole. It is a part of the installed compiler, not of node_modules/.cache,
// which a cold build deletes. V8 checks its version and flags itself, but of the source only the
// length, and the payload not at all (a damaged one can crash the process): a file whose checksum of
// bundle and payload does not match (another bundle's, cut short, damaged) is not given to V8, and
// is made again after the run.
// Plain JavaScript, as cli/sources-key.js, because cli/bin.js needs it before any TypeScript can run.

// Node's modules as objects, not imported: see cli/bin.js.
const { readFileSync, renameSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');
const vm = process.getBuiltinModule('node:vm');
const { isAscii } = process.getBuiltinModule('node:buffer');

const MAGIC = Buffer.from('studio-site code cache 1\n');
const HEADER = MAGIC.length + 4;

/** The checksum of the bundle's bytes followed by the cache's. */
function checksum(source, payload) {
  const { crc32 } = process.getBuiltinModule('node:zlib');
  return crc32(payload, crc32(source));
}

/**
 * The code cache in `file` if it was made from `source`; undefined when it is missing, damaged or
 * another bundle's.
 * @param {string} file
 * @param {Buffer} source
 * @returns {Buffer | undefined}
 */
export function readCodeCache(file, source) {
  let data;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  if (data.length <= HEADER || !data.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const payload = data.subarray(HEADER);
  return data.readUInt32LE(MAGIC.length) === checksum(source, payload) ? payload : undefined;
}

/**
 * Writes the code cache of `source` to `file`, through a file of its own moved in whole (several
 * runs may write it at once). A failure costs the next run the compile, nothing else.
 * @param {string} file
 * @param {Buffer} source
 * @param {Buffer} payload
 */
export function writeCodeCache(file, source, payload) {
  // The render workers of one process write theirs at about the same time: the thread in the name too.
  const { threadId } = process.getBuiltinModule('node:worker_threads');
  const tmp = `${file}.${process.pid}.${threadId}.tmp`;
  try {
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(checksum(source, payload));
    writeFileSync(tmp, Buffer.concat([MAGIC, sum, payload]));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

const WRAPPER_HEAD = Buffer.from('(function (exports, require, module, __filename, __dirname, __hostImport) {');
const WRAPPER_TAIL = Buffer.from('\n})');

/** import() for the bundle, which cli/bin.js builds to call this instead (see there why). */
const hostImport = (specifier) => import(specifier);

// Made outside runCommonJs, so that a run whose cache was used keeps no hold on the bytes it read
// (a function made in a scope holds on to all that scope's captured variables).
const nothingToSave = () => {};
const saver = (cacheFile, source, script) => () => writeCodeCache(cacheFile, source, script.createCachedData());

/**
 * Runs CommonJS file `file` as Node would `require` it, compiled from the code cache in `cacheFile`
 * when that is good. `saveCodeCache()`, called once the code has run, writes the cache if there was
 * none to use.
 * @param {string} file
 * @param {string} cacheFile
 * @returns {{ exports: any, saveCodeCache: () => void }}
 */
function runCommonJs(file, cacheFile) {
  const source = readFileSync(file);
  const cachedData = readCodeCache(cacheFile, source);
  // One flat string, wrapped as Node wraps a CommonJS module (V8 would flatten a joined one into a
  // second copy); esbuild writes ASCII, decoded as such, without a pass of UTF-8 decoding.
  const wrapped = Buffer.concat([WRAPPER_HEAD, source, WRAPPER_TAIL]);
  const script = new vm.Script(wrapped.toString(isAscii(source) ? 'latin1' : 'utf8'), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), hostImport);
  const used = cachedData !== undefined && script.cachedDataRejected === false;
  return { exports: module.exports, saveCodeCache: used ? nothingToSave : saver(cacheFile, source, script) };
}

/**
 * Runs the CLI bundle `file` (cli/bin.js builds it) with the code cache of `command`, kept beside it.
 * @param {string} file
 * @param {string} command
 */
export const runBundle = (file, command) => runCommonJs(file, `${file.replace(/\.c?js$/, '')}.${command}.v8`);

/**
 * `require(file)` of a large CommonJS module the CLI ships (the compiled schema validators), with a
 * code cache named `name` beside the CLI bundle, written when the process ends well. Run from the
 * TypeScript sources (no bundle), a plain require.
 * @param {string} file
 * @param {string} name
 */
export function requireWithCodeCache(file, name) {
  const self = fileURLToPath(import.meta.url);
  if (!self.endsWith('.cjs')) return createRequire(file)(file);
  const { exports, saveCodeCache } = runCommonJs(file, join(dirname(self), `${name}.v8`));
  process.once('exit', (code) => code === 0 && saveCodeCache());
  return exports;
}
