import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walk } from '../../cli/util/walk.ts';
import { CONTENT, ROOT, runCliProcess } from '../helpers/cli.ts';

// A cold build (no caches) started from a folder that is not the project: the
// compiler takes its own files from where it is installed, and scans nothing of the folder it
// was started in (issue 12, items 7 and 8).

const work = mkdtempSync(join(tmpdir(), 'studio-anywhere-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `content build` as a real process from `cwd`, cold (no caches; the client bundle is the installed one, see client-bundle.test.ts). */
function buildFrom(cwd: string, args: string[]) {
  return runCliProcess(['build', '--today', '2026-11-22', '--format', 'json', ...args], { cwd, env: { STUDIO_NO_CACHE: '1' } });
}

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    [...walk(dir)].sort().map((f) => [
      f,
      createHash('sha1')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

describe('content build from any working directory', () => {
  it.each([['react'], ['vike']])(
    'builds cold with --renderer %s from an empty folder, and from a folder holding a stray Vike +config',
    async (renderer) => {
      const empty = join(work, `empty-${renderer}`);
      mkdirSync(empty);
      const out = join(work, `site-${renderer}`);
      const r = await buildFrom(empty, ['--renderer', renderer, '--content', CONTENT, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      const pages = JSON.parse(r.stdout).summary.pages as number;
      expect(Object.keys(snapshot(out)).filter((f) => f.endsWith('.html'))).toHaveLength(pages);
      expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/<script src="\/assets\/[^"]+" type="module" async><\/script>/);

      // A folder with another project's Vike files in it (as /tmp may hold other checkouts): not looked at.
      const other = join(work, `other-${renderer}`);
      mkdirSync(join(other, 'pages', 'x'), { recursive: true });
      writeFileSync(join(other, 'pages', '+config.ts'), 'throw new Error("scanned the working directory");\n');
      writeFileSync(join(other, 'pages', 'x', '+Page.ts'), 'throw new Error("scanned the working directory");\n');
      const out2 = join(work, `site2-${renderer}`);
      const r2 = await buildFrom(other, ['--renderer', renderer, '--content', CONTENT, '--out', out2]);
      expect(r2.code, r2.stderr).toBe(0);
      expect(snapshot(out2)).toEqual(snapshot(out));
    },
    240_000,
  );

  it('four cold builds at once (from the project folder) all succeed with identical output', async () => {
    const outs = [1, 2, 3, 4].map((i) => join(work, `concurrent-${i}`));
    const results = await Promise.all(outs.map((out) => buildFrom(ROOT, ['--content', CONTENT, '--out', out])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const first = snapshot(outs[0]!);
    expect(Object.keys(first).filter((f) => f.endsWith('.html'))).toHaveLength(JSON.parse(results[0]!.stdout).summary.pages);
    for (const out of outs.slice(1)) expect(snapshot(out)).toEqual(first);
  }, 240_000);
});
