import type { LoadedFile } from '../load/load.ts';
import type { SourceFile } from '../load/source.ts';
import type { ContentOf, ContentType } from '../schema/index.ts';
import { compareNames } from '../util/compare-names.ts';

/** A content entry that passed its schema, with the source to locate problems in it. */
export interface Entry<T extends ContentType> {
  key: string;
  data: ContentOf<T>;
  source: SourceFile;
}

/** All content that passed its schema. Singletons are missing when their file had errors. */
export interface Content {
  site?: Entry<'site'>;
  routes?: Entry<'routes'>;
  prices?: Entry<'prices'>;
  faq?: Entry<'faq'>;
  banners?: Entry<'banners'>;
  ui?: Entry<'ui'>;
  form?: Entry<'form'>;
  schedule?: Entry<'schedule'>;
  legal?: Entry<'legal'>;
  courses: Map<string, Entry<'course'>>;
  teachers: Map<string, Entry<'teacher'>>;
  /** Keys of course and teacher files that exist but failed their schema: references to them are not errors of their own. */
  invalidKeys: { course: Set<string>; teacher: Set<string> };
}

/** Groups the files whose schema check passed (`valid`) into the typed content model. */
export function assemble(files: LoadedFile[], valid: (f: LoadedFile) => boolean): Content {
  const content: Content = { courses: new Map(), teachers: new Map(), invalidKeys: { course: new Set(), teacher: new Set() } };
  const byKey = <T extends ContentType>(f: LoadedFile) => ({ key: f.key, data: f.source!.data as ContentOf<T>, source: f.source! });
  for (const f of files) {
    if (!f.source || f.source.data === undefined || !valid(f)) {
      if (f.type === 'course' || f.type === 'teacher') content.invalidKeys[f.type].add(f.key);
      continue;
    }
    if (f.type === 'course') content.courses.set(f.key, byKey<'course'>(f));
    else if (f.type === 'teacher') content.teachers.set(f.key, byKey<'teacher'>(f));
    else (content as unknown as Record<string, unknown>)[f.type] = byKey(f);
  }
  return content;
}

/** The content types of one file each, in the order `entries` lists them. */
export const SINGLETONS = ['site', 'routes', 'prices', 'faq', 'banners', 'ui', 'form', 'schedule', 'legal'] as const;

/** The courses in key order. */
export const coursesByKey = (content: Content) => [...content.courses.values()].sort((a, b) => compareNames(a.key, b.key));

/** Every content entry, singletons and collections, in a stable order (`courses`: those already sorted by key, when the caller has them). */
export function entries(content: Content, courses = coursesByKey(content)): Entry<ContentType>[] {
  const singles = SINGLETONS.map((key) => content[key]);
  return [
    ...(singles.filter(Boolean) as Entry<ContentType>[]),
    ...courses,
    ...[...content.teachers.values()].sort((a, b) => compareNames(a.key, b.key)),
  ] as Entry<ContentType>[];
}
