import { afterEach, describe, expect, it, vi } from 'vitest';
import { paint, useColor } from '../../cli/report/colors.ts';
import { formatGithub, formatHuman, formatJson, printReport, report, summaryLines } from '../../cli/report/format-problems.ts';
import { editorPath, type Problem } from '../../cli/report/problem.ts';
import { runCliProcess } from '../helpers/cli.ts';

const plain = paint(false);

const priceError: Problem = {
  code: 'wrong-type',
  severity: 'error',
  message: '"40 €" is not a number.',
  file: 'courses/vocal.yaml',
  line: 4,
  column: 11,
  endLine: 4,
  endColumn: 15,
  path: 'price.amount',
  expected: 'a number',
  found: 'the text "40 €"',
  hint: 'Write only the number: 40.\nAmounts are always in euros.',
};
const mismatch: Problem = {
  code: 'price-mismatch',
  severity: 'warning',
  message: 'The course page states 40 EUR per month, but the price list says 60 EUR per month.',
  file: 'courses/choir.yaml',
  line: 2,
  column: 11,
  path: 'price.amount',
  expected: '60 EUR per month',
  found: '40 EUR per month',
  hint: 'Visitors see both numbers.',
};
/** A placeholder shown on the page named after its file (a teacher's on /teachers), or, with `where: null`, on no page. */
const placeholder = (
  file: string,
  path: string,
  line: number,
  where: string | null = file.startsWith('teachers/') ? '/teachers' : `/${file.replace('.yaml', '')}`,
): Problem => ({
  code: 'placeholder',
  severity: 'warning',
  message: `Placeholder: ${path}${where ? '' : ' (shown on no page)'}.`,
  file,
  line,
  column: 7,
  path,
  found: `TODO: ${path}`,
  hint: 'Replace it with the real value before publishing.',
  ...(where && { where }),
});
/** Sorted as validate sorts them. */
const PROBLEMS: Problem[] = [
  mismatch,
  priceError,
  placeholder('schedule.yaml', 'entries[0].day', 3),
  placeholder('schedule.yaml', 'entries[1].day.ru', 8),
  placeholder('site.yaml', 'contacts.phone', 9),
  ...['a', 'b', 'c'].flatMap((t) => [placeholder(`teachers/${t}.yaml`, 'name', 2), placeholder(`teachers/${t}.yaml`, 'edu.ru', 5)]),
];
const SOURCES = new Map([
  ['courses/vocal.yaml', 'route: /vocal\norder: 1\nprice:\n  amount: 40 €\n  per: month\n'],
  ['courses/choir.yaml', 'price:\n  amount: 40\n'],
]);

describe('formatHuman', () => {
  it('prints an error in full with its code frame, other warnings on one line, placeholders one line per file, then the summary', () => {
    const out = formatHuman(PROBLEMS, { paint: plain, sources: SOURCES, prefix: 'content/', fileCount: 12 });
    expect(out.split('\n')).toEqual([
      'content/courses/choir.yaml',
      '  2:11    warning The course page states 40 EUR per month, but the price list says 60 EUR per month. [price-mismatch]',
      '          hint     Visitors see both numbers.',
      '',
      'content/courses/vocal.yaml',
      '  4:11    error "40 €" is not a number. [wrong-type]',
      '          at       price › amount',
      '          expected a number',
      '          found    the text "40 €"',
      '          2 | order: 1',
      '          3 | price:',
      '        > 4 |   amount: 40 €',
      '            |           ^^^^',
      '          5 |   per: month',
      '          hint     Write only the number: 40.',
      '                   Amounts are always in euros.',
      '',
      'Placeholders ("TODO: …", shown to visitors as written on the pages named; replace them before publishing, or see each with --verbose):',
      '  content/schedule.yaml                 2 — day ×2 · on /schedule',
      '  content/site.yaml                     1 — phone · on /site',
      '  content/teachers/*.yaml (all 3)  2 each — name, edu · on /teachers',
      '',
      '✗ 1 error in 1 of 12 files; 10 warnings (9 placeholders) in 6 of 12 files.',
      '  First error: content/courses/vocal.yaml:4:11  "40 €" is not a number.',
    ]);
  });

  it('names the pages each placeholder is on, and lists those no page shows apart, never as shown to visitors (issue 38)', () => {
    const problems = [
      placeholder('courses/concentration.yaml', 'summary.ru', 9, null),
      placeholder('courses/concentration.yaml', 'age.ru', 13, null),
      placeholder('prices.yaml', 'notes[0].ru', 4, '/prises'),
      placeholder('site.yaml', 'legalName', 6, null),
    ];
    expect(formatHuman(problems, { paint: plain, prefix: 'content/' }).split('\n').slice(0, 7)).toEqual([
      'Placeholders ("TODO: …", shown to visitors as written on the pages named; replace them before publishing, or see each with --verbose):',
      '  content/prices.yaml  1 — notes · on /prises',
      '',
      'Placeholders shown on no page (no visitor reads them yet; fill them in before they are published):',
      '  content/courses/concentration.yaml  2 — summary, age',
      '  content/site.yaml                   1 — legalName',
      '',
    ]);
  });

  it('gives files of a folder a line each unless every one of at least three has the same placeholders', () => {
    const two = PROBLEMS.filter((p) => p.file !== 'teachers/c.yaml');
    const lines = formatHuman(two, { paint: plain, prefix: 'content/' }).split('\n');
    expect(lines).toContain('  content/teachers/a.yaml  2 — name, edu · on /teachers');
    expect(lines).toContain('  content/teachers/b.yaml  2 — name, edu · on /teachers');
    const different = [...PROBLEMS, placeholder('teachers/c.yaml', 'text1', 7)];
    expect(formatHuman(different, { paint: plain }).split('\n')).toContain('  teachers/c.yaml  3 — name, edu, text1 · on /teachers');
  });

  it('with quiet, leaves warnings out but still counts them', () => {
    const out = formatHuman(PROBLEMS, { paint: plain, quiet: true, fileCount: 12 });
    expect(out).not.toContain('courses/choir.yaml');
    expect(out).not.toContain('Placeholder');
    expect(out.split('\n').slice(0, 2)).toEqual(['courses/vocal.yaml', '  4:11    error "40 €" is not a number. [wrong-type]']);
    expect(out).toContain('✗ 1 error in 1 of 12 files; 10 warnings (9 placeholders) in 6 of 12 files.');
  });

  it('with verbose, shows every placeholder, and where and what each warning found', () => {
    const out = formatHuman(PROBLEMS, { paint: plain, sources: SOURCES, verbose: true });
    expect(out).not.toContain('Placeholders (');
    expect(out.match(/warning Placeholder:/g)).toHaveLength(9);
    expect(out).toContain(
      [
        'site.yaml',
        '  9:7     warning Placeholder: contacts.phone. [placeholder]',
        '          at       contacts › phone',
        '          found    TODO: contacts.phone',
        '          hint     Replace it with the real value before publishing.',
      ].join('\n'),
    );
    // A warning never gets a code frame.
    expect(out).not.toContain('> 2 |   amount: 40');
  });

  it('prints a problem without a position with an empty place', () => {
    const out = formatHuman([{ code: 'missing-file', severity: 'error', message: 'There is no routes.yaml.', file: 'routes.yaml' }], { paint: plain });
    expect(out.split('\n')[1]).toBe('          error There is no routes.yaml. [missing-file]');
  });

  it('colours only with a painter that colours', () => {
    expect(formatHuman(PROBLEMS, { paint: plain, sources: SOURCES })).not.toContain('\u001b[');
    const coloured = formatHuman(PROBLEMS, { paint: paint(true), sources: SOURCES });
    expect(coloured).toContain('\u001b[1m\u001b[36mcourses/vocal.yaml\u001b[39m\u001b[22m');
    expect(coloured).toContain(' \u001b[31merror\u001b[39m "40 €" is not a number. \u001b[2m[wrong-type]\u001b[22m');
    expect(coloured).toContain('|           \u001b[31m^^^^\u001b[39m');
  });
});

describe('summaryLines', () => {
  const error = (file: string, line?: number): Problem => ({
    code: 'not-valid',
    severity: 'error',
    message: `Wrong in ${file}.`,
    file,
    line,
    column: line && 3,
  });

  it('says when there is nothing to report', () => {
    expect(summaryLines([], plain, { fileCount: 44 })).toEqual(['✓ No problems found in 44 files.']);
    expect(summaryLines([], plain, { fileCount: 1 })).toEqual(['✓ No problems found in 1 file.']);
    expect(summaryLines([], plain)).toEqual(['✓ No problems found.']);
  });

  it('counts warnings, and fails on them only with --strict', () => {
    expect(summaryLines([mismatch], plain, { fileCount: 3 })).toEqual(['✓ No errors; 1 warning in 1 of 3 files.']);
    expect(summaryLines([mismatch, placeholder('courses/choir.yaml', 'age', 4)], plain, { fileCount: 3, strict: true })).toEqual([
      '✗ 2 warnings (1 placeholder) in 1 of 3 files, and --strict counts every warning as an error: fix them before publishing.',
    ]);
  });

  it('names the first error in file and line order, wherever it is in the list', () => {
    expect(summaryLines([error('b.yaml', 1), error('a.yaml', 9), error('a.yaml', 2)], plain, { prefix: 'content/' })).toEqual([
      '✗ 3 errors in 2 files; no warnings.',
      '  First error: content/a.yaml:2:3  Wrong in a.yaml.',
    ]);
    expect(summaryLines([error('a.yaml'), mismatch], plain)).toEqual(['✗ 1 error in 1 file; 1 warning in 1 file.', '  First error: a.yaml  Wrong in a.yaml.']);
  });
});

describe('formatJson', () => {
  it('is one JSON document: what the command adds, the counts, every problem as it is', () => {
    const out = formatJson(PROBLEMS, { files: 12, strict: false });
    const parsed = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['files', 'strict', 'errors', 'warnings', 'problems']);
    expect(parsed).toEqual({ files: 12, strict: false, errors: 1, warnings: 10, problems: PROBLEMS });
    expect(out.split('\n')[1]).toBe('  "files": 12,');
    expect(JSON.parse(formatJson([]))).toEqual({ errors: 0, warnings: 0, problems: [] });
  });
});

describe('formatGithub', () => {
  it('writes one workflow command per problem, with its place and every detail in the message', () => {
    expect(formatGithub([priceError, placeholder('site.yaml', 'contacts.phone', 9)], { prefix: 'content/' }).split('\n')).toEqual([
      '::error file=content/courses/vocal.yaml,line=4,col=11,endLine=4,title=wrong-type::"40 €" is not a number.%0Aat price › amount%0Aexpected: a number%0Afound: the text "40 €"%0Ahint: Write only the number: 40.%0AAmounts are always in euros.',
      '::warning file=content/site.yaml,line=9,col=7,title=placeholder::Placeholder: contacts.phone.%0Aat contacts › phone%0Afound: TODO: contacts.phone%0Ahint: Replace it with the real value before publishing.',
    ]);
  });

  it('leaves out what a problem does not have', () => {
    expect(formatGithub([{ code: 'missing-file', severity: 'error', message: 'There is no routes.yaml.', file: 'routes.yaml' }])).toBe(
      '::error file=routes.yaml,title=missing-file::There is no routes.yaml.',
    );
    expect(formatGithub([{ code: 'yaml-tab', severity: 'error', message: 'A tab.', file: 'a.yaml', line: 3 }])).toBe(
      '::error file=a.yaml,line=3,col=1,title=yaml-tab::A tab.',
    );
    expect(formatGithub([])).toBe('');
  });

  it('escapes what would end the command early or split it', () => {
    const odd: Problem = { code: 'not-valid', severity: 'error', message: '100% wrong:\r\nsee, here:: it', file: 'dir, with: 50%/a.yaml', line: 1, column: 2 };
    expect(formatGithub([odd])).toBe('::error file=dir%2C with%3A 50%25/a.yaml,line=1,col=2,title=not-valid::100%25 wrong:%0D%0Asee, here:: it');
    expect(formatGithub([odd]).split('\n')).toHaveLength(1);
  });
});

describe('colours', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const tty = { isTTY: true } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as NodeJS.WriteStream;

  it('are on for a terminal and off for a pipe or a file', () => {
    vi.stubEnv('NO_COLOR', undefined);
    vi.stubEnv('FORCE_COLOR', undefined);
    expect(useColor(tty)).toBe(true);
    expect(useColor(pipe)).toBe(false);
  });

  it('are off with NO_COLOR (unless it is empty), even with FORCE_COLOR; FORCE_COLOR turns them on for a pipe', () => {
    vi.stubEnv('FORCE_COLOR', undefined);
    vi.stubEnv('NO_COLOR', '1');
    expect(useColor(tty)).toBe(false);
    vi.stubEnv('FORCE_COLOR', '1');
    expect(useColor(tty)).toBe(false);
    vi.stubEnv('NO_COLOR', '');
    expect(useColor(pipe)).toBe(true);
    vi.stubEnv('FORCE_COLOR', '0');
    expect(useColor(pipe)).toBe(false);
    expect(useColor(tty)).toBe(true);
  });

  it('reach content validate: none when its output is piped, some with FORCE_COLOR', async () => {
    const piped = await runCliProcess(['validate', '--today', '2026-11-22'], { env: { NO_COLOR: '', FORCE_COLOR: '' } });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('✓ No errors');
    expect(piped.stdout).not.toContain('\u001b[');
    const forced = await runCliProcess(['validate', '--today', '2026-11-22'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[32m✓ No errors\u001b[39m');
  });
});

describe('the place of a problem, as editors count', () => {
  it('counts list items from 1 and names them ("the 15th item"), not items[14]', () => {
    expect(editorPath('categories[1].items[14].price')).toBe('categories › 2nd item › items › 15th item › price');
    expect(editorPath('features[0].en')).toBe('features › 1st item › en');
    expect(editorPath('entries[10].day')).toBe('entries › 11th item › day');
    expect(editorPath('entries[20]')).toBe('entries › 21st item');
    expect(editorPath('price.amount')).toBe('price › amount');
  });
});

describe('report, the one entry point of the three formats', () => {
  it('gives each format its formatter, its own fields, and --strict annotations as errors', () => {
    const options = { paint: plain, sources: SOURCES, prefix: 'content/', fileCount: 3 };
    expect(report(PROBLEMS, 'human', options)).toBe(formatHuman(PROBLEMS, options));
    expect(report(PROBLEMS, 'human', { sources: SOURCES })).toBe(formatHuman(PROBLEMS, { paint: plain, sources: SOURCES }));
    expect(report(PROBLEMS, 'json', { ...options, fields: { files: 3 } })).toBe(formatJson(PROBLEMS, { files: 3 }));
    expect(report(PROBLEMS, 'github', options)).toBe(formatGithub(PROBLEMS, { prefix: 'content/' }));
    expect(report([mismatch], 'github', { allErrors: true })).toBe(formatGithub([{ ...mismatch, severity: 'error' }]));
    expect(report([], 'github')).toBe('');
  });

  it('prints the output for people on the log on the log, the others on stdout, and nothing for no annotations', () => {
    const lines: string[] = [];
    const log = { paint: plain, info: (m: string) => lines.push(`info ${m}`), out: (t: string) => lines.push(`out ${t}`) };
    printReport(log, [], 'github');
    printReport(log, [], 'human');
    printReport(log, [], 'json');
    expect(lines).toEqual(['info ✓ No problems found.', `out ${formatJson([])}`]);
  });
});
