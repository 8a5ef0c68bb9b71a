// What a text itself says about its language and its letters, for both `content i18n` (a
// translation that is its Russian text copied) and `content validate` (a Russian text in an en:
// or de: line, letters of two alphabets in one word, mojibake): one place, so the two commands
// never disagree on what "Russian" means.

/** An i18next variable, `{{name}}`: not words of any language. */
export const VARIABLE = /\{\{\s*([\w.-]+)\s*\}\}/g;

/**
 * A translation that is its Russian source copied, unless it is a name kept the same in every
 * language (`sameInAllLanguages` of translations.yaml, lower-cased) or has no word of three letters.
 */
export function copiesSource(source: string, translation: string, sameInAllLanguages: ReadonlySet<string>): boolean {
  const same = translation.trim() === source.trim() && !sameInAllLanguages.has(translation.trim().toLowerCase());
  return same && /\p{L}{3,}/u.test(translation.replace(VARIABLE, ''));
}

const CYRILLIC = /\p{Script=Cyrillic}/gu;
const ANY_CYRILLIC = /\p{Script=Cyrillic}/u;
const LETTER = /\p{L}/gu;

/** A text written in Cyrillic: at least three Cyrillic letters, and at least half of its letters. */
export function isCyrillicText(text: string): boolean {
  if (!ANY_CYRILLIC.test(text)) return false; // most English and German texts: not counted letter by letter
  const cyrillic = text.match(CYRILLIC)?.length ?? 0;
  return cyrillic >= 3 && cyrillic * 2 >= (text.match(LETTER)?.length ?? 0);
}
