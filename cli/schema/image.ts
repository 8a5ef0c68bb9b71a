import { z } from 'zod';
import { LOCALES, languageList } from '../locales.ts';
import { IMAGE_FILE_PATTERN } from './image-pattern.ts';
import { LocalizedLine } from './localized.ts';

export { IMAGE_FILE_PATTERN };

/**
 * A photo or a drawing shown on the site: a file under content/images/, what it shows in every
 * language (or that it shows nothing a visitor needs), and where its subject is, for cropping.
 * validate checks the file (it exists, is a picture, is large enough for where it is shown).
 */
export const Image = z
  .strictObject({
    file: z
      .string()
      .regex(new RegExp(IMAGE_FILE_PATTERN))
      .describe('The file in content/images/, e.g. "vocal/lesson.jpg": JPEG, PNG, WebP or AVIF; lowercase letters, digits, "-", "_".'),
    alt: LocalizedLine.optional().describe(
      `What the picture shows, for visitors who cannot see it, in ${languageList(LOCALES)} (each is required, unless \`decorative: true\`).`,
    ),
    decorative: z.literal(true).optional().describe('The picture adds nothing a visitor needs to know (a texture, an ornament): it gets no alt text.'),
    focus: z
      .strictObject({
        x: z.number().min(0).max(100).describe('Percent from the left edge.'),
        y: z.number().min(0).max(100).describe('Percent from the top edge.'),
      })
      .optional()
      .describe('Where the subject is (a face), kept in view when the picture is cropped to the shape of a card. Default: the centre (50, 50).'),
  })
  .meta({
    id: 'Image',
    title: 'Image',
    description: 'A picture from content/images/ with its alt text in every language (or `decorative: true`) and an optional focal point.',
  });
export type Image = z.infer<typeof Image>;
