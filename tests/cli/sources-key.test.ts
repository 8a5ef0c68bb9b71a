import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentKey, sourceFiles, statsKey } from '../../cli/sources-key.js';
import { copyCompiler, FIXTURE, runCliProcess } from '../helpers/cli.ts';

// The exit-70 flake (#28): `content validate` running while a build ran (another test file, on the
// other worker) now and then stopped with "internal error: ENOENT … templates/vike/+config.ts.build-….mjs".
// Vike transpiles its +files to a temporary file beside them, imports it and removes it; the sources
// key (cli/sources-key.js), which every run makes of every file under cli/ and templates/, listed it,
// and it was gone before it was read.

const work = mkdtempSync(join(tmpdir(), 'studio-sources-key-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A small compiler tree: a source in cli/, Vike's config in templates/vike/, package.json and a lockfile. */
function tree(name: string): string {
  const root = join(work, name);
  mkdirSync(join(root, 'cli'), { recursive: true });
  mkdirSync(join(root, 'templates/vike'), { recursive: true });
  writeFileSync(join(root, 'cli/main.ts'), 'export {};\n');
  writeFileSync(join(root, 'templates/vike/+config.ts'), 'export default {};\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  return root;
}

/** A process that writes and removes Vike's temporary file in `dir`, as a build does, until it is killed. */
function churn(dir: string): ChildProcess {
  const script = `const fs = require('node:fs'); for (let i = 0; ; i++) { const f = ${JSON.stringify(dir)} + '/+config.ts.build-' + i.toString(36).padStart(12, '0') + '.mjs'; fs.writeFileSync(f, 'export default {}\\n'); fs.unlinkSync(f); }`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

describe('the sources key', () => {
  it("leaves out the files a build writes among the sources for a moment (Vike's +config.ts.build-….mjs, Vite's .timestamp-….mjs)", () => {
    const root = tree('transient');
    const before = contentKey(root);
    writeFileSync(join(root, 'templates/vike/+config.ts.build-0a1b2c3d4e5f.mjs'), 'export default {};\n');
    writeFileSync(join(root, 'templates/vite.config.ts.timestamp-1764250000000-0123abcd.mjs'), 'export default {};\n');
    expect(sourceFiles(root)).toEqual(['cli/main.ts', 'templates/vike/+config.ts', 'package.json', 'package-lock.json']);
    expect(contentKey(root)).toBe(before);
    // A file of the sources that only looks alike still counts.
    writeFileSync(join(root, 'templates/vike/+config.build.ts'), 'export default {};\n');
    expect(contentKey(root)).not.toBe(before);
  });

  it('does not fail on a file gone between the listing and the reading: left out of the key, and the stats tell nothing', () => {
    const root = tree('gone');
    const files = sourceFiles(root);
    expect(contentKey(root, [...files, 'templates/vike/removed.ts'])).toBe(contentKey(root, files));
    expect(statsKey(root, [...files, 'templates/vike/removed.ts'])).toBeUndefined();
  });

  it('lets several `content validate` run while a build writes its temporary files (bundle and source runs alike)', async () => {
    const project = join(work, 'compiler');
    mkdirSync(project);
    copyCompiler(project);
    const run = (env: Record<string, string> = {}) =>
      runCliProcess(['validate', '--format', 'json', '--today', '2026-11-22', '--content', FIXTURE], {
        script: join(project, 'cli/bin.js'),
        cwd: project,
        env: { STUDIO_NO_CACHE: '', ...env },
      });
    // Its bundle built first, as `npm ci` does.
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const child = churn(join(project, 'templates/vike'));
    try {
      const runs = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => run(i % 2 ? { STUDIO_NO_BUNDLE: '1' } : {})));
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(0);
        expect((JSON.parse(r.stdout) as { errors: number }).errors, r.stderr).toBe(0);
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 180_000);
});
