// The site's locales, apart from the zod shapes in localized.ts: the build and the server need
// these constants without loading zod (a tenth of a second of start-up they do not use).

/** The site's locales. The first is the default and the fallback. */
export const LOCALES = ['ru', 'en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'ru';
