import { z } from 'zod';
import { Key, LocalizedLine } from './localized.ts';

export const FormFile = z
  .strictObject({
    options: z
      .array(
        z.strictObject({
          value: Key.describe('Sent with the enquiry; stable.'),
          course: Key.describe('The course this option enrols in (content/courses/<key>.yaml).'),
          label: LocalizedLine,
          group: z
            .enum(['children', 'all', 'adults'])
            .optional()
            .describe('The group the option is listed under, as on the home page: children, children and adults (all), adults.'),
        }),
      )
      .min(1)
      .describe('The course directions of the enquiry form, in order: the order of the home page, each under its group.'),
  })
  .meta({ title: 'Enquiry form', description: 'The course options of the enquiry form.' });
export type FormFile = z.infer<typeof FormFile>;
