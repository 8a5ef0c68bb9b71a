import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import { DEFAULT_LOCALE, LANGUAGE_NAMES, type Locale, OTHER_SCRIPT_LOCALES } from '../../locales.ts';
import { catalogued, expectedOf, hintOf, type Problem } from '../../report/problem.ts';
import { copiesSource, isCyrillicText } from '../../util/text-language.ts';
import type { Check } from './check.ts';
import { mixedScriptWord, mojibake } from './garbled-text.ts';
import { backslashAtLineEnd, problemAtPart } from './text-position.ts';

/** The translations a Cyrillic text is out of place in. */
const TRANSLATED = new Set<string>(OTHER_SCRIPT_LOCALES);
/** Nothing of these checks can be in a text of ASCII letters without a backslash: most texts are skipped at once. */
const PLAIN = /^[\x20-\x5b\x5d-\x7e\n]*$/;
const NAMES_KEPT: ReadonlySet<string> = new Set();

/**
 * Warnings at the texts visitors read that pass every schema but reach them wrong (issue #34): a
 * word with letters of two alphabets ("Studioaufnаhme", its "а" Cyrillic), letters garbled by a
 * wrong encoding ("fÃ¼r"), a backslash at the end of a line, and a Russian text in an en: or de:
 * line (what `content i18n` calls a copied text, and any text in Cyrillic there). Each at the word
 * or sign itself where the file writes it as the text has it.
 */
export const textLettersRight: Check = ({ entries }) => {
  const problems: Problem[] = [];
  const path: PathPart[] = [];
  const text = (source: SourceFile, value: string, locale: Locale | undefined, russian: string | undefined) => {
    if (PLAIN.test(value)) return;
    const mixed = mixedScriptWord(value);
    if (mixed)
      problems.push(
        problemAtPart(
          source,
          path,
          mixed.word,
          catalogued('mixed-script', mixed, {
            expected: expectedOf('mixed-script', 'oneScript', {}),
            found: `"${mixed.word}"`,
            ...(mixed.fixed && { hint: hintOf('mixed-script', { fixed: mixed.fixed }, 'fixed') }),
          }),
        ),
      );
    const garbled = mojibake(value);
    if (garbled)
      problems.push(
        problemAtPart(source, path, garbled.found, catalogued('mojibake', garbled, { expected: `"${garbled.fixed}"`, found: `"${garbled.found}"` })),
      );
    if (value.includes('\\')) {
      const at = backslashAtLineEnd(source, path);
      if (at) problems.push({ ...problemAt(source, path, catalogued('trailing-backslash')), ...at, endLine: at.line, endColumn: at.column + 1 });
    }
    if (locale && TRANSLATED.has(locale) && isCyrillicText(value)) {
      const copied = russian !== undefined && copiesSource(russian, value, NAMES_KEPT);
      const vars = { language: LANGUAGE_NAMES[locale], locale };
      problems.push(problemAtPart(source, path, value, catalogued('russian-in-translation', vars, copied ? { variant: 'copied' } : {})));
    }
  };
  const walk = (source: SourceFile, value: unknown, locale?: Locale, russian?: string) => {
    if (typeof value === 'string') text(source, value, locale, russian);
    else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) within(source, i, value[i]);
    else if (value && typeof value === 'object') {
      const map = value as Record<string, unknown>;
      const localized = typeof map[DEFAULT_LOCALE] === 'string';
      for (const k of Object.keys(map)) {
        path.push(k);
        walk(source, map[k], localized && k in LANGUAGE_NAMES ? (k as Locale) : undefined, localized ? (map[DEFAULT_LOCALE] as string) : undefined);
        path.pop();
      }
    }
  };
  const within = (source: SourceFile, part: PathPart, value: unknown) => {
    path.push(part);
    walk(source, value);
    path.pop();
  };
  for (const entry of entries) walk(entry.source, entry.data);
  return problems;
};
