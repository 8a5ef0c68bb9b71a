import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCodeCache, writeCodeCache } from '../../cli/code-cache.js';
import { artifactsDir, contentKey } from '../../cli/sources-key.js';
import { CONTENT, contentCopy, copyCompiler, FIXTURE, runCopiedCli } from '../helpers/cli.ts';

// The CLI bundle runs through V8's code cache (cli/code-cache.js): a cache file per command, beside
// the bundle. A run with it prints what a run without it (STUDIO_NO_CODE_CACHE=1: a plain require of
// the same bundle) prints. V8 checks of the source only its length, and of the payload nothing: a
// cache made from another bundle of the same length, or damaged, would be run as if it were this
// bundle's code. These tests give the compiler such caches and ask for the output of a clean run.
// They work on a copy of the compiler (as tests/build/client-bundle.test.ts), whose installed bundle
// and caches are its own. Last, the render workers, from the bundle and from the TypeScript sources.

const project = mkdtempSync(join(tmpdir(), 'studio-code-cache-'));
const content = (args: string[], env: Record<string, string> = {}) => runCopiedCli(project, args, env);
/** Validation of the shipped content with every file checked against its schema (so the validators are loaded). */
const validate = () => content(['validate', '--today', '2026-11-22', '--content', CONTENT], { STUDIO_NO_CACHE: '1' });

const bundleDir = () => join(artifactsDir(project, contentKey(project)), 'cli');
const bundle = () => join(bundleDir(), 'main.cjs');
const cacheOf = (name: string) => join(bundleDir(), `${name}.v8`);
const goodCache = (name: string, source: string) => readCodeCache(cacheOf(name), readFileSync(source)) !== undefined;

let clean: string;
beforeAll(async () => {
  copyCompiler(project);
  const prepared = await content(['--version']); // what `npm ci` runs (the `prepare` script)
  expect(prepared.code, prepared.out).toBe(0);
  const first = await validate();
  expect(first.code, first.out).toBe(0);
  clean = first.out.replace(/in \d+ ms/, 'in N ms');
}, 240_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the code cache file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-code-cache-unit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const source = Buffer.from('exports.answer = 42;\n');
  const payload = Buffer.from('compiled code, as V8 would give it');

  it('gives back what was written for the same source', () => {
    writeCodeCache(join(dir, 'a.v8'), source, payload);
    expect(readCodeCache(join(dir, 'a.v8'), source)).toEqual(payload);
    expect(readdirSync(dir)).toEqual(['a.v8']); // nothing left of the write
  });

  it('gives nothing for another source, a damaged or cut file, another format, or none', () => {
    writeCodeCache(join(dir, 'b.v8'), source, payload);
    const written = readFileSync(join(dir, 'b.v8'));
    expect(readCodeCache(join(dir, 'b.v8'), Buffer.from('exports.answer = 43;\n'))).toBeUndefined();
    const damaged = Buffer.from(written);
    damaged[damaged.length - 3]! ^= 0x20;
    writeFileSync(join(dir, 'c.v8'), damaged);
    expect(readCodeCache(join(dir, 'c.v8'), source)).toBeUndefined();
    writeFileSync(join(dir, 'd.v8'), written.subarray(0, written.length - 1));
    expect(readCodeCache(join(dir, 'd.v8'), source)).toBeUndefined();
    writeFileSync(join(dir, 'e.v8'), payload);
    expect(readCodeCache(join(dir, 'e.v8'), source)).toBeUndefined();
    expect(readCodeCache(join(dir, 'missing.v8'), source)).toBeUndefined();
  });
});

describe('the code cache of the installed CLI', () => {
  it('is made beside the bundle by the first run of a command, and then used, not made again', async () => {
    expect(goodCache('main.validate', bundle())).toBe(true);
    const made = statSync(cacheOf('main.validate')).mtimeMs;
    const again = await validate();
    expect(again.code, again.out).toBe(0);
    expect(statSync(cacheOf('main.validate')).mtimeMs).toBe(made);
  }, 120_000);

  it('changes nothing a run prints: the same as a plain require of the bundle (STUDIO_NO_CODE_CACHE=1)', async () => {
    const broken = contentCopy({ 'courses/vocal.yaml': readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8').replace(/^goal:\n(?: {2}.*\n)+/m, '') });
    try {
      for (const args of [
        ['validate', '--today', '2026-11-22', '--content', broken.dir, '--format', 'json'],
        ['validate', '--today', '2026-11-22', '--content', broken.dir],
        ['i18n', '--content', FIXTURE],
      ]) {
        await content(args, { STUDIO_NO_CACHE: '1' }); // makes the command's code cache, if none was made yet
        const cached = await content(args, { STUDIO_NO_CACHE: '1' });
        const plain = await content(args, { STUDIO_NO_CACHE: '1', STUDIO_NO_CODE_CACHE: '1' });
        expect(cached.code, cached.out).toBe(plain.code);
        expect(cached.out.replace(/in \d+ ms/, 'in N ms')).toBe(plain.out.replace(/in \d+ ms/, 'in N ms'));
      }
      expect(goodCache('main.validate', bundle())).toBe(true);
      expect(goodCache('main.i18n', bundle())).toBe(true);
    } finally {
      broken.cleanup();
    }
  }, 120_000);

  it('is not used when it was made from another bundle of the same length (V8 would run that code), and is made again', async () => {
    // A twin of the bundle, one message changed, run in its own process to make its cache.
    const twin = join(bundleDir(), 'twin.cjs');
    const text = readFileSync(bundle(), 'utf8');
    expect(text).toContain('No errors');
    writeFileSync(twin, text.replace('No errors', 'NO ERRORS'));
    const script = `import { requireWithCodeCache } from ${JSON.stringify(join(project, 'cli', 'code-cache.js'))};
      const { exports, saveCodeCache } = requireWithCodeCache(${JSON.stringify(twin)}, 'validate');
      process.exitCode = await exports.main(['validate', '--quiet', '--content', ${JSON.stringify(CONTENT)}]);
      saveCodeCache();`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, STUDIO_NO_CACHE: '1' } }).toString();
    expect(out).toContain('NO ERRORS');
    // Its cache, whole and as that bundle wrote it, put where this bundle's is.
    writeFileSync(cacheOf('main.validate'), readFileSync(cacheOf('twin.validate')));
    rmSync(twin);
    const r = await validate();
    expect(r.code, r.out).toBe(0);
    expect(r.out.replace(/in \d+ ms/, 'in N ms')).toBe(clean);
    expect(goodCache('main.validate', bundle())).toBe(true);
  }, 120_000);

  it('is not used when it is damaged or cut short, and is made again', async () => {
    const data = readFileSync(cacheOf('main.validate'));
    for (let i = data.length >> 1; i < data.length; i += 997) data[i]! ^= 0xff;
    writeFileSync(cacheOf('main.validate'), data);
    const damaged = await validate();
    expect(damaged.code, damaged.out).toBe(0);
    expect(damaged.out.replace(/in \d+ ms/, 'in N ms')).toBe(clean);
    expect(goodCache('main.validate', bundle())).toBe(true);

    writeFileSync(cacheOf('main.validate'), readFileSync(cacheOf('main.validate')).subarray(0, 1000));
    const cut = await validate();
    expect(cut.out.replace(/in \d+ ms/, 'in N ms')).toBe(clean);
    expect(goodCache('main.validate', bundle())).toBe(true);
  }, 120_000);
});

describe('the render workers', () => {
  const sites = join(project, 'sites');
  const build = async (name: string, env: Record<string, string>) => {
    const r = await content(['build', '--today', '2026-11-22', '--quiet', '--content', FIXTURE, '--out', join(sites, name)], {
      STUDIO_NO_CACHE: '1',
      ...env,
    });
    expect(r.code, r.out).toBe(0);
    return join(sites, name);
  };
  /** Every page of `site` is byte for byte the page of `reference`, and neither has one the other lacks. */
  const samePages = (site: string, reference: string) => {
    const pages = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.html'))
        .sort();
    expect(pages(site)).toEqual(pages(reference));
    expect(pages(site).length).toBeGreaterThan(50);
    for (const page of pages(site)) expect(readFileSync(join(site, page), 'utf8'), page).toBe(readFileSync(join(reference, page), 'utf8'));
  };
  let inThread: string;
  beforeAll(async () => {
    mkdirSync(sites);
    inThread = await build('thread', {});
  }, 120_000);

  it('of the bundle render the pages this thread renders', async () => {
    samePages(await build('workers', { STUDIO_RENDER_WORKERS_FROM: '1' }), inThread);
    expect(existsSync(cacheOf('main.build'))).toBe(true);
  }, 120_000);

  it('run from the TypeScript sources too (STUDIO_NO_BUNDLE=1: tsx), with the same pages', async () => {
    samePages(await build('tsx-workers', { STUDIO_RENDER_WORKERS_FROM: '1', STUDIO_NO_BUNDLE: '1' }), inThread);
  }, 120_000);
});
