import { z } from 'zod';
import { Image } from './image.ts';
import { Key, LocalizedLine, LocalizedText, SiteLink } from './localized.ts';

export const BannersFile = z
  .strictObject({
    banners: z
      .array(
        z.strictObject({
          id: Key,
          pill: LocalizedLine.describe('The small label above the title.'),
          title: LocalizedLine,
          subtitle: LocalizedText,
          cta: z.strictObject({ label: LocalizedLine, link: SiteLink }).describe('The call to action.'),
          image: Image.optional().describe('A picture shown beside the banner text.'),
          isNew: z.boolean().optional().describe('Marks the offer as new.'),
          validUntil: z.iso.date().optional().describe('Last day the banner is shown (YYYY-MM-DD).'),
        }),
      )
      .min(1),
  })
  .meta({ title: 'Banners', description: 'Promotional banners on the home page.' });
export type BannersFile = z.infer<typeof BannersFile>;
