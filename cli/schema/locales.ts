// The site's locales, apart from the zod shapes in localized.ts: the build and the server need
// these constants without loading zod (a tenth of a second of start-up they do not use).

/** The site's locales. The first is the default and the fallback. Every other list or map of locales is derived from this one. */
export const LOCALES = ['ru', 'en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** The source language: every text is written in it first, and shown wherever a translation is missing. */
export const DEFAULT_LOCALE = LOCALES[0];
export type DefaultLocale = typeof DEFAULT_LOCALE;

/** The locales texts are translated into. */
export type TranslatedLocale = Exclude<Locale, DefaultLocale>;
export const TRANSLATED_LOCALES = LOCALES.filter((l): l is TranslatedLocale => l !== DEFAULT_LOCALE);

/** Each language's English name, for messages and schema descriptions. */
export const LANGUAGE_NAMES: Record<Locale, string> = { ru: 'Russian', en: 'English', de: 'German' };
