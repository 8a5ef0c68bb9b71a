// The site's locales, apart from the zod shapes in localized.ts: the build and the server need
// these constants without loading zod (a tenth of a second of start-up they do not use).

/** What the compiler must know of a language that Intl cannot tell it. */
interface LocaleFacts {
  /** Its name in English, for messages and schema descriptions. */
  name: string;
  /** Its own name, for the language switcher. */
  endonym: string;
  /** Open Graph's `og:locale` (language_TERRITORY): the country whose usage the texts follow. */
  ogLocale: string;
  /** The BCP 47 tag prices are formatted with. */
  numbers: string;
}

/**
 * The site's languages, one line each: adding a language is one line here plus its texts in
 * content/ (a missing text shows the Russian one, marked). Every other list or map of locales is
 * derived from this one: the zod shapes and JSON Schemas, the pages and their URLs, the language
 * switcher, the translation report, the server's messages. The first is the default and the fallback.
 */
const LOCALE_FACTS = {
  ru: { name: 'Russian', endonym: 'Русский', ogLocale: 'ru_RU', numbers: 'ru' },
  // Prices in the euro format of Ireland ("€90"), not the dollar habits of en-US.
  en: { name: 'English', endonym: 'English', ogLocale: 'en_GB', numbers: 'en-IE' },
  de: { name: 'German', endonym: 'Deutsch', ogLocale: 'de_DE', numbers: 'de' },
} as const satisfies Record<string, LocaleFacts>;

export type Locale = keyof typeof LOCALE_FACTS;
/** The site's locales, in the order of LOCALE_FACTS. */
export const LOCALES = Object.keys(LOCALE_FACTS) as readonly Locale[] as readonly [Locale, ...Locale[]];

/** The source language: every text is written in it first, and shown wherever a translation is missing. */
export const DEFAULT_LOCALE = 'ru' satisfies Locale;
export type DefaultLocale = typeof DEFAULT_LOCALE;

/** The locales texts are translated into. */
export type TranslatedLocale = Exclude<Locale, DefaultLocale>;
export const TRANSLATED_LOCALES = LOCALES.filter((l): l is TranslatedLocale => l !== DEFAULT_LOCALE);

const factOf = <K extends keyof LocaleFacts>(key: K) =>
  Object.fromEntries(LOCALES.map((l): [Locale, string] => [l, LOCALE_FACTS[l][key]])) as Record<Locale, string>;

/** Each language's English name, for messages and schema descriptions. */
export const LANGUAGE_NAMES = factOf('name');
/** Each language's own name, for the language switcher. */
export const ENDONYMS = factOf('endonym');
/** Each locale's Open Graph locale. */
export const OG_LOCALES = factOf('ogLocale');
/** The number format of each locale's prices. */
export const NUMBER_LOCALES = factOf('numbers');

/** The script a language is written in (ISO 15924: "Cyrl", "Latn"), as Intl knows it. */
export const scriptOf = (locale: Locale): string | undefined => new Intl.Locale(locale).maximize().script;

/** The translations written in another script than the source: a text in the source's letters there is the source left in (a Ukrainian text is Cyrillic too). */
export const OTHER_SCRIPT_LOCALES = TRANSLATED_LOCALES.filter((l) => scriptOf(l) !== scriptOf(DEFAULT_LOCALE));

/** A list of languages as a sentence: "English and German", "English, German and Ukrainian". */
export function languageList(locales: readonly Locale[], conjunction = 'and'): string {
  const names = locales.map((l) => LANGUAGE_NAMES[l]);
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

/** The same list in locale codes: "en and de", "en, de and uk". */
export function localeList(locales: readonly Locale[], conjunction = 'and'): string {
  return locales.length < 2 ? (locales[0] ?? '') : `${locales.slice(0, -1).join(', ')} ${conjunction} ${locales.at(-1)}`;
}
