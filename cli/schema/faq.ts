import { z } from 'zod';
import { Key, LocalizedLine, LocalizedText } from './localized.ts';

export const FaqFile = z
  .strictObject({
    title: LocalizedLine.optional().describe(
      'Not shown on the site (the heading of /faq is its title in routes.yaml), and not counted by "content i18n": a note for editors, may be left out.',
    ),
    items: z
      .array(
        z.strictObject({
          id: Key,
          question: LocalizedLine,
          answer: z.array(LocalizedText).min(1).describe('Paragraphs; **bold** and *italic* are allowed.'),
        }),
      )
      .min(1),
  })
  .meta({ title: 'FAQ', description: 'Questions and answers shown on /faq.' });
export type FaqFile = z.infer<typeof FaqFile>;
