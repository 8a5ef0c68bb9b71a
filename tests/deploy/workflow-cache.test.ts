import { createHash } from 'node:crypto';
import { cpSync, globSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FIXTURE, ROOT, runCliProcess } from '../helpers/cli.ts';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

/**
 * The expressions the cache step's key may use, evaluated as GitHub does: `runner.os`, and
 * `hashFiles(patterns…)`, the SHA-256 of the SHA-256 of each file the patterns match (relative to the
 * workspace), in order. Anything else is refused, so that this test cannot pass on a key it does not read.
 */
function evaluate(template: string, workspace: string): string {
  return template.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    if (expression === 'runner.os') return 'Linux';
    const call = /^hashFiles\((.*)\)$/.exec(expression);
    if (!call) throw new Error(`an expression this test does not know: ${expression}`);
    const patterns = [...call[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
    const files = [...new Set(patterns.flatMap((p) => globSync(p, { cwd: workspace })))].filter((f) => statSync(join(workspace, f)).isFile()).sort();
    if (!files.length) return '';
    const all = createHash('sha256');
    for (const f of files)
      all.update(
        createHash('sha256')
          .update(readFileSync(join(workspace, f)))
          .digest(),
      );
    return all.digest('hex');
  });
}

/** Finds a restored cache as actions/cache does: the key itself, else the first restore key that starts a saved key. */
const restores = (saved: string, key: string, restoreKeys: string[]) => saved === key || restoreKeys.some((prefix) => saved.startsWith(prefix));

const workspace = mkdtempSync(join(tmpdir(), 'studio-workflow-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
for (const part of ['cli', 'templates', 'content', 'package-lock.json']) cpSync(join(ROOT, part), join(workspace, part), { recursive: true });

describe.each(['content.yml', 'publish.yml'])('.github/workflows/%s keeps the build cache between runs', (file) => {
  const workflow = parse(readFileSync(join(ROOT, '.github/workflows', file), 'utf8')) as Workflow;
  const [job] = Object.values(workflow.jobs);
  const steps = job!.steps;
  const cacheStep = steps.findIndex((s) => s.uses?.startsWith('actions/cache@'));
  const cache = steps[cacheStep]?.with ?? {};
  const keyOf = () => evaluate(cache.key!, workspace);
  const restoreKeysOf = () =>
    cache['restore-keys']!.trim()
      .split('\n')
      .map((k) => evaluate(k.trim(), workspace));

  it('restores the cache folder the build uses, before the build, on the active LTS', () => {
    expect(cacheStep).toBeGreaterThanOrEqual(0);
    expect(job!.env?.STUDIO_CACHE_DIR).toMatch(/^\$\{\{ github\.workspace \}\}\/\.studio-site-cache$/);
    expect(cache.path).toMatch(/^\$\{\{ env\.STUDIO_CACHE_DIR \}\}$/);
    const build = steps.findIndex((s) => /\bcontent build\b/.test(s.run ?? ''));
    expect(build).toBeGreaterThan(cacheStep);
    const node = steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version'];
    expect(Number(String(node).split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('keys it on the content and the lockfile: the same for the same, and a new one that finds the old cache after a change', () => {
    const saved = keyOf();
    expect(saved).toMatch(/^studio-site-Linux-[0-9a-f]{64}-[0-9a-f]{64}$/);
    expect(keyOf()).toBe(saved);

    const course = join(workspace, 'content/courses/vocal.yaml');
    const before = readFileSync(course, 'utf8');
    writeFileSync(course, `${before}\n# an edit\n`);
    try {
      expect(keyOf()).not.toBe(saved);
      expect(restores(saved, keyOf(), restoreKeysOf())).toBe(true);
      expect(restoreKeysOf()[0]!.length).toBeGreaterThan('studio-site-Linux-'.length); // the same compiler's cache comes first
      expect(saved.startsWith(restoreKeysOf()[0]!)).toBe(true);
    } finally {
      writeFileSync(course, before);
    }
    expect(keyOf()).toBe(saved);

    const lock = join(workspace, 'package-lock.json');
    const lockBefore = readFileSync(lock, 'utf8');
    writeFileSync(lock, `${lockBefore}\n`);
    try {
      expect(keyOf()).not.toBe(saved);
      expect(saved.startsWith(restoreKeysOf()[0]!)).toBe(false); // another compiler: its entries are not this one's…
      expect(restores(saved, keyOf(), restoreKeysOf())).toBe(true); // …but still restored, as a start
    } finally {
      writeFileSync(lock, lockBefore);
    }
  });
});

/** What the cache step does for a build: the folder a run saved, restored into a fresh checkout (no dist/) before the next build. */
describe('a build in a fresh checkout with the cache folder restored', () => {
  const top = mkdtempSync(join(tmpdir(), 'studio-restored-'));
  afterAll(() => rmSync(top, { recursive: true, force: true }));
  const build = async (cache: string, out: string) => {
    const r = await runCliProcess(['build', '--content', FIXTURE, '--out', out, '--format', 'json'], { env: { STUDIO_CACHE_DIR: cache }, limitMs: 280_000 });
    expect(r.code, r.stderr).toBe(0);
    const { summary } = JSON.parse(r.stdout) as { summary: { notes?: string[]; images: { cardsDrawn: number; cardsReused: number } } };
    expect(summary.notes ?? []).toEqual([]); // no word about a cache it cannot write
    return summary;
  };

  it('draws no card again', async () => {
    const first = await build(join(top, 'run-1-cache'), join(top, 'run-1', 'dist'));
    expect(first.images.cardsDrawn).toBeGreaterThan(0);
    cpSync(join(top, 'run-1-cache'), join(top, 'run-2-cache'), { recursive: true }); // save, then restore in the next run
    const second = await build(join(top, 'run-2-cache'), join(top, 'run-2', 'dist'));
    expect(second.images).toMatchObject({ cardsDrawn: 0, cardsReused: first.images.cardsDrawn + first.images.cardsReused });
  }, 600_000);
});
