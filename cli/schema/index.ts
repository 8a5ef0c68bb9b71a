import type { z } from 'zod';
import { BannersFile } from './banners.ts';
import { CourseFile } from './course.ts';
import { FaqFile } from './faq.ts';
import { FormFile } from './form.ts';
import { LegalFile } from './legal.ts';
import { PricesFile } from './price.ts';
import { RoutesFile } from './routes.ts';
import { ScheduleFile } from './schedule.ts';
import { SiteFile } from './site.ts';
import { TeacherFile } from './teacher.ts';
import { UiFile } from './ui.ts';

/**
 * Every content type: where its files live under content/ and the one shape they have.
 * `dir` types hold one file per entity (the file name is the key); the others are one file.
 */
export const CONTENT_TYPES = {
  site: { file: 'site.yaml', schema: SiteFile },
  routes: { file: 'routes.yaml', schema: RoutesFile },
  course: { dir: 'courses', schema: CourseFile },
  teacher: { dir: 'teachers', schema: TeacherFile },
  prices: { file: 'prices.yaml', schema: PricesFile },
  faq: { file: 'faq.yaml', schema: FaqFile },
  banners: { file: 'banners.yaml', schema: BannersFile },
  ui: { file: 'ui.yaml', schema: UiFile },
  form: { file: 'form.yaml', schema: FormFile },
  schedule: { file: 'schedule.yaml', schema: ScheduleFile },
  legal: { file: 'legal.yaml', schema: LegalFile },
} as const satisfies Record<string, { file: string; schema: z.ZodType } | { dir: string; schema: z.ZodType }>;

export type ContentType = keyof typeof CONTENT_TYPES;
export type ContentOf<T extends ContentType> = z.infer<(typeof CONTENT_TYPES)[T]['schema']>;

/** The JSON Schema file name of a content type, relative to schemas/. */
export const schemaFileName = (type: ContentType) => `${type}.schema.json`;
