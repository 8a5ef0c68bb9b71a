import { z } from 'zod';

/**
 * content/translations.yaml: written by `content i18n --confirm`; editors touch only
 * sameInAllLanguages and glossary (read by cli/i18n/lock.ts, shape as GlossaryEntry in cli/i18n/glossary.ts).
 * Not a content type of the site (validate does not read it), but the editor checks it against
 * schemas/translations.schema.json like every other file.
 */
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
          ru: z.string().min(1).describe('The thing as the Russian texts call it, e.g. абонемент.'),
          en: GlossaryTerm.optional().describe('The English term: the word to use and the words not to use.'),
          de: GlossaryTerm.optional().describe('The German term: the word to use and the words not to use.'),
        }),
      )
      .optional()
      .describe('One thing, one word: for each thing the term in each language ("use") and the other ways it has been said ("not").'),
    confirmed: z
      .partialRecord(
        z.enum(['en', 'de']),
        z.record(
          z.string().describe('The place of the text: file#path.'),
          z
            .string()
            .regex(/^[0-9a-f]{10}$/)
            .describe('A short hash of the Russian text the translation was checked against.'),
        ),
      )
      .optional()
      .describe('Written by "content i18n --confirm": do not edit by hand.'),
  })
  .meta({
    title: 'Translation records',
    description: 'Which translations were checked, texts that stay the same in every language, and one term per thing (glossary).',
  });
