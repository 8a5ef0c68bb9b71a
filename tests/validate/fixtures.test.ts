import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fixtureContent, ROOT, runCli } from '../helpers/cli.ts';

interface Expectation {
  /** What is wrong, in words (documentation for the reader of the corpus). */
  why: string;
  exit: number;
  problems: { code: string; file: string; line?: number; column?: number; severity?: string }[];
  /** The errors listed are all there are: one mistake, one error. */
  exactly?: boolean;
}

const FIXTURES = join(ROOT, 'tests/fixtures');
const cases = readdirSync(FIXTURES)
  .filter((name) => !name.startsWith('.'))
  .sort();

describe('content validate on broken content', () => {
  it('has a corpus of at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', async (name) => {
    const expected = parse(readFileSync(join(FIXTURES, name, 'expect.yaml'), 'utf8')) as Expectation;
    const { dir, cleanup } = fixtureContent(name);
    try {
      const { code, stdout, stderr } = await runCli(['validate', '--content', dir, '--format', 'json', '--today', '2026-11-22']);
      expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      expect(code).toBe(expected.exit);
      const report = JSON.parse(stdout) as { problems: (Expectation['problems'][number] & { message: string; hint?: string })[] };
      for (const want of expected.problems) {
        const match = report.problems.find(
          (p) =>
            p.code === want.code &&
            p.file === want.file &&
            (want.line === undefined || p.line === want.line) &&
            (want.column === undefined || p.column === want.column),
        );
        expect(
          match,
          `${want.code} at ${want.file}:${want.line}:${want.column} in\n${JSON.stringify(
            report.problems.filter((p) => p.severity === 'error' || p.code !== 'placeholder'),
            null,
            1,
          )}`,
        ).toBeDefined();
        if (want.severity) expect(match!.severity).toBe(want.severity);
      }
      if (expected.exactly) expect(report.problems.filter((p) => p.severity === 'error').length).toBe(expected.problems.length);
      // Every error has a place and a hint.
      for (const p of report.problems.filter((p) => p.severity === 'error')) {
        expect(p.file).toBeTruthy();
        expect(p.message).toBeTruthy();
      }
    } finally {
      cleanup();
    }
  });
});
