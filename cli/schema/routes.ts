import { z } from 'zod';
import { Key, LocalizedLine, LocalizedText, RoutePath } from './localized.ts';

export const PAGE_KINDS = ['home', 'course', 'prices', 'teachers', 'faq', 'schedule', 'legal'] as const;

export const RoutesFile = z
  .strictObject({
    routes: z
      .array(
        z.strictObject({
          path: RoutePath,
          page: z.enum(PAGE_KINDS).describe('What the route shows.'),
          course: Key.optional().describe('With page: course — the course key (content/courses/<key>.yaml).'),
          legal: z.enum(['impressum', 'privacy', 'terms']).optional().describe('With page: legal — which text.'),
          title: LocalizedLine.describe('The page title (also the <title> of the page).'),
          description: LocalizedText.describe('The meta description for search engines and sharing.'),
        }),
      )
      .min(1),
  })
  .meta({ title: 'Routes', description: 'Every page of the site and what it shows.' });
export type RoutesFile = z.infer<typeof RoutesFile>;
