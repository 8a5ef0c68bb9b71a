import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentCopy, FIXTURE } from '../helpers/cli.ts';
import { type JsonProblem, runBounded, STACK_LINE } from './bounded-cli.ts';

/**
 * Texts that i18next would interpret (issue 12, item 15): `$t(nav.menu)` in ui.yaml rendered
 * "[object Object]" on every page, silently. And one-line texts (names, titles, address parts,
 * labels) took raw HTML and line breaks. Each is an error at the text's line and column.
 */

interface Case {
  name: string;
  file: string;
  /** Replaces the first `from` in the shipped file by `to`; the problem is expected where `to` starts. */
  from: string;
  to: string;
  code: string;
  says: RegExp;
}

const CASES: Case[] = [
  { name: 'i18next nesting $t(…) in a UI string', file: 'ui.yaml', from: '    en: Menu\n', to: '$t(nav.mainMenu)', code: 'i18next-syntax', says: /\$t\(/ },
  {
    name: 'an unknown variable in a UI string',
    file: 'ui.yaml',
    from: '    en: from {{amount}}\n',
    to: 'from {{price}}',
    code: 'unknown-variable',
    says: /\{\{price\}\}/,
  },
  {
    name: 'a variable in a UI string that has none',
    file: 'ui.yaml',
    from: '    ru: Меню\n',
    to: 'Меню {{count}}',
    code: 'unknown-variable',
    says: /\{\{count\}\}/,
  },
  {
    name: 'i18next formatting in a UI string',
    file: 'ui.yaml',
    from: '    de: ab {{amount}}\n',
    to: 'ab {{amount, currency(EUR)}}',
    code: 'i18next-syntax',
    says: /\{\{amount, currency\(EUR\)\}\}/,
  },
  {
    name: 'unescaped interpolation {{- …}} in a UI string',
    file: 'ui.yaml',
    from: '    ru: +{{amount}}\n',
    to: '+{{- amount}}',
    code: 'i18next-syntax',
    says: /\{\{- amount\}\}/,
  },
  {
    name: 'i18next nesting in a course text',
    file: 'courses/vocal.yaml',
    from: '  en: Singing lessons\n',
    to: 'Singing $t(nav.menu)',
    code: 'i18next-syntax',
    says: /\$t\(/,
  },
  {
    name: 'a variable in a course text (content texts have none)',
    file: 'courses/vocal.yaml',
    from: '  de: Gesangsunterricht\n',
    to: 'Gesang {{name}}',
    code: 'unknown-variable',
    says: /\{\{name\}\}/,
  },
  {
    name: 'raw HTML in the site name',
    file: 'site.yaml',
    from: "name:\n  ru: 'TODO: название студии'\n  en: 'TODO: studio name'\n  de: 'TODO: Name des Studios'\n",
    to: "'<b>Studio</b>'",
    code: 'raw-html',
    says: /HTML/,
  },
  {
    name: 'a line break in the site name',
    file: 'site.yaml',
    from: "name:\n  ru: 'TODO: название студии'\n  en: 'TODO: studio name'\n  de: 'TODO: Name des Studios'\n",
    to: '"Studio\\nBcc: victim@example.org"',
    code: 'line-break',
    says: /line/,
  },
  {
    name: 'CR LF in the legal name',
    file: 'site.yaml',
    from: "legalName: 'TODO: legal name of the operator'\n",
    to: '"Studio GmbH\\r\\n"',
    code: 'line-break',
    says: /line/,
  },
  {
    name: 'raw HTML in the street',
    file: 'site.yaml',
    from: "    street:\n      ru: 'TODO: улица и номер дома'\n      en: 'TODO: street and number'\n      de: 'TODO: Straße und Hausnummer'\n",
    to: '"Hauptstr. 1<script>alert(1)</script>"',
    code: 'raw-html',
    says: /HTML/,
  },
  {
    name: 'a line break in the city',
    file: 'site.yaml',
    from: "    city:\n      ru: 'TODO: город'\n      en: 'TODO: city'\n      de: 'TODO: Ort'\n",
    to: '"Berlin\\nX"',
    code: 'line-break',
    says: /line/,
  },
  { name: 'raw HTML in a package name', file: 'prices.yaml', from: '  name: Lite\n', to: '"Lite<img src=x onerror=alert(1)>"', code: 'raw-html', says: /HTML/ },
  { name: 'a line break in a course title', file: 'courses/vocal.yaml', from: '  ru: Вокал\n', to: '"Вокал\\nи ещё"', code: 'line-break', says: /line/ },
  { name: 'a line break in a menu label', file: 'site.yaml', from: '    en: Prices\n', to: '"Prices\\u2028Now"', code: 'line-break', says: /line/ },
  { name: 'a line break in a UI label', file: 'ui.yaml', from: '    de: Menü\n', to: '"Me\\nnü"', code: 'line-break', says: /line/ },
  // {{keepDays}} is filled in with its word for days (ui.yaml legal.days_*): a word after it would be said twice.
  {
    name: 'a word for days after {{keepDays}} in a Russian legal text',
    file: 'legal.yaml',
    from: "    - ru: 'TODO: название и адрес оператора'\n",
    to: "'Заявки удаляются через {{keepDays}} дней после поступления.'",
    code: 'days-word-twice',
    says: /"180 дней дней"/,
  },
  {
    name: 'a word for days after {{keepDays}} in an English legal text',
    file: 'legal.yaml',
    from: "      en: 'TODO: operator name and address'\n",
    to: "'Enquiries are deleted {{keepDays}} days after they arrive.'",
    code: 'days-word-twice',
    says: /"180 days days"/,
  },
  {
    name: 'a word for days after {{keepDays}} in a German legal text',
    file: 'legal.yaml',
    from: "      de: 'TODO: Name und Anschrift des Betreibers'\n",
    to: "'Anfragen werden {{keepDays}} Tagen nach Eingang gelöscht.'",
    code: 'days-word-twice',
    says: /"180 Tage Tagen"/,
  },
  {
    name: 'a word for days after the second {{keepDays}} of a text, the first followed by another word',
    file: 'legal.yaml',
    from: "      en: 'TODO: operator name and address'\n",
    to: "'Enquiries are kept {{keepDays}} after they arrive, and {{keepDays}} days after that they are deleted.'",
    code: 'days-word-twice',
    says: /"180 days days"/,
  },
  {
    name: 'a word for days after {{ keepDays }} written with spaces, as i18next and the build read it',
    file: 'legal.yaml',
    from: "    - ru: 'TODO: название и адрес оператора'\n",
    to: "'Заявки удаляются через {{ keepDays }} дней после поступления.'",
    code: 'days-word-twice',
    says: /"180 дней дней"/,
  },
  // Written with escapes, in a file that holds neither "{{" nor "$t(" as such (the checks skip a file by its text).
  {
    name: 'a variable written with an escape in a content text',
    file: 'faq.yaml',
    from: '    en: When can we enrol?\n',
    to: '"When can we enrol \\x7B{x}}?"',
    code: 'unknown-variable',
    says: /\{\{x\}\}/,
  },
  {
    name: 'nesting written with an escape in a content text',
    file: 'faq.yaml',
    from: '  de: Häufige Fragen\n',
    to: '"\\u0024t(nav.menu)"',
    code: 'i18next-syntax',
    says: /\$t\(/,
  },
];

/**
 * The copy with one text changed (`from`: the key and its value, on one line or a placeholder in
 * every language below it), and the 1-based line and column of the problem: where the new value
 * starts, or for raw HTML where its tag starts (the error underlines the tag alone), for a word for days
 * where the last variable before it starts.
 */
function edited(c: Case) {
  const text = readFileSync(join(FIXTURE, c.file), 'utf8');
  const at = text.indexOf(c.from);
  expect(at, `${c.from} in ${c.file}`).toBeGreaterThanOrEqual(0);
  const key = `${c.from.slice(0, c.from.indexOf(':') + 1)} `;
  const changed = `${text.slice(0, at)}${key}${c.to}\n${text.slice(at + c.from.length)}`;
  const start = at + key.length;
  const line = changed.slice(0, start).split('\n').length;
  // Raw HTML is underlined at its tag, a word for days at the variable it follows.
  const part = c.code === 'raw-html' ? c.to.indexOf('<') : c.code === 'days-word-twice' ? c.to.lastIndexOf('{{') : 0;
  const column = start - changed.lastIndexOf('\n', start - 1) + part;
  return { copy: contentCopy({ [c.file]: changed }), line, column };
}

describe('validate: texts i18next would interpret, and one-line texts', () => {
  for (const c of CASES)
    it(c.name, async () => {
      const { copy, line, column } = edited(c);
      try {
        const run = await runBounded(['validate', '--content', copy.dir, '--format', 'json', '--today', '2026-11-22']);
        expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
        expect(run.code).toBe(1);
        const errors = (JSON.parse(run.stdout) as { problems: JsonProblem[] }).problems.filter((p) => p.severity === 'error');
        expect(errors.map((p) => `${p.code} ${p.file}:${p.line}:${p.column}`)).toEqual([`${c.code} ${c.file}:${line}:${column}`]);
        expect(errors[0]!.message).toMatch(c.says);
        expect(errors[0]!.hint).toBeTruthy();
      } finally {
        copy.cleanup();
      }
    });

  it('build stops on $t(…) in ui.yaml before writing anything', async () => {
    const { copy, line, column } = edited(CASES[0]!);
    const out = `${copy.dir}-site`;
    try {
      const run = await runBounded(['build', '--content', copy.dir, '--out', out, '--today', '2026-11-22'], { limitMs: 50_000 });
      expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain(`${line}:${column}`);
      expect(run.stdout + run.stderr).toContain('$t(nav.mainMenu)');
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
      copy.cleanup();
    }
  });

  it('a placeholder written with an escape, in a file that has none as such, is found', async () => {
    const c: Case = { name: '', file: 'faq.yaml', from: '  en: Frequently asked questions\n', to: '"\\x54ODO: questions"', code: 'placeholder', says: /TODO/ };
    const { copy, line, column } = edited(c);
    try {
      const run = await runBounded(['validate', '--content', copy.dir, '--format', 'json', '--today', '2026-11-22']);
      const found = (JSON.parse(run.stdout) as { problems: JsonProblem[] }).problems.filter((p) => p.file === c.file);
      expect(found.map((p) => `${p.code} ${p.file}:${p.line}:${p.column}`)).toEqual([`placeholder faq.yaml:${line}:${column}`]);
    } finally {
      copy.cleanup();
    }
  });

  it('the frozen fixture content has no errors', async () => {
    const run = await runBounded(['validate', '--content', FIXTURE, '--format', 'json', '--today', '2026-11-22']);
    expect((JSON.parse(run.stdout) as { errors: number }).errors).toBe(0);
    expect(run.code).toBe(0);
  });
});
