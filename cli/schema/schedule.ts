import { z } from 'zod';
import { Key, LocalizedLine, LocalizedText, Placeholder } from './localized.ts';

const Time = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);

export const ScheduleFile = z
  .strictObject({
    intro: LocalizedText,
    entries: z
      .array(
        z.strictObject({
          course: Key,
          day: z.union([z.enum(['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su']), Placeholder]),
          start: z.union([Time, Placeholder]),
          end: z.union([Time, Placeholder]),
          note: LocalizedLine.optional().describe('E.g. "twice a month".'),
        }),
      )
      .min(1),
    notes: z
      .array(LocalizedText)
      .optional()
      .describe('Shown under the table, e.g. a placeholder for the groups whose days and times the studio has not given yet.'),
  })
  .meta({ title: 'Schedule', description: 'The weekly group schedule (/schedule).' });
export type ScheduleFile = z.infer<typeof ScheduleFile>;
