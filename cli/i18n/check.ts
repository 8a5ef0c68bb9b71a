import { formatPath, type Problem } from '../report/problem.ts';
import { LOCALES, type Locale } from '../schema/localized.ts';
import { PLURAL_SUFFIXES } from '../schema/ui-keys.ts';
import type { LoadedFile } from '../validate/load.ts';
import { locate, type PathPart, type SourceFile } from '../validate/source.ts';
import { checkGlossary } from './glossary.ts';
import { sourceHash, type TranslationLock } from './lock.ts';

export interface LocaleCoverage {
  total: number;
  translated: number;
  missing: number;
  stale: number;
  /** Percentage of translated texts, one decimal. */
  coverage: number;
}

export interface I18nReport {
  locales: Record<string, LocaleCoverage>;
  problems: Problem[];
  /** Every translatable text: its lock key and the hash of its Russian source, per file. */
  texts: TextEntry[];
}

interface TextEntry {
  key: string;
  source: SourceFile;
  path: PathPart[];
  value: Partial<Record<Locale, string>>;
}

const VARIABLE = /\{\{\s*([\w.-]+)\s*\}\}/g;
const variables = (s: string) => [...new Set([...s.matchAll(VARIABLE)].map((m) => m[1]!))].sort();

/** A map whose keys are all locales: a localized text, possibly missing its ru. */
const looksLocalized = (v: unknown): v is Partial<Record<Locale, string>> =>
  Boolean(v) &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v as object).length > 0 &&
  Object.entries(v as object).every(([k, x]) => (LOCALES as readonly string[]).includes(k) && typeof x === 'string');

/** Every localized text of every parsed file, schema-valid or not. */
export function collectTranslatable(files: LoadedFile[]): TextEntry[] {
  const out: TextEntry[] = [];
  for (const f of files) {
    const source = f.source;
    if (!source || source.data === undefined) continue;
    const walk = (value: unknown, path: PathPart[]) => {
      if (looksLocalized(value)) out.push({ key: `${source.file}#${formatPath(path)}`, source, path, value });
      else if (Array.isArray(value)) {
        value.forEach((v, i) => {
          walk(v, [...path, i]);
        });
      } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(source.data, []);
  }
  return out;
}

/** A plural form a locale does not use (ru's `_few` in English): nothing to translate. */
function notUsedIn(locale: Locale, path: PathPart[]): boolean {
  const last = String(path.at(-1) ?? '');
  const suffix = /_(zero|one|two|few|many|other)$/.exec(last)?.[1];
  return Boolean(suffix) && !(PLURAL_SUFFIXES[locale] as readonly string[]).includes(suffix!);
}

export function checkTranslations(files: LoadedFile[], lock: TranslationLock, only?: Locale[]): I18nReport {
  const texts = collectTranslatable(files);
  const targets = (only ?? LOCALES.filter((l) => l !== 'ru')) as Locale[];
  const problems: Problem[] = [];
  const locales: Record<string, LocaleCoverage> = {};
  const sameOk = new Set(lock.sameInAllLanguages.map((s) => s.trim().toLowerCase()));
  const at = (t: TextEntry, sub: PathPart[], p: Omit<Problem, 'file' | 'line' | 'column' | 'path'>, key = false): Problem => ({
    ...p,
    file: t.source.file,
    path: formatPath([...t.path, ...sub]),
    ...locate(t.source, [...t.path, ...sub], { key }),
  });

  for (const t of texts) {
    if (t.value.ru === undefined) {
      const present = Object.keys(t.value).join(', ');
      problems.push(
        at(
          t,
          [],
          {
            code: 'missing-ru',
            severity: 'error',
            message: `The text has ${present} but no Russian (ru).`,
            expected: 'a "ru:" line: Russian is the source of every translation',
            found: `only ${present}`,
            hint: 'Add the Russian text; visitors of every language fall back to it.',
          },
          true,
        ),
      );
    }
  }

  for (const locale of targets) {
    const cov: LocaleCoverage = { total: 0, translated: 0, missing: 0, stale: 0, coverage: 100 };
    const confirmed = lock.confirmed[locale] ?? {};
    for (const t of texts) {
      const ru = t.value.ru;
      if (ru === undefined || notUsedIn(locale, t.path)) continue;
      cov.total++;
      const tr = t.value[locale];
      if (tr === undefined) {
        cov.missing++;
        problems.push(
          at(
            t,
            [],
            {
              code: 'missing-translation',
              severity: 'warning',
              message: `No ${NAMES[locale]} translation: visitors of /${locale}/ see the Russian text.`,
              locale,
              fallback: ru,
              expected: `a "${locale}:" line`,
              found: `only ${Object.keys(t.value).join(', ')}`,
              hint: `Add "${locale}:" with the ${NAMES[locale]} text under this key.`,
            },
            true,
          ),
        );
        continue;
      }
      cov.translated++;
      const want = variables(ru);
      const have = variables(tr);
      if (want.join() !== have.join())
        problems.push(
          at(t, [locale], {
            code: 'variables-differ',
            severity: 'error',
            message: `The ${NAMES[locale]} text has other variables than the Russian one.`,
            locale,
            expected: want.length ? want.map((v) => `{{${v}}}`).join(', ') : 'no variables',
            found: have.length ? have.map((v) => `{{${v}}}`).join(', ') : 'no variables',
            hint: 'Variables in {{double braces}} are filled in by the site: keep the same names as in Russian, translate only the words around them.',
          }),
        );
      if (tr.trim() === ru.trim() && !sameOk.has(tr.trim().toLowerCase()) && /\p{L}{3,}/u.test(tr.replace(VARIABLE, '')))
        problems.push(
          at(t, [locale], {
            code: 'probably-untranslated',
            severity: 'warning',
            message: `The ${NAMES[locale]} text is identical to the Russian one: probably untranslated.`,
            locale,
            found: tr,
            hint: `Translate it, or, if it is a name that stays the same in every language, add it to sameInAllLanguages in ${'translations.yaml'}.`,
          }),
        );
      const recorded = confirmed[t.key];
      if (recorded !== undefined && recorded !== sourceHash(ru)) {
        cov.stale++;
        problems.push(
          at(t, [locale], {
            code: 'stale-translation',
            severity: 'warning',
            message: `The Russian text changed after this ${NAMES[locale]} translation was confirmed.`,
            locale,
            fallback: ru,
            expected: 'a translation of the current Russian text',
            found: tr,
            hint: `Check the translation against the Russian text, update it if needed, then run "content i18n --confirm --locale ${locale}".`,
          }),
        );
      } else if (recorded === undefined)
        problems.push(
          at(t, [locale], {
            code: 'unconfirmed-translation',
            severity: 'warning',
            message: `This ${NAMES[locale]} translation has not been confirmed yet.`,
            locale,
            hint: `After checking it, run "content i18n --confirm --locale ${locale}" so later changes to the Russian text are noticed.`,
          }),
        );
    }
    cov.coverage = cov.total ? Math.floor((cov.translated / cov.total) * 1000) / 10 : 100;
    locales[locale] = cov;
  }
  problems.push(...checkGlossary(lock.glossary, texts, targets, (i, locale, p) => at(texts[i]!, [locale], p)));
  return { locales, problems, texts };
}

/** The lock with every present translation of `locales` confirmed against today's Russian text. */
export function confirm(report: I18nReport, lock: TranslationLock, locales: Locale[]): TranslationLock {
  const confirmed = { ...lock.confirmed };
  for (const locale of locales) {
    const next: Record<string, string> = {};
    for (const t of report.texts) if (t.value.ru !== undefined && t.value[locale] !== undefined) next[t.key] = sourceHash(t.value.ru);
    confirmed[locale] = next;
  }
  return { ...lock, confirmed };
}

const NAMES: Record<Locale, string> = { ru: 'Russian', en: 'English', de: 'German' };
