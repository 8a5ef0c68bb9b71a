import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TYPE_NAMES } from '../../cli/schema/layout.ts';
import { contentCopy, copyCompiler, FIXTURE, runCopiedCli } from '../helpers/cli.ts';

// The cache policy (cli/cache/policy.ts), seen from outside: a poisoned cache must not be
// read once what it was made with changes, nor at all under STUDIO_NO_CACHE=1; every cache is
// pruned. The caches live in the compiler's own node_modules/.cache, so this test works on a
// copy of the compiler (its node_modules linked package by package, its cache folder and CLI bundle its own):
// poisoning the real one would mislead the tests running beside it.

const project = mkdtempSync(join(tmpdir(), 'studio-policy-'));
const cache = join(project, 'node_modules', '.cache', 'studio-site');
// vocal.yaml without its required goal: fails the schema check.
const broken = contentCopy({ 'courses/vocal.yaml': readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8').replace(/^goal:\n(?: {2}.*\n)+/m, '') });

const content = (args: string[], env: Record<string, string> = {}) => runCopiedCli(project, args, env);

/** Changes the version the lockfile gives a package (what an upgrade does). */
function upgrade(name: string): void {
  const lock = join(project, 'package-lock.json');
  const text = readFileSync(lock, 'utf8');
  const changed = text.replace(new RegExp(`("node_modules/${name}": \\{\\n\\s*"version": ")([^"]+)"`), (_, head, v) => `${head}${v}-upgraded"`);
  expect(changed).not.toBe(text);
  writeFileSync(lock, changed);
}

beforeAll(async () => {
  copyCompiler(project);
}, 240_000);

afterAll(() => {
  broken.cleanup();
  rmSync(project, { recursive: true, force: true });
});

describe('the validators installed beside the CLI bundle', () => {
  /** The installed validators of the copy's current sources (its newest bundle folder). */
  const installed = () => {
    const home = join(project, 'node_modules', '.studio-site-cli');
    const newest = readdirSync(home, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(home, e.name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
    return join(newest, 'validators.cjs');
  };
  /** A validators module that accepts anything. */
  const acceptAll = () =>
    `const ok = Object.assign(() => true, { errors: null });\nfor (const t of ${JSON.stringify([...CONTENT_TYPE_NAMES, 'translations'])}) exports[t] = ok;\n`;

  it('are what a run uses, caches on or off: nothing is compiled', async () => {
    expect((await content(['--version'])).code).toBe(0); // builds the bundle and installs its validators
    writeFileSync(installed(), acceptAll());
    for (const env of [{ STUDIO_NO_CACHE: '1' }, {}] as Record<string, string>[]) {
      const r = await content(['validate', '--content', broken.dir], env);
      expect(r.code, r.out).toBe(0);
    }
    expect(existsSync(join(cache, 'validators'))).toBe(false);
    rmSync(join(cache, 'parse'), { recursive: true, force: true }); // it remembers what passed those validators
  });

  it('are compiled again when they are missing', async () => {
    rmSync(installed());
    const r = await content(['validate', '--content', broken.dir], { STUDIO_NO_CACHE: '1' });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/goal/);
    expect(existsSync(installed())).toBe(true);
  });

  // Issue #34: a zod shape changed and "npm run schemas" forgotten (schemas/ stays as it was): validate checks the new rule.
  it('follow a change of a zod shape, whatever schemas/ says', async () => {
    const teacher = join(project, 'cli', 'schema', 'teacher.ts');
    const shape = readFileSync(teacher, 'utf8');
    const committed = readFileSync(join(project, 'schemas', 'teacher.schema.json'), 'utf8');
    const withPhone = contentCopy({
      'teachers/vocal-coach.yaml': `${readFileSync(join(FIXTURE, 'teachers/vocal-coach.yaml'), 'utf8')}phone: '+49 30 1234567'\n`,
    });
    try {
      const before = await content(['validate', '--content', withPhone.dir, '--format', 'json'], { STUDIO_NO_CACHE: '1' });
      expect(before.code, before.out).toBe(1);
      expect(before.out).toMatch(/"code": ?"unknown-key"/);
      writeFileSync(teacher, shape.replace('  quote: LocalizedText.optional(),\n', '  quote: LocalizedText.optional(),\n  phone: z.string().optional(),\n'));
      expect(readFileSync(teacher, 'utf8')).not.toBe(shape);
      const after = await content(['validate', '--content', withPhone.dir], { STUDIO_NO_CACHE: '1' });
      expect(after.code, after.out).toBe(0);
      // A field the new shape requires is asked for, though the committed schema does not know it.
      writeFileSync(teacher, shape.replace('  quote: LocalizedText.optional(),\n', '  quote: LocalizedText.optional(),\n  phone: z.string(),\n'));
      const required = await content(['validate', '--content', broken.dir, '--format', 'json'], { STUDIO_NO_CACHE: '1' });
      expect(required.code, required.out).toBe(1);
      expect(required.out).toMatch(/"code": ?"missing-key"[^}]*teachers\//);
      expect(readFileSync(join(project, 'schemas', 'teacher.schema.json'), 'utf8')).toBe(committed);
    } finally {
      writeFileSync(teacher, shape);
      withPhone.cleanup();
    }
  }, 240_000);
});

describe('the parse memo', () => {
  it('is not read after an upgrade of yaml', async () => {
    // The frozen fixture itself, which validate only reads: files written in the last seconds are never
    // kept (the racy rule), and a copy made now would be read anew by every run of this child process,
    // whose clock a test cannot move. (Checked out seconds ago, it would fail the control below, not pass.)
    const valid = FIXTURE;
    for (let run = 0; run < 2; run++) {
      const stored = await content(['validate', '--content', valid, '--quiet']); // the second run on a folder keeps its files
      expect(stored.code, stored.out).toBe(0);
    }
    // Poison every entry: data that fails the schema, as if another parser had read the files, and nothing checked yet.
    const dir = join(cache, 'parse-memo');
    expect(existsSync(dir)).toBe(true);
    let poisoned = 0;
    for (const f of readdirSync(dir)) {
      const saved = deserialize(readFileSync(join(dir, f))) as { version: string; files: Map<string, unknown[]> };
      for (const entry of saved.files.values()) entry.splice(8, 2, { poisoned: true }, {});
      poisoned += saved.files.size;
      writeFileSync(join(dir, f), serialize(saved));
    }
    expect(poisoned).toBeGreaterThan(0);
    const control = await content(['validate', '--content', valid, '--quiet']);
    expect(control.code, 'the poisoned memo is read while nothing changed').not.toBe(0);
    upgrade('yaml');
    const r = await content(['validate', '--content', valid, '--quiet']);
    expect(r.code, r.out).toBe(0);
  }, 240_000);
});
