import { z } from 'zod';
import { DEFAULT_LOCALE, LANGUAGE_NAMES, TRANSLATED_LOCALES, type TranslatedLocale } from '../locales.ts';

/**
 * content/translations.yaml: written by `content i18n --confirm`; editors touch only
 * sameInAllLanguages and glossary (read by cli/i18n/translation-lock.ts; GlossaryEntry in cli/i18n/glossary.ts is its glossary's shape).
 * Not a content type of the site (validate does not read it), but the editor checks it against
 * schemas/translations.schema.json like every other file.
 */
const Hash = z.string().regex(/^[0-9a-f]{10}$/);

const GlossaryTerm = z.strictObject({
  use: z.string().min(1).describe('The word for the thing in this language, e.g. "subscription".'),
  not: z
    .array(z.string().min(1).describe('A word or phrase a translation must not use for the thing, e.g. "pass".'))
    .optional()
    .describe('The other ways the thing has been said; "content i18n" warns wherever a translation uses one of them.'),
});

export const TranslationsFile = z
  .strictObject({
    sameInAllLanguages: z
      .array(z.string().min(1).describe('A text exactly as it stands in Russian, e.g. a name or a brand.'))
      .optional()
      .describe('Texts that are rightly the same in every language (names, brands): not reported as untranslated.'),
    glossary: z
      .array(
        z.strictObject({
          [DEFAULT_LOCALE]: z.string().min(1).describe(`The thing as the ${LANGUAGE_NAMES[DEFAULT_LOCALE]} texts call it, e.g. абонемент.`),
          ...(Object.fromEntries(
            TRANSLATED_LOCALES.map((l) => [l, GlossaryTerm.optional().describe(`The ${LANGUAGE_NAMES[l]} term: the word to use and the words not to use.`)]),
          ) as Record<TranslatedLocale, z.ZodOptional<typeof GlossaryTerm>>),
        }),
      )
      .optional()
      .describe('One thing, one word: for each thing the term in each language ("use") and the other ways it has been said ("not").'),
    confirmed: z
      .partialRecord(
        z.enum(TRANSLATED_LOCALES),
        z.record(
          z
            .string()
            .describe(
              "The text's identity: file#path, a list entry named by its id, path, key or value ([id=trial]), [*] where it has none. (Earlier: its position, [3].)",
            ),
          z.union([
            Hash.describe('A short hash of the Russian text the translation was checked against.'),
            z
              .record(Hash.describe('A short hash of a Russian text checked here.'), Hash.describe('A short hash of the translation checked with it.'))
              .describe('The texts of list entries without an id are known by their Russian text: each one checked, with its translation.'),
          ]),
        ),
      )
      .optional()
      .describe('Written by "content i18n --confirm": do not edit by hand.'),
  })
  .meta({
    title: 'Translation records',
    description: 'Which translations were checked, texts that stay the same in every language, and one term per thing (glossary).',
  });
export type TranslationsFile = z.infer<typeof TranslationsFile>;
