// A title a page heading and a share card cannot show (#35 section 4): a word of 60,000 letters
// took the card drawing down (V8's heap limit after two minutes, no file named). validate finds it,
// at the word, before anything is drawn.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT, contentCopy, FIXTURE, runCli } from '../helpers/cli.ts';

interface Problem {
  code: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  path: string;
  message: string;
  expected?: string;
  found?: string;
  hint?: string;
}

const validate = async (dir: string) => {
  const r = await runCli(['validate', '--content', dir, '--format', 'json']);
  return { code: r.code, problems: (JSON.parse(r.stdout) as { problems: Problem[] }).problems.filter((p) => p.code === 'title-too-long') };
};
const vocal = readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8');
const routes = readFileSync(join(FIXTURE, 'routes.yaml'), 'utf8');

describe('validate: titles a page and a share card can show', () => {
  it('finds every shipped title fine, and those of the test fixture', async () => {
    expect((await validate(CONTENT)).problems).toEqual([]);
    expect((await validate(FIXTURE)).problems).toEqual([]);
  });

  it("refuses a studio's name written once for every language (a plain text, not a placeholder) that is too long or has too long a word", async () => {
    const site = readFileSync(join(FIXTURE, 'site.yaml'), 'utf8');
    const placeholder = "name:\n  ru: 'TODO: название студии'\n  en: 'TODO: studio name'\n  de: 'TODO: Name des Studios'\n";
    expect(site).toContain(placeholder);
    const word = 'Я'.repeat(300);
    const c = contentCopy({ 'site.yaml': site.replace(placeholder, `name: Studio ${word}\n`) });
    try {
      const { code, problems } = await validate(c.dir);
      expect(code).toBe(1);
      expect(problems.map((p) => `${p.severity} ${p.file}:${p.line}:${p.column} ${p.path} ${p.message}`)).toEqual([
        "error site.yaml:2:7 name The studio's name (every language) has 307 characters; a title has at most 100.",
        "error site.yaml:2:14 name The studio's name (every language) has a word of 300 characters; a word of a title has at most 30.",
      ]);
      const fine = contentCopy({ 'site.yaml': site.replace(placeholder, 'name: Studio Zwei Linden\n') });
      try {
        expect((await validate(fine.dir)).problems).toEqual([]);
      } finally {
        fine.cleanup();
      }
    } finally {
      c.cleanup();
    }
  });

  it('refuses a word of 60,000 letters in a course title at the word itself, before the build draws anything', async () => {
    const word = 'А'.repeat(60_000);
    const c = contentCopy({ 'courses/vocal.yaml': vocal.replace('  ru: Вокал\n', `  ru: Вокал ${word}\n`) });
    try {
      const { code, problems } = await validate(c.dir);
      expect(code).toBe(1);
      expect(
        problems.map(({ file, line, column, severity, path, message, expected, found }) => ({ file, line, column, severity, path, message, expected, found })),
      ).toEqual([
        {
          file: 'courses/vocal.yaml',
          line: 6,
          column: 7,
          severity: 'error',
          path: 'title.ru',
          message: 'The title of the course vocal (ru) has 60006 characters; a title has at most 100.',
          expected: 'at most 100 characters',
          found: '60006 characters',
        },
        {
          file: 'courses/vocal.yaml',
          line: 6,
          column: 13,
          severity: 'error',
          path: 'title.ru',
          message: 'The title of the course vocal (ru) has a word of 60000 characters; a word of a title has at most 30.',
          expected: 'words of at most 30 characters',
          found: `"${'А'.repeat(20)}…", 60000 characters`,
        },
      ]);
      expect(problems[1]!.hint).toMatch(/soft hyphen/);
      const out = join(c.dir, '..', 'site');
      const build = await runCli(['build', '--content', c.dir, '--out', out]);
      expect(build.code).toBe(1);
      expect(build.stdout + build.stderr).toContain('[title-too-long]');
      expect(existsSync(join(out, 'cards'))).toBe(false);
    } finally {
      c.cleanup();
    }
  });

  it('refuses a page title of more than 100 characters; words broken by a soft hyphen or a hyphen are fine', async () => {
    const long = `Gesangsunterricht ${'für Kinder und Jugendliche '.repeat(4)}`.trim();
    const c = contentCopy({
      'routes.yaml': routes.replace(/^( {4}de: )Gesangsunterricht$/m, `$1${long}`),
      'courses/vocal.yaml': vocal
        .replace('  de: Gesangsunterricht\n', '  de: "Gesangs\\u00adunterrichts\\u00adkonzentrations\\u00adtraining"\n')
        .replace('  en: Singing lessons\n', '  en: Singing-lessons-for-children-and-teenagers-online\n'),
    });
    try {
      const { problems } = await validate(c.dir);
      expect(problems.map((p) => `${p.file}:${p.line} ${p.path} ${p.message}`)).toEqual([
        expect.stringMatching(/^routes\.yaml:\d+ routes\[\d+\]\.title\.de The title of the page \/vocal \(de\) has 125 characters; a title has at most 100\.$/),
      ]);
    } finally {
      c.cleanup();
    }
  });
});
