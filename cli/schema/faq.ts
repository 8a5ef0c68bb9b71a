import { z } from 'zod';
import { Key, LocalizedLine, LocalizedText } from './localized.ts';

export const FaqFile = z
  .strictObject({
    title: LocalizedLine,
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
