import type { LoadedFile } from '../load/load.ts';
import { locate, type PathPart, type SourceFile } from '../load/source.ts';
import { DEFAULT_LOCALE, LANGUAGE_NAMES, type Locale, TRANSLATED_LOCALES } from '../locales.ts';
import { catalogued, expectedOf, formatPath, foundOf, type Problem } from '../report/problem.ts';
import { PLURAL_SUFFIX, PLURAL_SUFFIXES } from '../schema/ui-keys.ts';
import { type LocalizedTextSite, localizedTexts } from '../texts/localized-texts.ts';
import { copiesSource, VARIABLE } from '../util/text-language.ts';
import { carryOver, type Status, statusesOf } from './confirmations.ts';
import { checkGlossary } from './glossary.ts';
import type { TranslationLock } from './translation-lock.ts';

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
  /** Every translatable text, with the file it is in. */
  texts: TextEntry[];
  /** The confirmations checked against, by identity (an earlier translations.yaml by position carried over). */
  lock: TranslationLock;
  /** How many confirmations translations.yaml holds by position, the earlier form (carried over to the texts there now). */
  byPosition: number;
}

/** A localized text of a parsed file, with the file to locate its problems in. */
export interface TextEntry extends LocalizedTextSite {
  source: SourceFile;
}

type Found = Omit<Problem, 'file' | 'line' | 'column' | 'path'>;

const variables = (s: string) => [...new Set([...s.matchAll(VARIABLE)].map((m) => m[1]!))].sort();

/**
 * Texts no visitor reads: the titles of faq.yaml and prices.yaml (the pages' headings are their
 * titles in routes.yaml) and the e-mail subject, which goes to the studio in Russian only.
 */
export const NEVER_SHOWN = new Set(['faq.yaml#title', 'prices.yaml#title', 'site.yaml#form.notify.subject']);

/** Every localized text a visitor reads, of every parsed file, schema-valid or not. */
export function collectTranslatable(files: LoadedFile[]): TextEntry[] {
  return files.flatMap(({ source }) =>
    source && source.data !== undefined ? localizedTexts(source.file, source.data).flatMap((t) => (NEVER_SHOWN.has(t.key) ? [] : [{ ...t, source }])) : [],
  );
}

/** A problem at a text (`key`: at its key's line) or at one of its translations (`sub`: [locale]). */
function at(t: TextEntry, sub: PathPart[], p: Found, key = false): Problem {
  return { ...p, file: t.source.file, path: formatPath([...t.path, ...sub]), ...locate(t.source, [...t.path, ...sub], { key }) };
}

/** A plural form a locale does not use (ru's `_few` in English): nothing to translate. */
function notUsedIn(locale: Locale, path: PathPart[]): boolean {
  const suffix = PLURAL_SUFFIX.exec(String(path.at(-1) ?? ''))?.[1];
  return Boolean(suffix) && !(PLURAL_SUFFIXES[locale] as readonly string[]).includes(suffix!);
}

export function checkTranslations(files: LoadedFile[], read: TranslationLock, only?: Locale[]): I18nReport {
  const texts = collectTranslatable(files);
  const { lock, carried } = carryOver(read, texts);
  const targets = only ?? [...TRANSLATED_LOCALES];
  const problems = texts.filter((t) => t.value[DEFAULT_LOCALE] === undefined).map(missingSource);
  const locales: Record<string, LocaleCoverage> = {};
  const statusOf = statusesOf(texts, lock);
  for (const locale of targets) {
    const checked = checkLocale(texts, lock, locale, statusOf);
    locales[locale] = checked.coverage;
    problems.push(...checked.problems);
  }
  problems.push(...checkGlossary(lock.glossary, texts, targets, (i, locale, p) => at(texts[i]!, [locale], p)));
  return { locales, problems, texts, lock, byPosition: carried };
}

/** A translation's state: not needed (a plural form the locale does not use), missing, or its confirmation's status. */
type State = 'not-needed' | 'missing' | Status;

function stateOf(t: TextEntry | LocalizedTextSite, locale: Locale, statusOf: (t: LocalizedTextSite, locale: Locale) => Status): State {
  if (t.value[DEFAULT_LOCALE] === undefined || notUsedIn(locale, t.path)) return 'not-needed';
  const translation = t.value[locale];
  // An empty text is a missing one, as validate says (empty-text): visitors see the Russian.
  if (translation === undefined || translation.trim() === '') return 'missing';
  return statusOf(t, locale);
}

/** The coverage of one locale, and the problems of its translations. */
function checkLocale(
  texts: TextEntry[],
  lock: TranslationLock,
  locale: Locale,
  statusOf: (t: LocalizedTextSite, locale: Locale) => Status,
): { coverage: LocaleCoverage; problems: Problem[] } {
  const cov: LocaleCoverage = { total: 0, translated: 0, missing: 0, stale: 0, coverage: 100 };
  const problems: Problem[] = [];
  const sameOk = new Set(lock.sameInAllLanguages.map((s) => s.trim().toLowerCase()));
  for (const t of texts) {
    const state = stateOf(t, locale, statusOf);
    if (state === 'not-needed') continue;
    const source = t.value[DEFAULT_LOCALE]!;
    cov.total++;
    if (state === 'missing') {
      cov.missing++;
      problems.push(missingTranslation(t, locale, source));
      continue;
    }
    const translation = t.value[locale]!;
    cov.translated++;
    problems.push(...checkTranslation(t, locale, source, translation, sameOk));
    if (state === 'stale') {
      cov.stale++;
      problems.push(staleTranslation(t, locale, source, translation));
    } else if (state === 'unconfirmed') problems.push(unconfirmedTranslation(t, locale));
  }
  cov.coverage = cov.total ? Math.floor((cov.translated / cov.total) * 1000) / 10 : 100;
  return { coverage: cov, problems };
}

/** How many translations wait for a translator: missing, stale (their Russian text changed) or never confirmed. */
export interface Waiting {
  missing: number;
  stale: number;
  unconfirmed: number;
}

/**
 * What `content validate` says in its summary: the translations `content i18n` would list, counted
 * without placing a problem for each (no file is read again for a position).
 */
export function waitingTranslations(files: LoadedFile[], read: TranslationLock): Waiting {
  const texts = collectTranslatable(files);
  const { lock } = carryOver(read, texts);
  const statusOf = statusesOf(texts, lock);
  const waiting: Waiting = { missing: 0, stale: 0, unconfirmed: 0 };
  for (const locale of TRANSLATED_LOCALES)
    for (const t of texts) {
      const state = stateOf(t, locale, statusOf);
      if (state === 'missing' || state === 'stale' || state === 'unconfirmed') waiting[state]++;
    }
  return waiting;
}

function missingSource(t: TextEntry): Problem {
  const present = Object.keys(t.value).join(', ');
  const found = catalogued('missing-ru', {}, { expected: expectedOf('missing-ru', 'source', {}), found: foundOf('missing-ru', 'only', { present }) });
  return at(t, [], found, true);
}

function missingTranslation(t: TextEntry, locale: Locale, source: string): Problem {
  const name = LANGUAGE_NAMES[locale];
  const found: Found = {
    ...catalogued(
      'missing-translation',
      { language: name, locale },
      {
        expected: expectedOf('missing-translation', 'line', { locale }),
        found: foundOf('missing-translation', 'only', { present: Object.keys(t.value).join(', ') }),
      },
    ),
    locale,
    fallback: source,
  };
  return at(t, [], found, true);
}

/** What is wrong in a translation itself: other variables than the source, or the source copied. */
function checkTranslation(t: TextEntry, locale: Locale, source: string, translation: string, sameOk: Set<string>): Problem[] {
  const problems: Problem[] = [];
  const want = variables(source);
  const have = variables(translation);
  const list = (vars: string[]) => (vars.length ? vars.map((v) => `{{${v}}}`).join(', ') : expectedOf('variables-differ', 'none', {}));
  if (want.join() !== have.join())
    problems.push(
      at(t, [locale], { ...catalogued('variables-differ', { language: LANGUAGE_NAMES[locale] }, { expected: list(want), found: list(have) }), locale }),
    );
  if (copiesSource(source, translation, sameOk))
    problems.push(at(t, [locale], { ...catalogued('probably-untranslated', { language: LANGUAGE_NAMES[locale] }, { found: translation }), locale }));
  return problems;
}

/**
 * A problem at one translation whose hint names its place as `--confirm --file` takes it
 * (`faq.yaml:12`: the file within the content folder and the translation's line).
 */
function atTranslation(t: TextEntry, locale: Locale, make: (place: string) => Found): Problem {
  const position = locate(t.source, [...t.path, locale]);
  return { ...make(`${t.source.file}:${position.line}`), file: t.source.file, path: formatPath([...t.path, locale]), ...position };
}

function staleTranslation(t: TextEntry, locale: Locale, source: string, translation: string): Problem {
  return atTranslation(t, locale, (place) => ({
    ...catalogued(
      'stale-translation',
      { language: LANGUAGE_NAMES[locale], locale, place },
      { expected: expectedOf('stale-translation', 'current', {}), found: translation },
    ),
    locale,
    fallback: source,
  }));
}

function unconfirmedTranslation(t: TextEntry, locale: Locale): Problem {
  return atTranslation(t, locale, (place) => ({ ...catalogued('unconfirmed-translation', { language: LANGUAGE_NAMES[locale], locale, place }), locale }));
}
