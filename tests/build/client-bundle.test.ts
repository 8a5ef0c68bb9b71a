import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, contentKey } from '../../cli/sources-key.js';
import { CONTENT, copyCompiler, ROOT, runCopiedCli } from '../helpers/cli.ts';

// The client bundle (cli/render/client-assets.ts) is part of the installed compiler, beside the
// CLI bundle: made when the compiler is installed or changed, never by a site build that finds
// it, cold or not; made again when it is missing or the sources changed, also by several builds
// at once. This test works on a copy of the compiler (its node_modules linked package by package,
// its CLI and client bundles its own), so that removing or marking its bundle cannot mislead the
// tests running beside it.

const project = mkdtempSync(join(tmpdir(), 'studio-client-bundle-'));
const work = join(project, 'work');
/** A comment the installed stylesheet is marked with: a site whose stylesheet has it was given the installed one. */
const MARK = '/* installed, not rebuilt */';

const content = (args: string[], env: Record<string, string> = {}) => runCopiedCli(project, args, env);

let sites = 0;
/** A cold build of the shipped content (no previous site, the cache folder removed); returns the site's folder. */
async function coldBuild(env: Record<string, string> = {}): Promise<string> {
  rmSync(join(project, 'node_modules', '.cache'), { recursive: true, force: true });
  const out = join(work, `site-${++sites}`);
  const r = await content(['build', '--today', '2026-11-22', '--quiet', '--content', CONTENT, '--out', out], env);
  expect(r.code, r.out).toBe(0);
  return out;
}

/** The installed client bundle of the copy's sources as they are now. */
const installed = () => join(artifactsDir(project, contentKey(project)), 'client');

/** The stylesheet a site was given. */
function stylesheet(site: string): string {
  const dir = join(site, 'assets', 'static');
  return readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.css'))!), 'utf8');
}

/** Marks the installed stylesheet, so that a site built from it can be told from one built from a new bundle. */
function markInstalled(): void {
  const dir = join(installed(), 'assets', 'static');
  appendFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.css'))!), MARK);
}

beforeAll(async () => {
  copyCompiler(project);
  mkdirSync(work);
  // What `npm ci` runs (the `prepare` script).
  const prepared = await content(['--version']);
  expect(prepared.code, prepared.out).toBe(0);
}, 240_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the client bundle, installed with the compiler', () => {
  it('is built by `prepare`, beside the CLI bundle', () => {
    expect(existsSync(join(installed(), 'inserts.json'))).toBe(true);
    expect(existsSync(join(installed(), '..', 'cli', 'main.cjs'))).toBe(true);
  });

  it('is taken as installed by a cold build, also under STUDIO_NO_CACHE=1', async () => {
    markInstalled();
    for (const env of [{}, { STUDIO_NO_CACHE: '1' }] as Record<string, string>[]) expect(stylesheet(await coldBuild(env))).toContain(MARK);
  }, 120_000);

  it('is built again when it is missing, by four cold builds at once, all alike', async () => {
    rmSync(installed(), { recursive: true, force: true });
    const sites = await Promise.all([1, 2, 3, 4].map(() => coldBuild()));
    const first = stylesheet(sites[0]!);
    expect(first).not.toContain(MARK);
    for (const site of sites.slice(1)) expect(stylesheet(site)).toBe(first);
    expect(existsSync(join(installed(), 'inserts.json'))).toBe(true);
    // No build's leftovers: the bundles, the validators, and V8's compiled code of the bundle (cli/bin.js).
    expect(readdirSync(join(installed(), '..')).sort()).toEqual(['cli', 'client', 'compile-cache', 'validators.cjs']);
  }, 240_000);

  it('is built again when the sources change, also when they run without the CLI bundle', async () => {
    markInstalled();
    const before = installed();
    appendFileSync(join(project, 'templates', 'styles.css'), '.changed-rule{color:red}\n');
    expect(installed()).not.toBe(before);
    // Through tsx, the build itself makes the new bundle; through the CLI bundle, `content` makes both first.
    for (const env of [{ STUDIO_NO_BUNDLE: '1' }, {}] as Record<string, string>[]) {
      const css = stylesheet(await coldBuild(env));
      expect(css).toContain('.changed-rule');
      expect(css).not.toContain(MARK);
      rmSync(installed(), { recursive: true, force: true });
    }
    // The folder of the earlier sources is left as it was (a run of those may still read it).
    expect(readFileSync(join(before, 'inserts.json'), 'utf8')).toMatch(/styles\./);
  }, 240_000);

  it('is built when a new version of the compiler is prepared, not in its first site build', async () => {
    writeFileSync(join(project, 'templates', 'styles.css'), `${readFileSync(join(ROOT, 'templates', 'styles.css'), 'utf8')}.another-rule{color:blue}\n`);
    const prepared = await content(['--version']);
    expect(prepared.code, prepared.out).toBe(0);
    expect(existsSync(join(installed(), 'inserts.json'))).toBe(true);
    markInstalled();
    expect(stylesheet(await coldBuild())).toContain(MARK);
  }, 120_000);
});
