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
        }),
      )
      .min(1)
      .describe('The course directions of the enquiry form, in order.'),
  })
  .meta({ title: 'Enquiry form', description: 'The course options of the enquiry form.' });
export type FormFile = z.infer<typeof FormFile>;
