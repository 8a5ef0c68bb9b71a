import type { FileMemo } from '../cache/file-memo.ts';
import type { Problem } from '../report/problem.ts';
import type { ContentType } from '../schema/layout.ts';
import { checkTextSyntax } from './check-text-syntax.ts';
import { bannersNotExpired } from './checks/banners.ts';
import { type Check, checkContext } from './checks/check.ts';
import { linksExist } from './checks/links.ts';
import { localesAvailable } from './checks/locales.ts';
import { placeholders, realBaseUrl } from './checks/placeholders.ts';
import { completeTableRows, coursePricesMatchList, uniquePriceIds } from './checks/prices.ts';
import { courseTeachersExist, formCoursesExist, scheduleCoursesExist, teacherCoursesExist } from './checks/references.ts';
import { courseKeyOnCourseRoutes, courseRoutesInTable, courseRoutesShowCourses, homeRouteExists, legalRoutesNameText, uniqueRoutes } from './checks/routes.ts';
import { uniqueBannerIds, uniqueFaqIds, uniqueFormValues } from './checks/unique-ids.ts';
import { type Content, type Entry, entries, SINGLETONS } from './content.ts';
import { checkDescriptions } from './description-length.ts';
import type { SourceFile } from './source.ts';

export interface CrossCheckOptions {
  /** "Today" for banner expiry, YYYY-MM-DD. */
  today: string;
  /** What a long-lived process found before: the problems of `PER_FILE` checks in files it has not read again. */
  memo?: FileMemo;
}

const textSyntax: Check = ({ entries }) => checkTextSyntax(entries);
const descriptions: Check = ({ content }) => checkDescriptions(content); // of routes.yaml alone

/** The checks that look at each file on its own (nothing of another file): what they find in a file is kept with its source, by the check's name. */
const PER_FILE = new Map<Check, string>([
  [placeholders, 'placeholders'],
  [textSyntax, 'textSyntax'],
  [descriptions, 'descriptions'],
]);

/** The names of the per-file checks (what a memo keeps of every file). */
export const PER_FILE_CHECKS = [...PER_FILE.values()];

/** Every cross-file rule; a new rule is a new entry. (The order only matters for problems at the same place: they are sorted afterwards.) */
const CHECKS: Check[] = [
  uniquePriceIds,
  completeTableRows,
  uniqueRoutes,
  courseRoutesShowCourses,
  legalRoutesNameText,
  courseKeyOnCourseRoutes,
  homeRouteExists,
  courseRoutesInTable,
  courseTeachersExist,
  coursePricesMatchList,
  teacherCoursesExist,
  linksExist,
  bannersNotExpired,
  uniqueBannerIds,
  formCoursesExist,
  uniqueFormValues,
  scheduleCoursesExist,
  uniqueFaqIds,
  localesAvailable,
  realBaseUrl,
  descriptions,
  placeholders,
  textSyntax,
];

/** Stage 3: what no schema can say — references, uniqueness, consistency between files. */
export function crossCheck(content: Content, options: CrossCheckOptions): Problem[] {
  const context = checkContext(content, options.today);
  const memo = options.memo;
  const all = memo && entries(content);
  return CHECKS.flatMap((check) =>
    all && PER_FILE.has(check) ? perFile(check, content, all, options.today, memo!.kept(PER_FILE.get(check)!)) : check(context),
  );
}

/**
 * A per-file check run on the files whose source it has not seen (a file read again has a new
 * one), the problems of the others as it found them before, all in the order the check gives them.
 */
function perFile(check: Check, content: Content, all: Entry<ContentType>[], today: string, kept: WeakMap<SourceFile, Problem[]>): Problem[] {
  const fresh = all.filter((e) => !kept.has(e.source));
  if (fresh.length) {
    const found = new Map<string, Problem[]>(fresh.map((e) => [e.source.file, []]));
    for (const p of check(checkContext(only(content, new Set(fresh.map((e) => e.source))), today))) found.get(p.file)!.push(p);
    for (const e of fresh) kept.set(e.source, found.get(e.source.file)!);
  }
  return all.flatMap((e) => kept.get(e.source)!);
}

/** The content with only the entries whose source is in `keep` (what a per-file check reads of it). */
function only(content: Content, keep: Set<SourceFile>): Content {
  const picked = <E extends { source: SourceFile }>(m: Map<string, E>) => new Map([...m].filter(([, e]) => keep.has(e.source)));
  const subset: Content = { ...content, courses: picked(content.courses), teachers: picked(content.teachers) };
  for (const key of SINGLETONS) if (subset[key] && !keep.has(subset[key].source)) subset[key] = undefined;
  return subset;
}
