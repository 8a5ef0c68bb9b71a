import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUsageError, runIn, tree } from '../build/run-in.ts';
import { ROOT } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

// Every option is checked before the command does anything: exit 2, one "error:" line and a
// "hint:" line, never a stack trace (exit 70) and never a site built from a bad value.
const content = syntheticContent(1);
const work = mkdtempSync(join(tmpdir(), 'studio-options-'));
const site = join(work, 'dist');
const run = (argv: string[], options: Parameters<typeof runIn>[2] = {}) => runIn(work, argv, { timeoutMs: 30_000, ...options });

beforeAll(async () => {
  const r = await run(['build', '--content', content.dir, '--out', site, '--today', '2026-11-22', '--quiet']);
  expect(r.code).toBe(0);
}, 180_000);

afterAll(() => {
  content.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('--port', () => {
  for (const port of ['99999', '-1', '80.5', 'abc', '']) {
    it(`serve and dev refuse --port "${port}"`, async () => {
      expectUsageError(await run(['serve', '--out', site, '--data', join(work, 'data'), '--port', port]), /--port/);
      expectUsageError(await run(['dev', '--content', content.dir, '--port', port]), /--port/);
    });
  }
});

describe('serve numbers', () => {
  for (const [option, value] of [
    ['--rate-limit', 'abc'],
    ['--rate-limit', ''],
    ['--rate-limit', '-5'],
    ['--min-fill-seconds', '1e3'],
  ])
    it(`refuses ${option} "${value}"`, async () => {
      expectUsageError(await run(['serve', '--out', site, '--data', join(work, 'data'), '--port', '0', option!, value!]), new RegExp(option!));
    });
});

describe('serve --origin', () => {
  for (const value of ['notaurl', 'ftp://studio.example', 'https://studio.example/path', 'https://user:pw@studio.example', 'https://studio.example/?a=1'])
    it(`refuses "${value}" before it opens the inbox`, async () => {
      const data = join(work, 'origin-data');
      expectUsageError(await run(['serve', '--out', site, '--data', data, '--port', '0', '--origin', 'https://ok.example', value]), /--origin/);
      expect(tree(work).has('origin-data')).toBe(false);
    });
});

describe('build options', () => {
  const build = (...args: string[]) => run(['build', '--content', content.dir, '--out', join(work, 'never'), ...args]);

  it('refuses a --base-url that is not an absolute http(s) address, building nothing', async () => {
    for (const url of ['notaurl', 'ftp://studio.example', 'https://', '/relative', 'javascript:alert(1)'])
      expectUsageError(await build('--base-url', url), /--base-url/);
    expect(() => tree(join(work, 'never'))).toThrow(/ENOENT/);
  });

  it('refuses a --today that is not a real date, in build and validate', async () => {
    for (const day of ['2026-02-30', 'notadate', '2026-13-01', '26-01-01', '2026-1-1']) {
      expectUsageError(await build('--today', day), /--today/);
      expectUsageError(await run(['validate', '--content', content.dir, '--today', day]), /--today/);
    }
    expect(() => tree(join(work, 'never'))).toThrow(/ENOENT/);
  });

  it('refuses a --content that is missing or a file, in every command that reads it', async () => {
    const file = join(work, 'a-file.txt');
    writeFileSync(file, 'not content\n');
    for (const dir of [join(work, 'missing'), file]) {
      expectUsageError(await run(['build', '--content', dir, '--out', join(work, 'never')]), /content/);
      expectUsageError(await run(['validate', '--content', dir]), /content/);
      expectUsageError(await run(['i18n', '--content', dir]), /content/);
      expectUsageError(await run(['dev', '--content', dir, '--port', '0']), /content/);
    }
  });

  it('accepts a good --base-url and --today', async () => {
    const r = await build('--base-url', 'https://studio.example/', '--today', '2028-02-29', '--quiet');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('serve --data', () => {
  const serve = (data: string, options: Parameters<typeof runIn>[2] = {}) =>
    run(['serve', '--out', site, '--port', '0', '--data', data], { timeoutMs: 20_000, ...options });

  it('refuses a file', async () => {
    const file = join(work, 'inbox-file');
    writeFileSync(file, 'mine\n');
    expectUsageError(await serve(file), /is a file/);
    expectUsageError(await serve(join(file, 'below')), /is a file/);
  });

  it('refuses a folder inside the built site or inside the content', async () => {
    const before = tree(site);
    expectUsageError(await serve(join(site, 'inbox')), /inside the built site/);
    expect(tree(site)).toEqual(before);
    const contentBefore = tree(content.dir);
    expectUsageError(await serve(join(content.dir, 'inbox')), /inside the content folder/);
    expect(tree(content.dir)).toEqual(contentBefore);
  });

  it('refuses a folder it may not write, or cannot create', async () => {
    // Run as "nobody": root may write anywhere.
    const locked = join(work, 'locked');
    mkdirSync(join(locked, 'inbox'), { recursive: true });
    chmodSync(work, 0o755);
    chmodSync(locked, 0o755);
    const as = { uid: 65534, gid: 65534 };
    expectUsageError(await serve(join(locked, 'inbox'), as), /cannot write/);
    expectUsageError(await serve(join(locked, 'new', 'inbox'), as), /cannot create/);
    // A read-only folder of nobody's own.
    const own = join(work, 'own');
    mkdirSync(own);
    chownSync(own, 65534, 65534);
    chmodSync(own, 0o555);
    expectUsageError(await serve(own, as), /cannot write/);
  });
});

it('the checks live in one module that every command uses', async () => {
  const { readFileSync } = await import('node:fs');
  const main = readFileSync(join(ROOT, 'cli/main.ts'), 'utf8');
  expect(main).toContain("from './commands/options.ts'");
});
