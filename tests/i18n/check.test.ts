import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { lineOf, syntheticContent } from '../helpers/synthetic.ts';

interface Report {
  locales: Record<string, { total: number; translated: number; missing: number; stale: number; coverage: number }>;
  problems: { code: string; severity: string; file: string; line: number; column: number; path: string; locale?: string; fallback?: string }[];
}

const i18n = async (dir: string, ...args: string[]) => {
  const r = await runCli(['i18n', '--content', dir, '--format', 'json', ...args]);
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
};

describe('content i18n', () => {
  it('reports a missing German text with file, line, column, path and the Russian fallback; --strict fails', async () => {
    const c = syntheticContent();
    try {
      await runCli(['i18n', '--content', c.dir, '--confirm']);
      const file = 'courses/course00000.yaml';
      const text = c.read(file);
      const deLine = lineOf(text, '  de:', lineOf(text, 'goal:'));
      c.edit(file, (t) =>
        t
          .split('\n')
          .filter((_, i) => i !== deLine - 1)
          .join('\n'),
      );
      const loose = await i18n(c.dir);
      expect(loose.code).toBe(0);
      const missing = loose.report.problems.find((p) => p.code === 'missing-translation');
      expect(missing).toMatchObject({ file, line: lineOf(text, 'goal:'), column: 1, path: 'goal', locale: 'de', severity: 'warning' });
      expect(missing!.fallback).toBeTruthy();
      expect(loose.report.locales.de!.missing).toBe(1);
      expect(loose.report.locales.en!.missing).toBe(0);
      const strict = await i18n(c.dir, '--strict');
      expect(strict.code).toBe(1);
      expect(strict.report.problems.find((p) => p.code === 'missing-translation')!.severity).toBe('error');
      const onlyEn = await i18n(c.dir, '--strict', '--locale', 'en');
      expect(onlyEn.code).toBe(0);
    } finally {
      c.cleanup();
    }
  });

  it('reports a stale translation after the Russian text changed, until --confirm', async () => {
    const c = syntheticContent();
    try {
      await runCli(['i18n', '--content', c.dir, '--confirm']);
      expect((await i18n(c.dir, '--strict')).code).toBe(0);
      const file = 'teachers/teacher.yaml';
      c.edit(file, (t) => t.replace('ru: Анна', 'ru: Анна Петровна'));
      const r = await i18n(c.dir, '--strict');
      expect(r.code).toBe(1);
      const stale = r.report.problems.filter((p) => p.code === 'stale-translation');
      expect(stale.map((p) => `${p.locale} ${p.file}:${p.line} ${p.path}`).sort()).toEqual([
        `de ${file}:${lineOf(c.read(file), 'de: Anna')} name.de`,
        `en ${file}:${lineOf(c.read(file), 'en: Anna')} name.en`,
      ]);
      await runCli(['i18n', '--content', c.dir, '--confirm', '--locale', 'en']);
      const after = await i18n(c.dir, '--strict');
      expect(after.report.problems.filter((p) => p.code === 'stale-translation').map((p) => p.locale)).toEqual(['de']);
    } finally {
      c.cleanup();
    }
  });

  it('reports mismatched interpolation variables as an error', async () => {
    const c = syntheticContent();
    try {
      c.edit('ui.yaml', (t) => t.replace('de: Höchstens {{max}}', 'de: Höchstens {{maximum}}'));
      const r = await i18n(c.dir);
      expect(r.code).toBe(1);
      const p = r.report.problems.find((x) => x.code === 'variables-differ')!;
      expect(p).toMatchObject({ file: 'ui.yaml', locale: 'de', path: 'form.errorTooLong.de', line: lineOf(c.read('ui.yaml'), '{{maximum}}') });
    } finally {
      c.cleanup();
    }
  });

  it('reports a text that has translations but no Russian as an error', async () => {
    const c = syntheticContent();
    try {
      const file = 'faq.yaml';
      const text = c.read(file);
      const ruLine = lineOf(text, '  ru:', lineOf(text, 'question:'));
      c.edit(file, (t) =>
        t
          .split('\n')
          .filter((_, i) => i !== ruLine - 1)
          .join('\n'),
      );
      const r = await i18n(c.dir, '--strict');
      expect(r.code).toBe(1);
      expect(r.report.problems.find((p) => p.code === 'missing-ru')).toMatchObject({ file, line: lineOf(text, 'question:'), path: 'items[0].question' });
    } finally {
      c.cleanup();
    }
  });

  it('warns about a translation identical to the Russian text, unless allowed', async () => {
    const c = syntheticContent();
    try {
      c.edit('teachers/teacher.yaml', (t) => t.replace('en: Anna', 'en: Анна'));
      const r = await i18n(c.dir);
      expect(r.code).toBe(0);
      expect(r.report.problems.find((p) => p.code === 'probably-untranslated')).toMatchObject({ locale: 'en', path: 'name.en' });
      c.write('translations.yaml', 'sameInAllLanguages: [Анна]\nconfirmed: {}\n');
      const allowed = await i18n(c.dir);
      expect(allowed.report.problems.some((p) => p.code === 'probably-untranslated' && p.path === 'name.en')).toBe(false);
    } finally {
      c.cleanup();
    }
  });

  it('prints a markdown table for pull-request comments', async () => {
    const c = syntheticContent();
    try {
      const r = await runCli(['i18n', '--content', c.dir, '--format', 'markdown']);
      expect(r.stdout).toContain('| Locale | Total | Translated | Missing | Stale | Coverage |');
      expect(r.stdout).toMatch(/\| de \| \d+ \| \d+ \| 0 \| 0 \| 100\.0% \|/);
    } finally {
      c.cleanup();
    }
  });
});
