import { LANGUAGE_NAMES, LOCALES, type Locale } from '../../locales.ts';
import { catalogued, expectedOf, type Problem } from '../../report/problem.ts';
import { keepDaysOf } from '../../schema/keep-days.ts';
import { localizedTexts } from '../../texts/localized-texts.ts';
import { uiI18next } from '../../texts/ui-i18next.ts';
import type { Check } from './check.ts';
import { problemAtPart } from './text-position.ts';

/** `{{keepDays}}` (spaces inside the braces allowed, as the build fills it) and the word after it. */
const KEEP_DAYS_WORD = /\{\{\s*keepDays\s*\}\}\s+(\p{L}+)/gu;
/** `{{count}}` as i18next reads it. */
const COUNT = /\{\{\s*count\s*\}\}/g;
/**
 * Letters a word may add to a form's word for days and still be one of its forms: the German
 * dative "Tagen" of "Tage"; "daytime" (4 more) or "Tageslicht" (6 more) are other words.
 */
const ENDING = 2;

/**
 * `{{keepDays}} дней`: the variable is the number with its word for days already (ui.yaml
 * legal.days_one … _other by the language's plural rules, cli/resolve/pages/legal.ts), so the page
 * would say the word twice. Reads legal.yaml, ui.yaml and site.yaml: a cross-file check, looked
 * at again whenever any of the three changes.
 */
export const keepDaysWordOnce: Check = ({ content }) => {
  const legal = content.legal;
  const ui = content.ui?.data as { legal?: Record<string, Record<string, string | undefined>> } | undefined;
  const site = content.site?.data;
  if (!legal || !ui?.legal || !site) return [];
  const forms = ui.legal;
  const words = (locale: Locale) =>
    Object.keys(forms)
      .filter((k) => k.startsWith('days_'))
      .map((k) => forms[k]?.[locale]?.replace(COUNT, '').trim().toLowerCase())
      .filter((w): w is string => Boolean(w));
  const count = keepDaysOf(site);
  let i18n: ReturnType<typeof uiI18next> | undefined;
  // What the page reads in place of the variable, as the build fills it (i18next's plural form and fallback).
  const filled = (locale: Locale) => {
    i18n ??= uiI18next(content.ui);
    return i18n.t('legal.days', { count, lng: locale }) as string;
  };
  const problems: Problem[] = [];
  for (const { path, value } of localizedTexts(legal.source.file, legal.data))
    for (const locale of LOCALES) {
      const text = value[locale];
      if (typeof text !== 'string') continue;
      for (const m of text.matchAll(KEEP_DAYS_WORD)) {
        const word = m[1]!;
        const lower = word.toLowerCase();
        if (!words(locale).some((w) => lower.startsWith(w) && lower.length - w.length <= ENDING)) continue;
        const days = filled(locale);
        problems.push(
          problemAtPart(
            legal.source,
            [...path, locale],
            m[0],
            catalogued(
              'days-word-twice',
              { language: LANGUAGE_NAMES[locale], found: m[0], filled: days, shown: `${days} ${word}`, word },
              { expected: expectedOf('days-word-twice', 'alone', { filled: days }), found: `"${m[0]}"` },
            ),
          ),
        );
      }
    }
  return problems;
};
