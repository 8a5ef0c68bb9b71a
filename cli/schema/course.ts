import { z } from 'zod';
import { Image } from './image.ts';
import { Key, LocalizedLine, LocalizedPlaceholder, LocalizedText, Placeholder, RoutePath, TeachingLanguage } from './localized.ts';
import { Price } from './price.ts';

const SubProgram = z.strictObject({
  key: Key.describe('Sub-program key, e.g. russian5_6.'),
  title: LocalizedLine,
  age: LocalizedLine,
  text: LocalizedText,
});

/**
 * A teacher key and a teaching language, written out here rather than referenced (Key,
 * TeachingLanguage): in a union with a placeholder in every language, validate can then tell
 * which alternative an error belongs to and reports one mistake once.
 */
const TeacherKey = z.string().regex(/^[a-z][a-zA-Z0-9_-]*$/);
const Language = z.enum(TeachingLanguage.options);

const Step = z.strictObject({ title: LocalizedLine, text: LocalizedText.optional() });

export const CourseFile = z
  .strictObject({
    route: RoutePath.optional().describe('The detail page of the course. Left out for a course without a page of its own.'),
    order: z.number().int().describe('Position in the "Our offerings" list on the home page.'),
    title: LocalizedLine,
    summary: LocalizedText.describe('One or two sentences for the course card on the home page.'),
    image: Image.optional().describe('A photo of the course, shown on its card on the home page, on its page and on its share card.'),
    age: LocalizedLine,
    format: LocalizedText.describe('Group or individual, group size, on site or online.'),
    duration: LocalizedText.describe('Length and frequency of the lessons.'),
    teachers: z
      .array(z.union([TeacherKey, Placeholder, LocalizedPlaceholder]))
      .min(1)
      .describe('Keys of files in content/teachers/; a placeholder in every language while the studio has not said who teaches the course.'),
    price: z
      .strictObject({
        ref: Key.optional().describe('Id of the matching line in prices.yaml.'),
        amount: Price.shape.amount,
        from: Price.shape.from,
        per: Price.shape.per,
        note: LocalizedText.optional(),
      })
      .optional()
      .describe('The price as the course page states it; checked against the price list line `ref`. Left out when the studio has not given one.'),
    goal: LocalizedText,
    howClassesRun: LocalizedText,
    features: z.array(LocalizedText).min(1),
    trial: LocalizedText.describe('The trial lesson text.'),
    languages: z
      .union([z.array(Language).min(1), Placeholder, LocalizedPlaceholder])
      .optional()
      .describe(
        'The languages the course is taught in; a placeholder in every language until the studio names them. Left out where no language is taught (a recording session).',
      ),
    languagesNote: LocalizedText.optional().describe('E.g. "with support in Russian".'),
    lessons: z
      .array(
        z.strictObject({
          minutes: z.number().int().positive().describe('How long one lesson is.'),
          times: z.number().int().positive().describe('How many lessons in each period.'),
          per: z.enum(['week', 'month']).describe('The period the lessons are counted in: week or month.'),
        }),
      )
      .optional()
      .describe('Lesson length and frequency, only where the studio has stated both. Search engines read it; visitors read `duration`.'),
    rules: z.array(LocalizedText).optional().describe('Rules that belong to this course: entry requirements, group size, rescheduling.'),
    steps: z.array(Step).optional().describe('An ordered procedure, e.g. the online consultation from request to video call.'),
    subPrograms: z.array(SubProgram).optional(),
    headings: z
      .strictObject({
        goal: LocalizedLine.optional().describe('Instead of "Goal", e.g. "About the choir".'),
        howClassesRun: LocalizedLine.optional().describe('Instead of "How the lessons run", e.g. "How a recording session runs".'),
        trial: LocalizedLine.optional().describe('Instead of "Trial lesson", e.g. "How to book".'),
        teacher: LocalizedLine.optional().describe('Instead of "Teacher", e.g. "Choir director".'),
        languages: LocalizedLine.optional().describe('Instead of "Taught in", e.g. "Language of the consultation".'),
      })
      .optional()
      .describe(
        'Headings of this course\'s page where the usual ones ("Trial lesson", "How the lessons run", …) do not fit: a recording, a consultation, a choir.',
      ),
    audience: z.enum(['children', 'adults', 'parents', 'all']).describe('Who the course is for.'),
  })
  .meta({ title: 'Course', description: 'One course: content/courses/<key>.yaml. The file name is the course key.' });
export type CourseFile = z.infer<typeof CourseFile>;
