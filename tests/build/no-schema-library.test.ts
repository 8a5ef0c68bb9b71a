import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE, ROOT } from '../helpers/cli.ts';

// The schemas (zod) are what the JSON Schemas and the validators are generated from (npm run
// schemas); validate and build check the content with the generated validators and never load zod:
// loading it and making its schemas cost about 0.1 s of every run, a third of a 300-page build's
// lead over none. A constant a check needs lives in a module of its own (cli/schema/keep-days.ts,
// image-pattern.ts), not beside a schema.

const dir = mkdtempSync(join(tmpdir(), 'studio-no-zod-'));
const hook = join(dir, 'refuse-zod.cjs');
writeFileSync(
  hook,
  `const M = require('node:module'); const load = M._load;
M._load = function (request, ...rest) { if (request === 'zod' || request.startsWith('zod/')) throw new Error('zod was loaded'); return load.call(this, request, ...rest); };`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, ['--require', hook, join(ROOT, 'cli/bin.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, STUDIO_NO_CACHE: '1' },
  });

describe('validate and build', () => {
  it('check and build the content without loading the schema library', () => {
    for (const args of [
      ['validate', '--today', '2026-11-22', '--content', FIXTURE],
      ['build', '--today', '2026-11-22', '--quiet', '--content', FIXTURE, '--out', join(dir, 'site')],
    ]) {
      const r = run(args);
      expect(r.stdout + r.stderr, args[0]).not.toMatch(/zod was loaded/);
      expect(r.status, r.stdout + r.stderr).toBe(0);
    }
  }, 120_000);
});
