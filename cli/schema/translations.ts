import { z } from 'zod';

/**
 * content/translations.yaml: written by `content i18n --confirm`; editors touch only
 * sameInAllLanguages. Not a content type of the site (validate does not read it), but the editor
 * checks it against schemas/translations.schema.json like every other file.
 */
export const TranslationsFile = z
  .strictObject({
    sameInAllLanguages: z
      .array(z.string().min(1).describe('A text exactly as it stands in Russian, e.g. a name or a brand.'))
      .optional()
      .describe('Texts that are rightly the same in every language (names, brands): not reported as untranslated.'),
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
  .meta({ title: 'Translation records', description: 'Which translations were checked, and texts that stay the same in every language.' });
