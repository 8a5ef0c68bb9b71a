import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT, contentCopy, FIXTURE, runCli, runCliProcess } from '../helpers/cli.ts';

const TODAY = ['--today', '2026-11-22'];

/** The frozen content with `amount: 40 €` in the first price line. */
function withPriceMistake() {
  const copy = contentCopy();
  const path = join(copy.dir, 'prices.yaml');
  writeFileSync(path, readFileSync(path, 'utf8').replace('      amount: 20\n', '      amount: 20 €\n'));
  return copy;
}

describe('the report of content validate', () => {
  it('fits on one screen for the (frozen copy of the) shipped content: placeholders one line per file, the summary last', async () => {
    const { code, stdout } = await runCli(['validate', '--content', FIXTURE, ...TODAY]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    // 45: a laptop terminal; the placeholders no page shows have a block of their own (issue 38).
    expect(lines.length).toBeLessThanOrEqual(45);
    expect(stdout).not.toContain('warning Placeholder:');
    expect(stdout).toMatch(/Placeholders \("TODO: …"/);
    expect(stdout).toMatch(/courses\/vocal\.yaml +\d+ — \w+/);
    const json = JSON.parse((await runCli(['validate', '--content', FIXTURE, '--format', 'json', ...TODAY])).stdout) as {
      files: number;
      warnings: number;
      problems: { code: string; file: string }[];
    };
    const files = new Set(json.problems.map((p) => p.file)).size;
    // "in 39 of 44 files", not "in 39 files" next to "Checked 44 files".
    expect(lines.at(-2)).toBe(
      `✓ No errors; ${json.warnings} warnings (${json.problems.filter((p) => p.code === 'placeholder').length} placeholders) in ${files} of ${json.files} files.`,
    );
  });

  it('lists every placeholder in full with --verbose', async () => {
    const { stdout } = await runCli(['validate', '--content', FIXTURE, '--verbose', ...TODAY]);
    const json = JSON.parse((await runCli(['validate', '--content', FIXTURE, '--format', 'json', ...TODAY])).stdout) as { problems: { code: string }[] };
    expect(stdout.match(/warning Placeholder:/g)?.length).toBe(json.problems.filter((p) => p.code === 'placeholder').length);
  });

  it('ends, when there are errors, with how many and where the first one is', async () => {
    const copy = withPriceMistake();
    try {
      const { code, stdout } = await runCli(['validate', '--content', copy.dir, ...TODAY]);
      expect(code).toBe(1);
      const lines = stdout.trimEnd().split('\n');
      expect(lines.at(-3)).toMatch(/^✗ 1 error in 1 of \d+ files; \d+ warnings/);
      expect(lines.at(-2)).toBe(`  First error: ${copy.dir}/prices.yaml:21:15  "20 €" is not a number.`);
      // One mistake, one error: the price line is not reported branch by branch.
      expect(stdout.match(/^ +\d+:\d+ +error /gm)?.length).toBe(1);
    } finally {
      copy.cleanup();
    }
  });

  it('--strict fails on warnings (the publishing gate), in every format', async () => {
    const plain = await runCli(['validate', '--content', FIXTURE, '--strict', ...TODAY]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('--strict counts every warning as an error');
    const json = await runCli(['validate', '--content', FIXTURE, '--strict', '--format', 'json', ...TODAY]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ strict: true, failed: true, errors: 0 });
    const github = await runCli(['validate', '--content', FIXTURE, '--strict', '--format', 'github', ...TODAY]);
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(/^::error file=tests\/fixtures\/content\/site\.yaml,line=\d+/m);
    expect((await runCli(['validate', '--content', FIXTURE, ...TODAY])).code).toBe(0);
  });
});

describe('the report of content build', () => {
  it('--strict refuses to build while a placeholder is left, and writes nothing', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'studio-out-')), 'dist');
    try {
      const { code, stdout } = await runCliProcess(['build', '--content', FIXTURE, '--out', out, '--strict', ...TODAY]);
      expect(code).toBe(1);
      expect(stdout).toContain('Build refused (--strict)');
      expect(stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(45);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  }, 120_000);

  it('stops on an error with the short report, repeating where the first error is', async () => {
    const copy = withPriceMistake();
    const out = join(mkdtempSync(join(tmpdir(), 'studio-out-')), 'dist');
    try {
      const { code, stdout } = await runCliProcess(['build', '--content', copy.dir, '--out', out, ...TODAY]);
      expect(code).toBe(1);
      const lines = stdout.trimEnd().split('\n');
      expect(lines.length).toBeLessThanOrEqual(55);
      expect(lines.at(-2)).toBe(`  First error: ${copy.dir}/prices.yaml:21:15  "20 €" is not a number.`);
      expect(lines.at(-1)).toContain('Build stopped');
    } finally {
      copy.cleanup();
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the README's editors' section", () => {
  it('shows what the shipped content really prints', async () => {
    const readme = readFileSync(join(CONTENT, '..', 'README.md'), 'utf8');
    const { stdout } = await runCli(['validate', '--content', CONTENT, ...TODAY]);
    // Paths as printed from the project folder, the time as in the README.
    const printed = stdout
      .replaceAll(`${CONTENT}/`, 'content/')
      .replace(/in \d+ ms\./, 'in 80 ms.')
      .trimEnd();
    expect(readme).toContain(`\`\`\`\n${printed}\n\`\`\``);
  });
});
