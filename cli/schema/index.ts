import type { z } from 'zod';
import { BannersFile } from './banners.ts';
import { CourseFile } from './course.ts';
import { FaqFile } from './faq.ts';
import { FormFile } from './form.ts';
import { type ContentType, schemaFileName } from './layout.ts';
import { LegalFile } from './legal.ts';
import { PricesFile } from './price.ts';
import { RoutesFile } from './routes.ts';
import { ScheduleFile } from './schedule.ts';
import { SiteFile } from './site.ts';
import { TeacherFile } from './teacher.ts';
import { UiFile } from './ui.ts';

/** The one shape of every content type (where its files live: layout.ts). */
export const CONTENT_SCHEMAS = {
  site: SiteFile,
  routes: RoutesFile,
  course: CourseFile,
  teacher: TeacherFile,
  prices: PricesFile,
  faq: FaqFile,
  banners: BannersFile,
  ui: UiFile,
  form: FormFile,
  schedule: ScheduleFile,
  legal: LegalFile,
} as const satisfies Record<ContentType, z.ZodType>;

export type ContentOf<T extends ContentType> = z.infer<(typeof CONTENT_SCHEMAS)[T]>;
export { type ContentType, schemaFileName };
