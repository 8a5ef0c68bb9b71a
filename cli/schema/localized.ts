import { z } from 'zod';
import { DEFAULT_LOCALE, type DefaultLocale, LANGUAGE_NAMES, LOCALES, type Locale, TRANSLATED_LOCALES, type TranslatedLocale } from '../locales.ts';
import { isPlaceholder, NO_HTML, ONE_LINE, PLACEHOLDER_PATTERN } from './layout.ts';

export {
  DEFAULT_LOCALE,
  type DefaultLocale,
  isPlaceholder,
  LANGUAGE_NAMES,
  LOCALES,
  type Locale,
  PLACEHOLDER_PATTERN,
  TRANSLATED_LOCALES,
  type TranslatedLocale,
};

/**
 * Raw HTML never passes through content: a `<` followed by a letter, `/`, `!` or `?`
 * starts a tag, a comment or a processing instruction. A lone `<` ("age < 5") is fine.
 */
const text = () => z.string().min(1).regex(new RegExp(NO_HTML), { message: 'raw HTML is not allowed in content' });
/** Names, titles, labels, address parts: they go into headings, attributes, e-mail headers and JSON-LD, where a line break or a tag does harm. */
const line = () => text().regex(new RegExp(ONE_LINE), { message: 'a one-line text cannot have a line break' });

/**
 * A text that stands on one line, the same in every language: a name, an address part. No line
 * break, no raw HTML. A placeholder ("TODO: …") is one too, and is reported as one.
 */
export const OneLineText = line().meta({
  title: 'One-line text',
  description: 'A text on one line: no line breaks, no raw HTML. "TODO: what is missing" while the studio has not supplied it.',
});

/**
 * One field per locale: the default locale's is required (it is the source text), the others are
 * optional translations.
 */
function perLocale<T extends z.ZodType>(field: () => T) {
  const source = LANGUAGE_NAMES[DEFAULT_LOCALE];
  return Object.fromEntries(
    LOCALES.map((l) => [
      l,
      l === DEFAULT_LOCALE
        ? field().describe(`${source}: the source text, shown wherever a translation is missing.`)
        : field().optional().describe(`${LANGUAGE_NAMES[l]} translation. When missing, visitors see the ${source} text.`),
    ]),
  ) as { [L in Locale]: L extends DefaultLocale ? T : z.ZodOptional<T> };
}

/** "Russian (required) and optionally English and German". */
const inEveryLocale = `${LANGUAGE_NAMES[DEFAULT_LOCALE]} (required) and optionally ${TRANSLATED_LOCALES.map((l) => LANGUAGE_NAMES[l]).join(' and ')}`;

/** A text a visitor reads, in every locale. The default locale's is the source and the fallback. */
export const LocalizedText = z.strictObject(perLocale(text)).meta({
  id: 'LocalizedText',
  title: 'Localized text',
  description: `A text in ${inEveryLocale}. Emphasis: **bold** and *italic*; raw HTML is rejected.`,
});
export type LocalizedText = z.infer<typeof LocalizedText>;

/** A localized text that stands on one line: a title, a label, a name. No line breaks, no raw HTML. */
export const LocalizedLine = z.strictObject(perLocale(line)).meta({
  id: 'LocalizedLine',
  title: 'Localized one-line text',
  description: `A title, label or name in ${inEveryLocale}, on one line: no line breaks, no raw HTML.`,
});

/**
 * A fact the studio has not supplied yet is written as a placeholder: a string that starts with `TODO:`.
 * `validate` reports each as a warning so none ships unnoticed.
 */
export const Placeholder = z.string().regex(new RegExp(PLACEHOLDER_PATTERN)).meta({
  id: 'Placeholder',
  title: 'Placeholder',
  description: 'A fact still to be supplied by the studio, written as "TODO: what is missing".',
});

/**
 * A placeholder a visitor sees, written in every language like the texts around it (a Russian
 * page never shows an English "TODO: …"). `validate` reports it once, at its Russian text.
 */
export const LocalizedPlaceholder = z
  .strictObject(
    Object.fromEntries(LOCALES.map((l) => [l, Placeholder.describe(`${LANGUAGE_NAMES[l]}: "TODO: …" in ${LANGUAGE_NAMES[l]}.`)])) as {
      [L in Locale]: typeof Placeholder;
    },
  )
  // No id: written out where it is used, so validate tells its errors from the value's (a $ref's errors carry no branch).
  .meta({
    title: 'Placeholder in every language',
    description: 'A fact still to be supplied by the studio, written "TODO: what is missing" in each language, as visitors of that language read it.',
  });
export type LocalizedPlaceholder = z.infer<typeof LocalizedPlaceholder>;

/** Keys of other content: lower camelCase or kebab-case words. */
export const Key = z
  .string()
  .regex(/^[a-z][a-zA-Z0-9_-]*$/)
  .meta({ id: 'Key', description: 'An identifier: starts with a lowercase letter; letters, digits, "_" and "-".' });

/** A route of the site: `/`, `/vocal`, `/prises`. No trailing slash. */
export const RoutePath = z
  .string()
  .regex(/^\/([a-z0-9]+(-[a-z0-9]+)*)?$/)
  .meta({ id: 'RoutePath', description: 'A route of the site such as "/vocal": lowercase, no trailing slash.' });

/** A link target inside the site: a route, optionally with a `#fragment`. */
export const SiteLink = z
  .string()
  .regex(/^\/([a-z0-9]+(-[a-z0-9]+)*)?(#[a-z][a-z0-9-]*)?$/)
  .meta({ id: 'SiteLink', description: 'A route, optionally with a section: "/prises", "/#contacts".' });

export const TeachingLanguage = z.enum(['ru', 'uk', 'de', 'en']).meta({
  id: 'TeachingLanguage',
  description: 'A language a course is taught in: ru, uk, de or en.',
});

/** A price in whole or decimal euros. */
export const Money = z.number().nonnegative();
