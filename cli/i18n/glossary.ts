import { DEFAULT_LOCALE, type Locale } from '../locales.ts';
import { catalogued, type Problem } from '../report/problem.ts';
import type { TranslationsFile } from '../schema/translations.ts';

/**
 * One thing, one term in each language (content/translations.yaml → glossary). `use` is the
 * term; `not` lists the other ways it has been translated, which a text should not use.
 */
export type GlossaryEntry = NonNullable<TranslationsFile['glossary']>[number];

/** A phrase as a whole word or words, case-insensitive ("pass" is not found in "passport"). */
const phrase = (p: string) => new RegExp(`(?<![\\p{L}\\p{N}])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');

/**
 * A warning for every translation that uses another word for a glossary term than the one the
 * glossary chose. `at` places a problem at the translation's line.
 */
export function checkGlossary(
  glossary: GlossaryEntry[],
  texts: { value: Partial<Record<Locale, string>> }[],
  locales: Locale[],
  at: (text: number, locale: Locale, p: Omit<Problem, 'file' | 'line' | 'column' | 'path'>) => Problem,
): Problem[] {
  const problems: Problem[] = [];
  for (const entry of glossary)
    for (const locale of locales) {
      if (locale === DEFAULT_LOCALE) continue;
      const term = entry[locale];
      if (!term?.not?.length) continue;
      const others = term.not.map((n) => ({ re: phrase(n) }));
      texts.forEach((t, i) => {
        const text = t.value[locale];
        if (text === undefined) return;
        for (const { re } of others) {
          const found = re.exec(text)?.[0];
          if (found)
            problems.push(
              at(i, locale, {
                ...catalogued('glossary-term', { found, term: entry[DEFAULT_LOCALE], use: term.use }, { expected: `"${term.use}"`, found: `"${found}"` }),
                locale,
              }),
            );
        }
      });
    }
  return problems;
}
