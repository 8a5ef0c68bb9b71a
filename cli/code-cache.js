// Runs the CLI bundle (CommonJS, one file) with V8's code cache. Most of a short run is code that V8
// compiles on first call; the code cache holds the compiled code of every function a run of that
// command called, so the next run deserialises it instead of compiling. Node 20 caches no module
// (module.enableCompileCache came in Node 22): the bundle is compiled through node:vm's Script, whose
// `cachedData` and `createCachedData()` are the public API for it. STUDIO_NO_CODE_CACHE=1 runs the
// same bundle with a plain `require` (tests/build/code-cache.test.ts compares the two).
//
// A cache file per command (`validate`, `build`…: each calls other functions), beside the bundle in
// node_modules/.studio-site-cli/<key>/cli/, made by the first run that used it and succeeded, and
// moved in whole. V8 checks its version and flags itself, but of the source only the length, and the
// payload not at all (a damaged one can crash the process): a file whose checksum of bundle and
// payload does not match (another bundle's, cut short, damaged) is not given to V8, and is made again
// after the run.
// Plain JavaScript, as cli/sources-key.js, because cli/bin.js needs it before any TypeScript can run.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

const MAGIC = Buffer.from('studio-site code cache 2\n');
const HEADER = MAGIC.length + 4;

/** The checksum of the bundle's bytes followed by the cache's. */
const checksum = (source, payload) => crc32(payload, crc32(source));

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
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(checksum(source, payload));
    writeFileSync(tmp, Buffer.concat([MAGIC, sum, payload]));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * Loads CommonJS bundle `file` as `require` would, compiled from the code cache of `command` kept
 * beside it when that is good. `saveCodeCache()`, called once the command has run well, writes the
 * cache if there was none to use. The bundle has no `import()` (cli/bin.js builds it so): a script
 * compiled by node:vm has none in Node 20 without an experimental flag.
 * @param {string} file
 * @param {string} command
 * @returns {{ exports: any, saveCodeCache: () => void }}
 */
export function requireWithCodeCache(file, command) {
  if (process.env.STUDIO_NO_CODE_CACHE === '1') return { exports: createRequire(file)(file), saveCodeCache: () => {} };
  const cacheFile = `${file.replace(/\.c?js$/, '')}.${command}.v8`;
  const source = readFileSync(file);
  const cachedData = readCodeCache(cacheFile, source);
  // Wrapped as Node wraps a CommonJS module.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  const used = cachedData !== undefined && !script.cachedDataRejected;
  return { exports: module.exports, saveCodeCache: used ? () => {} : () => writeCodeCache(cacheFile, source, script.createCachedData()) };
}
