import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentCopy } from '../helpers/cli.ts';
import { type JsonProblem, runBounded, STACK_LINE } from './bounded-cli.ts';

/**
 * A YAML file that would make the parser expand aliases without end or recurse without end is
 * a content error with its place (issue 12, item 7), never "internal error" with exit 70.
 */

// The 9th "*b" on line 4 (column 40) is where the copies pass 100: 10 × (1 + 10) for each *b.
const aliasBomb = [
  '# a billion laughs, ten levels of ten',
  'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
  '',
].join('\n');

// 101 uses of one alias: line 4 holds the first; at the 100th (line 103) the anchored value and its
// copies pass 100, which is where the `yaml` package stops expanding (its maxAliasCount).
const manyAliases = ['# many aliases', 'base: &x word', 'items:', ...Array.from({ length: 101 }, () => '  - *x'), ''].join('\n');

// A mapping nested 100 deep: the mapping at depth 65 starts on line 65, after 64 two-space indents.
const deepBlock = `${Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}k:`).join('\n')} end\n`;

// Lists nested 1000 deep on one line: the list at depth 65 is the 64th "[", column 4 + 63.
const deepFlow = `a: ${'['.repeat(1000)}${']'.repeat(1000)}\n`;

// Nested far beyond what any parser's stack holds.
const bottomless = `a: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`;

const CASES: { name: string; text: string; code: string; line?: number; column?: number; says: RegExp }[] = [
  { name: 'an alias bomb (billion laughs)', text: aliasBomb, code: 'too-many-aliases', line: 4, column: 40, says: /alias/ },
  { name: 'more than 100 aliases', text: manyAliases, code: 'too-many-aliases', line: 103, column: 5, says: /100/ },
  { name: 'mappings nested 100 deep', text: deepBlock, code: 'too-deep', line: 65, column: 129, says: /deep/ },
  { name: 'lists nested 1000 deep', text: deepFlow, code: 'too-deep', line: 1, column: 67, says: /deep/ },
  { name: 'lists nested 200 000 deep', text: bottomless, code: 'too-deep', line: 1, says: /deep/ },
];

describe('validate: YAML resource limits are content errors', () => {
  for (const c of CASES)
    it(c.name, { timeout: 120_000 }, async () => {
      const copy = contentCopy({ 'courses/bomb.yaml': c.text });
      try {
        // Generous: the machine is shared, and a hang is what this limit is for.
        const json = await runBounded(['validate', '--content', copy.dir, '--format', 'json', '--today', '2026-11-22'], { limitMs: 40_000 });
        expect(json.timedOut).toBe(false);
        expect(json.stdout + json.stderr).not.toMatch(STACK_LINE);
        expect(json.code).toBe(1);
        const errors = (JSON.parse(json.stdout) as { problems: JsonProblem[] }).problems.filter(
          (p) => p.file === 'courses/bomb.yaml' && p.severity === 'error',
        );
        expect(errors.map((p) => p.code)).toEqual([c.code]);
        const [p] = errors;
        expect(p!.message).toMatch(c.says);
        expect(p!.hint).toBeTruthy();
        if (c.line) expect(p!.line).toBe(c.line);
        if (c.column) expect(p!.column).toBe(c.column);

        const human = await runBounded(['validate', '--content', copy.dir, '--today', '2026-11-22']);
        expect(human.code).toBe(1);
        expect(human.stdout + human.stderr).not.toMatch(STACK_LINE);
        expect(human.stdout + human.stderr).toContain(`courses/bomb.yaml`);
        expect(human.stdout + human.stderr).not.toContain('internal error');
      } finally {
        copy.cleanup();
      }
    });

  it('build stops on an alias bomb before writing anything', async () => {
    const copy = contentCopy({ 'courses/bomb.yaml': aliasBomb });
    const out = `${copy.dir}-site`;
    try {
      const run = await runBounded(['build', '--content', copy.dir, '--out', out, '--today', '2026-11-22'], { limitMs: 50_000 });
      expect(run.timedOut).toBe(false);
      expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toMatch(/courses\/bomb\.yaml[\s\S]*4:40 +error .*alias/);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
      copy.cleanup();
    }
  });
});

describe('unchanged content still reads', () => {
  it('a few aliases well under the limit are fine', async () => {
    const copy = contentCopy();
    try {
      const { readFileSync, writeFileSync } = await import('node:fs');
      const file = join(copy.dir, 'courses/vocal.yaml');
      const text = readFileSync(file, 'utf8')
        .replace('title:\n  ru: Вокал', 'title: &t\n  ru: Вокал')
        .replace(/\nlanguagesNote:\n(?: {2}.*\n)+/, '\nlanguagesNote: *t\n');
      expect(text).toContain('languagesNote: *t');
      writeFileSync(file, text);
      const run = await runBounded(['validate', '--content', copy.dir, '--format', 'json', '--today', '2026-11-22']);
      expect((JSON.parse(run.stdout) as { errors: number }).errors).toBe(0);
    } finally {
      copy.cleanup();
    }
  });
});
