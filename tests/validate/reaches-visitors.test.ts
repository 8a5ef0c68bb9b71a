import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromCatalogue } from '../../cli/report/problem.ts';
import type { ProblemCode } from '../../cli/report/problems.ts';
import { contentCopy, FIXTURE, runCli } from '../helpers/cli.ts';
import type { JsonProblem as Reported } from './bounded-cli.ts';

type JsonProblem = Reported & { path?: string };

/**
 * What passed validate silently and reached visitors wrong (issue #34, section 3): an amount
 * written with a thousands separator, a UI text whose variable the site does not fill, a word with
 * letters of two alphabets, mojibake, a backslash at a line end, a Russian text in an en: or de:
 * line. Each edit is made to a copy of the fixture content; the problems it adds are listed
 * exactly, at the line and column of the characters to change. The harmless edits beside them
 * must add nothing.
 */

interface Case {
  name: string;
  file: string;
  /** The first occurrence of `from` (at a line start) becomes `to`. */
  from: string;
  to: string;
  /** Every problem the edit adds: "code file" at `at` (a text of `to`, its first occurrence; default: where `to` starts), or "code file line:column". */
  want: string[];
  at?: string;
  /** The first added problem's message, expected, found and hint say these. */
  says?: RegExp;
  expected?: string;
  found?: string;
  hint?: string;
}

const CASES: Case[] = [
  // Amounts
  {
    name: 'a German thousands separator in the price list (1.200 read as 1.2)',
    file: 'prices.yaml',
    from: '      amount: 180\n',
    to: '      amount: 1.200\n',
    at: '1.200',
    want: ['price-thousands-separator prices.yaml', 'price-mismatch courses/vocal.yaml 31:11'],
    says: /"1\.200" is read as 1\.2 €/,
    expected: '1200',
    found: '1.200 (read as 1.2 €)',
    hint: 'For 1200 euros write 1200, without a separator; if 1.2 € is meant, write 1.2.',
  },
  {
    name: 'a thousands separator in a table of amounts',
    file: 'prices.yaml',
    from: '      - 190\n',
    to: '      - 1.900\n',
    at: '1.900',
    want: ['price-thousands-separator prices.yaml'],
    says: /read as 1\.9 €/,
  },
  {
    name: 'a thousands separator with trailing zeros lost (2.000 read as 2)',
    file: 'courses/piano.yaml',
    from: '  amount: 120\n',
    to: '  amount: 2.000\n',
    at: '2.000',
    want: ['price-thousands-separator courses/piano.yaml', 'price-mismatch courses/piano.yaml 31:11'],
    says: /"2\.000" is read as 2 €/,
  },
  {
    name: 'a thousands separator that reads as a plausible price (12.500 read as 12.5)',
    file: 'prices.yaml',
    from: '      amount: 20\n',
    to: '      amount: 12.500\n',
    at: '12.500',
    want: ['price-thousands-separator prices.yaml'],
    hint: 'For 12500 euros write 12500',
  },
  {
    name: 'an amount below 5 € beside prices of tens and hundreds',
    file: 'prices.yaml',
    from: '      amount: 120\n',
    to: '      amount: 1.2\n',
    at: '1.2',
    want: ['price-suspiciously-low prices.yaml'],
    says: /"1\.2" is read as 1\.2 €, beside prices of \d+–\d+ €/,
  },
  {
    name: 'a whole amount below 5 €',
    file: 'prices.yaml',
    from: '      amount: 20\n',
    to: '      amount: 2\n',
    at: '2',
    want: ['price-suspiciously-low prices.yaml'],
  },
  // Variables of UI texts
  {
    name: 'a variable in single braces (ab {amount})',
    file: 'ui.yaml',
    from: '    de: ab {{amount}}\n',
    to: '    de: ab {amount}\n',
    at: '{amount}',
    want: ['single-brace-variable ui.yaml'],
    says: /German text writes "\{amount\}" in single braces.*visitors would see "\{amount\}"/,
    hint: 'Write {{amount}}',
  },
  {
    name: 'a variable in single braces with spaces, in a plural form',
    file: 'ui.yaml',
    from: "    en: '{{count}} lessons'\n",
    to: "    en: '{ count } lessons'\n",
    at: '{ count }',
    want: ['single-brace-variable ui.yaml'],
  },
  {
    name: 'single braces around a name the site does not pass',
    file: 'ui.yaml',
    from: '    de: Menü\n',
    to: '    de: Menü {x}\n',
    at: '{x}',
    want: ['single-brace-variable ui.yaml'],
    says: /fills in no such value/,
  },
  {
    name: 'a translation that leaves its variable out (the visitor sees no price)',
    file: 'ui.yaml',
    from: '    en: from {{amount}}\n',
    to: '    en: from\n',
    at: 'from',
    want: ['missing-variable ui.yaml'],
    says: /English text leaves out \{\{amount\}\}/,
    hint: '"от {{amount}}"',
  },
  {
    name: 'a Russian text that leaves its variable out',
    file: 'ui.yaml',
    from: '    ru: Не более {{max}} символов\n',
    to: '    ru: Не более 100 символов\n',
    at: 'Не более',
    want: ['missing-variable ui.yaml'],
    hint: 'the site passes it to form.errorTooLong',
  },
  // Letters
  {
    name: 'a Cyrillic letter inside a German word (Studioaufnаhme)',
    file: 'courses/vocal.yaml',
    from: '  de: Gesangsunterricht\n',
    to: '  de: Gesangsunterricht im Studio, Studioaufnаhme\n',
    at: 'Studioaufnаhme',
    want: ['mixed-script courses/vocal.yaml'],
    says: /"а" is Cyrillic/,
    hint: '"Studioaufnahme"',
  },
  {
    name: 'a Latin letter inside a Russian word',
    file: 'courses/vocal.yaml',
    from: '  ru: Вокал\n',
    to: '  ru: Вокaл\n',
    at: 'Вокaл',
    want: ['mixed-script courses/vocal.yaml'],
    says: /mixes Latin letters into a Cyrillic word/,
    hint: '"Вокал"',
  },
  {
    name: 'mojibake of a German letter (fÃ¼r)',
    file: 'courses/vocal.yaml',
    from: '  de: "Gesangsunterricht für Kinder',
    to: '  de: "Gesangsunterricht fÃ¼r Kinder',
    at: 'fÃ¼r',
    want: ['mojibake courses/vocal.yaml'],
    says: /"fÃ¼r" is "für" garbled/,
  },
  {
    name: 'mojibake of Russian read as Latin-1 (Ð¡…)',
    file: 'courses/vocal.yaml',
    from: '  ru: Вокал\n',
    to: '  ru: Ð¡Ð¾Ð»ÑŒÑ„ÐµÐ´Ð¶Ð¸Ð¾\n',
    at: 'Ð¡',
    want: ['mojibake courses/vocal.yaml'],
    says: /is "Сольфеджио" garbled/,
  },
  {
    name: 'mojibake of Russian read as Windows-1251 (РџСЂ…)',
    file: 'courses/vocal.yaml',
    from: '  ru: Вокал\n',
    to: '  ru: Вокал РџСЂРёРІРµС‚\n',
    at: 'РџСЂРёРІРµС‚',
    want: ['mojibake courses/vocal.yaml'],
    says: /"Привет" garbled: .*Windows-1251/,
  },
  {
    name: 'a backslash at the end of a text',
    file: 'courses/vocal.yaml',
    from: '  en: Singing lessons\n',
    to: '  en: Singing lessons \\\n',
    at: '\\',
    want: ['trailing-backslash courses/vocal.yaml'],
  },
  {
    name: 'a backslash at the end of a line inside a text that goes on',
    file: 'courses/vocal.yaml',
    from: '  de: Einzelunterricht, eine Erwachsenengruppe und Kindergruppen\n',
    to: '  de: Einzelunterricht, \\\n    eine Erwachsenengruppe und Kindergruppen\n',
    at: '\\',
    want: ['trailing-backslash courses/vocal.yaml'],
  },
  {
    name: 'a Russian text in an en: line',
    file: 'courses/vocal.yaml',
    from: '  en: Singing lessons\n',
    to: '  en: Уроки вокала\n',
    at: 'Уроки',
    want: ['russian-in-translation courses/vocal.yaml'],
    says: /English text is in Russian: visitors of \/en\//,
  },
  {
    name: 'the Russian text copied into a de: line',
    file: 'courses/vocal.yaml',
    from: '  de: Gesangsunterricht\n',
    to: '  de: Вокал\n',
    at: 'Вокал',
    want: ['russian-in-translation courses/vocal.yaml'],
    says: /German text is the Russian text copied/,
  },
  // Harmless: nothing added
  { name: 'an amount with cents', file: 'prices.yaml', from: '      amount: 20\n', to: '      amount: 12.50\n', want: [] },
  { name: 'a free line (0 €)', file: 'prices.yaml', from: '      amount: 20\n', to: '      amount: 0\n', want: [] },
  { name: 'the number in words in an English singular form', file: 'ui.yaml', from: "    en: '{{count}} lesson'\n", to: '    en: one lesson\n', want: [] },
  { name: 'a variable with spaces inside its double braces', file: 'ui.yaml', from: '    en: from {{amount}}\n', to: '    en: from {{ amount }}\n', want: [] },
  {
    name: 'a Russian title quoted in a German text',
    file: 'courses/vocal.yaml',
    from: '  de: Gesangsunterricht\n',
    to: '  de: Gesangsunterricht mit Liedern wie «Катюша»\n',
    want: [],
  },
  { name: 'a Latin brand beside a Russian word', file: 'courses/vocal.yaml', from: '  ru: Вокал\n', to: '  ru: Вокал и YouTube-канал студии\n', want: [] },
  {
    name: 'German quotes around a word ending in ß',
    file: 'courses/vocal.yaml',
    from: '  de: Gesangsunterricht\n',
    to: '  de: Gesangsunterricht „mit Spaß“ und «Übung»\n',
    want: [],
  },
];

const TODAY = '2026-11-22';
const key = (p: JsonProblem) => `${p.file}|${p.code}|${p.path ?? ''}|${p.message}`;
let baseline: Set<string>;

async function problems(dir: string): Promise<JsonProblem[]> {
  const run = await runCli(['validate', '--content', dir, '--format', 'json', '--today', TODAY]);
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  return (JSON.parse(run.stdout) as { problems: JsonProblem[] }).problems;
}

beforeAll(async () => {
  const copy = contentCopy();
  try {
    baseline = new Set((await problems(copy.dir)).map(key));
  } finally {
    copy.cleanup();
  }
});

/** Line and column (1-based) of offset `at` of `text`. */
const position = (text: string, at: number) => `${text.slice(0, at).split('\n').length}:${at - text.lastIndexOf('\n', at - 1)}`;

describe('validate: what passed silently and reached visitors wrong (issue #34)', () => {
  for (const c of CASES)
    it(c.name, async () => {
      const text = readFileSync(join(FIXTURE, c.file), 'utf8');
      const start = text.startsWith(c.from) ? 0 : text.indexOf(`\n${c.from}`) + 1;
      expect(start, `"${c.from}" in ${c.file}`).toBeGreaterThan(0);
      const changed = text.slice(0, start) + c.to + text.slice(start + c.from.length);
      const copy = contentCopy({ [c.file]: changed });
      try {
        const added = (await problems(copy.dir)).filter((p) => !baseline.has(key(p)));
        const here = position(changed, c.at === undefined ? start : changed.indexOf(c.at, start));
        const want = c.want.map((w) => (w.split(' ').length === 2 ? `${w} ${here}` : w));
        expect(added.map((p) => `${p.code} ${p.file} ${p.line}:${p.column}`).sort(), JSON.stringify(added, null, 1)).toEqual(want.sort());
        for (const p of added) {
          expect(fromCatalogue(p.code as ProblemCode, p.message), p.message).toBe(true);
          expect(p.hint).toMatch(/\w{3}/);
          expect(`${p.message} ${p.hint}`).not.toMatch(/undefined|\[object/);
        }
        const first = added.find((p) => p.code === c.want[0]!.split(' ')[0]);
        if (c.says) expect(first?.message).toMatch(c.says);
        if (c.expected) expect(first?.expected).toContain(c.expected);
        if (c.found) expect(first?.found).toContain(c.found);
        if (c.hint) expect(first?.hint).toContain(c.hint);
      } finally {
        copy.cleanup();
      }
    });
});
