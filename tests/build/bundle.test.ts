import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, contentKey } from '../../cli/sources-key.js';
import { contentCopy, copyCompiler, FIXTURE, runCopiedCli } from '../helpers/cli.ts';

// `content` runs the CLI from an esbuild bundle (cli/bin.js); STUDIO_NO_BUNDLE=1 runs the same
// sources through tsx's loader instead, the reference: both must print the same and write the same
// pages, the render worker threads included. On a copy of the compiler (as
// tests/build/client-bundle.test.ts), whose installed bundle is its own.

const project = mkdtempSync(join(tmpdir(), 'studio-bundle-'));
const content = (args: string[], env: Record<string, string> = {}) => runCopiedCli(project, args, { STUDIO_NO_CACHE: '1', ...env });
const bundleDir = () => join(artifactsDir(project, contentKey(project)), 'cli');
const sameTimes = (out: string) => out.replace(/in \d+(?:\.\d+)? m?s/g, 'in N ms');

beforeAll(async () => {
  copyCompiler(project);
  const prepared = await content(['--version']); // what `npm ci` runs (the `prepare` script)
  expect(prepared.code, prepared.out).toBe(0);
}, 240_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the CLI bundle', () => {
  it('is installed by the `prepare` script: one CommonJS file per entry', () => {
    expect(readdirSync(bundleDir()).sort()).toEqual(['card-worker.cjs', 'main.cjs', 'render-worker.cjs']);
  });

  it('prints what the sources print through tsx (STUDIO_NO_BUNDLE=1), exit code and all', async () => {
    const broken = contentCopy({ 'courses/vocal.yaml': readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8').replace(/^goal:\n(?: {2}.*\n)+/m, '') });
    try {
      for (const args of [
        ['validate', '--today', '2026-11-22', '--content', broken.dir, '--format', 'json'],
        ['validate', '--today', '2026-11-22', '--content', broken.dir],
        ['validate', '--today', '2026-11-22', '--content', FIXTURE],
        ['i18n', '--content', FIXTURE],
        ['--help'],
      ]) {
        const bundled = await content(args);
        const sources = await content(args, { STUDIO_NO_BUNDLE: '1' });
        expect(bundled.code, bundled.out).toBe(sources.code);
        expect(sameTimes(bundled.out), args.join(' ')).toBe(sameTimes(sources.out));
      }
    } finally {
      broken.cleanup();
    }
  }, 240_000);
});

describe('the render workers', () => {
  const sites = join(project, 'sites');
  const build = async (name: string, env: Record<string, string>) => {
    const r = await content(['build', '--today', '2026-11-22', '--quiet', '--content', FIXTURE, '--out', join(sites, name)], env);
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
  }, 120_000);

  it('run from the TypeScript sources too (STUDIO_NO_BUNDLE=1: tsx), with the same pages', async () => {
    samePages(await build('tsx-workers', { STUDIO_RENDER_WORKERS_FROM: '1', STUDIO_NO_BUNDLE: '1' }), inThread);
    expect(existsSync(join(sites, 'tsx-workers', 'index.html'))).toBe(true);
  }, 120_000);
});
