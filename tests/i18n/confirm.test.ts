import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Document, parse, parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { collectTranslatable } from '../../cli/i18n/check.ts';
import { sourceHash } from '../../cli/i18n/translation-lock.ts';
import { loadContent } from '../../cli/load/load.ts';
import { formatPath } from '../../cli/report/problem.ts';
import { CONTENT, contentCopy, runCli } from '../helpers/cli.ts';
import { lineOf } from '../helpers/synthetic.ts';

/*
 * Translations confirmed per text, on the command line: the six edits of issue #34 keep every
 * confirmation, today's translations.yaml (by position) is carried over without losing one,
 * --confirm --file confirms one file or one text, and validate says when translations wait.
 */

interface Reported {
  code: string;
  file: string;
  line: number;
  path: string;
  locale?: string;
}
interface I18nJson {
  locales: Record<string, { stale: number; missing: number }>;
  problems: Reported[];
}

/** A temporary copy of the shipped content and its translations.yaml. */
function shippedCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'studio-i18n-'));
  cpSync(CONTENT, dir, { recursive: true });
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return {
    dir,
    read,
    /** Replaces `find` in `file`; fails when the content no longer has it (the case would test nothing). */
    replace(file: string, find: string, by: string) {
      const text = read(file);
      if (!text.includes(find)) throw new Error(`The edit no longer applies: ${JSON.stringify(find)} is not in ${file}.`);
      writeFileSync(join(dir, file), text.replace(find, by));
    },
    /** Changes `file` as a YAML document (its comments and layout kept). */
    edit(file: string, change: (doc: Document) => void) {
      const doc = parseDocument(read(file));
      change(doc);
      writeFileSync(join(dir, file), doc.toString({ lineWidth: 0 }));
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const i18n = async (dir: string, ...args: string[]) => {
  const r = await runCli(['i18n', '--content', dir, '--format', 'json', ...args]);
  return { code: r.code, stderr: r.stderr, report: JSON.parse(r.stdout) as I18nJson };
};
const waiting = (r: I18nJson, code = 'stale-translation') =>
  r.problems
    .filter((p) => p.code === code)
    .map((p) => `${p.file}#${p.path}`)
    .sort();
const items = (doc: Document, path: (string | number)[]) => (doc.getIn(path, true) as YAMLSeq).items;

/** A route with every text translated, as an editor adds one. */
const HOLIDAYS = parseDocument(`path: /holidays
page: faq
title:
  ru: Каникулы
  en: Holidays
  de: Ferien
description:
  ru: Когда студия закрыта на каникулы.
  en: When the studio is closed for the holidays.
  de: Wann das Studio in den Ferien geschlossen ist.
`).contents as YAMLMap;

describe('the everyday edits of issue #34 keep every confirmation', () => {
  const EDITS: [string, string, (doc: Document) => void][] = [
    [
      'a translated route inserted before /faq',
      'routes.yaml',
      (doc) => {
        const routes = items(doc, ['routes']);
        routes.splice(
          routes.findIndex((r) => (r as YAMLMap).get('path') === '/faq'),
          0,
          HOLIDAYS.clone(),
        );
      },
    ],
    [
      'two FAQ entries swapped',
      'faq.yaml',
      (doc) => {
        const faq = items(doc, ['items']);
        [faq[1], faq[2]] = [faq[2], faq[1]];
      },
    ],
    ['the last FAQ entry moved to the top', 'faq.yaml', (doc) => items(doc, ['items']).unshift(items(doc, ['items']).pop())],
    ['a banner in the middle deleted', 'banners.yaml', (doc) => items(doc, ['banners']).splice(Math.floor(items(doc, ['banners']).length / 2), 1)],
    ['the banners reordered', 'banners.yaml', (doc) => items(doc, ['banners']).reverse()],
    ['a price group moved', 'prices.yaml', (doc) => items(doc, ['categories']).push(items(doc, ['categories']).splice(1, 1)[0])],
  ];

  it.each(EDITS)('%s: nothing stale, validate and i18n --strict pass', async (_, file, change) => {
    const copy = shippedCopy();
    try {
      copy.edit(file, change);
      const valid = await runCli(['validate', '--content', copy.dir, '--format', 'json']);
      expect(valid.code, valid.stdout).toBe(0);
      const r = await i18n(copy.dir, '--strict');
      expect(waiting(r.report)).toEqual([]);
      expect(r.code).toBe(0);
      // A new route's texts wait for their first confirmation; nothing else does.
      expect(waiting(r.report, 'unconfirmed-translation')).toEqual(
        file === 'routes.yaml' ? expect.arrayContaining([expect.stringMatching(/^routes\.yaml#routes\[\d+\]\.title\.en$/)]) : [],
      );
      expect(waiting(r.report, 'unconfirmed-translation')).toHaveLength(file === 'routes.yaml' ? 4 : 0);
    } finally {
      copy.cleanup();
    }
  });
});

describe("today's translations.yaml, by position, is carried over", () => {
  /** What the file of today's form says of each translation: the hash recorded at its position, against its Russian text's. */
  function byPosition(dir: string): Map<string, 'confirmed' | 'stale' | 'unconfirmed'> {
    const lock = parse(readFileSync(join(dir, 'translations.yaml'), 'utf8')) as { confirmed: Record<string, Record<string, string>> };
    const statuses = new Map<string, 'confirmed' | 'stale' | 'unconfirmed'>();
    for (const t of collectTranslatable(loadContent(dir).files))
      for (const locale of ['en', 'de']) {
        if (!t.value[locale as 'en']?.trim() || t.value.ru === undefined) continue;
        const recorded = lock.confirmed[locale]?.[t.key];
        statuses.set(
          `${t.source.file}#${formatPath([...t.path, locale])}`,
          recorded === undefined ? 'unconfirmed' : recorded === sourceHash(t.value.ru) ? 'confirmed' : 'stale',
        );
      }
    return statuses;
  }
  const withStatus = (statuses: Map<string, string>, status: string) =>
    [...statuses]
      .filter(([, s]) => s === status)
      .map(([k]) => k)
      .sort();

  it('every translation confirmed before is confirmed after, read and written; a stale one stays stale', async () => {
    const copy = contentCopy(); // the frozen content with a copy of today's translations.yaml
    try {
      const lockFile = join(copy.dir, 'translations.yaml');
      expect(readFileSync(lockFile, 'utf8')).toContain('faq.yaml#items[0].answer[0]: '); // today's form
      // Two Russian texts changed since their translations were confirmed: one by its key, one in a list without ids.
      const edit = (file: string, find: string, by: string) =>
        writeFileSync(join(copy.dir, file), readFileSync(join(copy.dir, file), 'utf8').replace(find, by));
      edit('courses/vocal.yaml', '  ru: Вокал', '  ru: Вокал для детей');
      edit('faq.yaml', '- ru: Основной набор проходит', '- ru: Главный набор проходит');
      const before = byPosition(copy.dir);
      const confirmed = withStatus(before, 'confirmed');
      expect(confirmed.length).toBeGreaterThan(1400);
      expect(withStatus(before, 'stale')).toEqual([
        'courses/vocal.yaml#title.de',
        'courses/vocal.yaml#title.en',
        'faq.yaml#items[0].answer[0].de',
        'faq.yaml#items[0].answer[0].en',
      ]);

      // Read: taken for the texts at those positions.
      const read = await i18n(copy.dir);
      expect(waiting(read.report)).toEqual(withStatus(before, 'stale'));
      expect(waiting(read.report, 'unconfirmed-translation')).toEqual(withStatus(before, 'unconfirmed'));

      // Written by the next --confirm (of one file here), by identity: still nothing lost.
      expect((await runCli(['i18n', '--content', copy.dir, '--confirm', '--file', 'site.yaml'])).code).toBe(0);
      const written = readFileSync(lockFile, 'utf8');
      // The file keeps the schema line it had (the fixture's is one level deeper than the shipped content's).
      expect(written.split('\n')[0]).toBe('# yaml-language-server: $schema=../../../schemas/translations.schema.json');
      expect(written).not.toMatch(/\[\d+\]/);
      expect(written).toContain('faq.yaml#items[id=enrolment].answer[*]:');
      expect(written).toContain('banners.yaml#banners[id=school-prep].title: ');
      const after = await i18n(copy.dir);
      expect(waiting(after.report)).toEqual(withStatus(before, 'stale'));
      expect(waiting(after.report, 'unconfirmed-translation')).toEqual(withStatus(before, 'unconfirmed'));

      // From now on by identity: the FAQ entries reversed, the same two texts stale, at their new places.
      const copyEdit = parseDocument(readFileSync(join(copy.dir, 'faq.yaml'), 'utf8'));
      (copyEdit.get('items', true) as YAMLSeq).items.reverse();
      writeFileSync(join(copy.dir, 'faq.yaml'), copyEdit.toString({ lineWidth: 0 }));
      const last = (parse(readFileSync(join(copy.dir, 'faq.yaml'), 'utf8')) as { items: unknown[] }).items.length - 1;
      const moved = await i18n(copy.dir, '--strict');
      expect(waiting(moved.report)).toEqual([
        'courses/vocal.yaml#title.de',
        'courses/vocal.yaml#title.en',
        `faq.yaml#items[${last}].answer[0].de`,
        `faq.yaml#items[${last}].answer[0].en`,
      ]);
    } finally {
      copy.cleanup();
    }
  });
});

describe('content i18n --confirm --file', () => {
  it('confirms one text by the line of a translation (that language), then a whole file; other files keep theirs', async () => {
    const copy = shippedCopy();
    try {
      copy.replace('faq.yaml', 'ru: Можно ли прийти на пробное занятие?', 'ru: Можно ли прийти на пробный урок?');
      copy.replace('faq.yaml', '- ru: Пропущенные групповые занятия не переносятся', '- ru: Пропущенные групповые уроки не переносятся');
      copy.replace('courses/vocal.yaml', '  ru: Вокал', '  ru: Вокал для детей');
      const faq = copy.read('faq.yaml');
      const question = lineOf(faq, 'ru: Можно ли прийти на пробный урок?');
      expect(waiting((await i18n(copy.dir)).report)).toHaveLength(6);

      const one = await runCli(['i18n', '--content', copy.dir, '--confirm', '--file', `${copy.dir}/faq.yaml:${question + 1}:9`]);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr + one.stdout).toContain(`Confirmed 1 translation (en) of ${copy.dir}/faq.yaml:${question + 1} against its Russian text`);
      const afterOne = (await i18n(copy.dir)).report.problems.filter((p) => p.code === 'stale-translation');
      const answer = lineOf(faq, '- ru: Пропущенные групповые уроки');
      expect(afterOne.map((p) => `${p.file}:${p.line} ${p.locale}`).sort()).toEqual(
        ['courses/vocal.yaml:7 en', 'courses/vocal.yaml:8 de', `faq.yaml:${question + 2} de`, `faq.yaml:${answer + 1} en`, `faq.yaml:${answer + 2} de`].sort(),
      );

      // The line of the Russian text: every language of that one text, here the edited answer of a list without ids.
      expect((await runCli(['i18n', '--content', copy.dir, '--confirm', '--file', `faq.yaml:${answer}`])).code).toBe(0);
      expect(waiting((await i18n(copy.dir)).report)).toEqual([
        'courses/vocal.yaml#title.de',
        'courses/vocal.yaml#title.en',
        expect.stringMatching(/^faq\.yaml#items\[\d+\]\.question\.de$/),
      ]);

      const file = await runCli(['i18n', '--content', copy.dir, '--confirm', '--file', 'faq.yaml']);
      expect(file.stderr + file.stdout).toMatch(/Confirmed \d+ translations \(en, de\) of .*faq\.yaml against their Russian texts/);
      const r = await i18n(copy.dir);
      expect(waiting(r.report)).toEqual(['courses/vocal.yaml#title.de', 'courses/vocal.yaml#title.en']);
      expect(waiting(r.report, 'unconfirmed-translation')).toEqual([]);
      // The hint names the place as --file takes it.
      expect((await runCli(['i18n', '--content', copy.dir])).stdout).toContain('"content i18n --confirm --file courses/vocal.yaml:7"');
    } finally {
      copy.cleanup();
    }
  });

  it('refuses, with what to give instead, a line without a text, an unknown file, --file without --confirm, a line of another --locale', async () => {
    const copy = shippedCopy();
    try {
      const before = copy.read('translations.yaml');
      const de = lineOf(copy.read('faq.yaml'), 'de: Wann kann ich mein Kind anmelden?');
      for (const [args, message] of [
        [['--confirm', '--file', 'faq.yaml:1'], /line 1 is not the line of a text to translate[\s\S]*hint: Give the line of a text's ru, en or de/],
        [['--confirm', '--file', 'fag.yaml'], /no content file with texts to translate is called "fag\.yaml"[\s\S]*Did you mean "faq\.yaml"\?/],
        [['--file', 'faq.yaml'], /--file names what --confirm records/],
        [['--confirm', '--locale', 'en', '--file', `faq.yaml:${de}`], /is a line of the de translation, and --locale says en/],
      ] as const) {
        const r = await runCli(['i18n', '--content', copy.dir, ...args]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toMatch(message);
      }
      expect(copy.read('translations.yaml')).toBe(before);
    } finally {
      copy.cleanup();
    }
  });

  it('writes nothing while a file cannot be read, the file named included', async () => {
    const copy = shippedCopy();
    try {
      copy.replace('courses/vocal.yaml', '  en: Singing lessons\n', '  en: Note: bring shoes\n');
      const before = copy.read('translations.yaml');
      const r = await i18n(copy.dir, '--confirm', '--file', 'courses/vocal.yaml');
      expect(r.code).toBe(1);
      expect(r.report.problems.map((p) => p.code)).toContain('not-confirmed');
      expect(copy.read('translations.yaml')).toBe(before);
    } finally {
      copy.cleanup();
    }
  });
});

describe('content validate says when translations wait for a check', () => {
  it('in one line of its summary (human), a field (json) and a notice (github); nothing on the shipped content', async () => {
    const shipped = await runCli(['validate', '--content', CONTENT]);
    expect(shipped.stdout + shipped.stderr).not.toContain('wait for a check');
    expect(JSON.parse((await runCli(['validate', '--content', CONTENT, '--format', 'json'])).stdout).translations).toEqual({
      missing: 0,
      stale: 0,
      unconfirmed: 0,
    });

    const copy = shippedCopy();
    try {
      copy.replace('faq.yaml', 'ru: Можно ли прийти на пробное занятие?', 'ru: Можно ли прийти на пробный урок?');
      copy.replace('faq.yaml', '    de: Wie viele Kinder sind in einer Gruppe?\n', '');
      const human = await runCli(['validate', '--content', copy.dir]);
      expect(human.code).toBe(0);
      const lines = (human.stdout + human.stderr).split('\n');
      const summary = lines.findIndex((l) => l.startsWith('✓ No errors'));
      expect(lines[summary + 1]).toBe('3 translations wait for a check (2 stale: the Russian text changed; 1 missing): see them with "content i18n".');
      const json = await runCli(['validate', '--content', copy.dir, '--format', 'json']);
      expect(JSON.parse(json.stdout).translations).toEqual({ missing: 1, stale: 2, unconfirmed: 0 });
      const github = await runCli(['validate', '--content', copy.dir, '--format', 'github']);
      expect(github.stdout.trim().split('\n').at(-1)).toBe(
        '::notice title=translations::3 translations wait for a check (2 stale: the Russian text changed; 1 missing): see them with "content i18n".',
      );
    } finally {
      copy.cleanup();
    }
  });
});
