import { z } from 'zod';
import { Image } from './image.ts';
import { Key, LocalizedLine, LocalizedText } from './localized.ts';

export const TeacherFile = z
  .strictObject({
    order: z.number().int().describe('Position on the teachers page.'),
    name: LocalizedLine,
    role: LocalizedLine,
    image: Image.optional().describe('A portrait, shown on the teachers page.'),
    edu: LocalizedText.describe('Education.'),
    text1: LocalizedText,
    text2: LocalizedText,
    extra1: LocalizedText.optional(),
    extra2: LocalizedText.optional(),
    quote: LocalizedText.optional(),
    courses: z.array(Key).default([]).describe('Keys of the courses this teacher teaches.'),
  })
  .meta({ title: 'Teacher', description: 'One teacher: content/teachers/<key>.yaml. The file name is the teacher key.' });
export type TeacherFile = z.infer<typeof TeacherFile>;
