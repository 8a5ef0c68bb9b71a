import type { SourceFile } from '../load/source.ts';
import type { Problem } from '../report/problem.ts';
import { COLLECTION_TYPES, collectionName } from '../schema/layout.ts';
import { checkTextSyntax } from './check-text-syntax.ts';
import { bannersNotExpired } from './checks/banners.ts';
import { type Check, type CheckContext, checkContext } from './checks/check.ts';
import { keepDaysWordOnce } from './checks/days-word.ts';
import { linksExist } from './checks/links.ts';
import { coursesWithPrice, placeholders, realBaseUrl } from './checks/placeholders.ts';
import { priceAmountsReadRight } from './checks/price-amounts.ts';
import { completeTableRows, coursePricesMatchList, uniquePriceIds } from './checks/prices.ts';
import { courseTeachersExist, formCoursesExist, scheduleCoursesExist, teacherCoursesExist } from './checks/references.ts';
import { courseKeyOnCourseRoutes, courseRoutesInTable, courseRoutesShowCourses, homeRouteExists, legalRoutesNameText, uniqueRoutes } from './checks/routes.ts';
import { coursesInForm, scheduleEndsAfterStart } from './checks/schedule.ts';
import { textLettersRight } from './checks/text-letters.ts';
import { titlesFit } from './checks/title-length.ts';
import { uiVariablesFilled } from './checks/ui-variables.ts';
import { uniqueBannerIds, uniqueFaqIds, uniqueFormValues } from './checks/unique-ids.ts';
import { type Content, collection, SINGLETONS } from './content.ts';
import { checkDescriptions } from './description-length.ts';

/**
 * What a caller knows of the checks of one file at a time (cli/incremental/parse-memo.ts): what
 * each found in a source it looked at before. A file not read again keeps its source object, and
 * so what was found in it; a file read again is a new source, looked at anew.
 */
export interface KnownChecks {
  kept(check: string): WeakMap<SourceFile, Problem[]>;
}

export interface CrossCheckOptions {
  /** "Today" for banner expiry, YYYY-MM-DD. */
  today: string;
  /** What was found before (by a long-lived process, or a run before this one): the problems of `PER_FILE` checks in files not read again. */
  known?: KnownChecks;
}

const textSyntax: Check = ({ entries }) => checkTextSyntax(entries);
const descriptions: Check = ({ content }) => checkDescriptions(content); // of routes.yaml alone

/**
 * The checks that look at each file on its own (nothing of another file but its name): what they
 * find in a file is kept with its source (`KnownChecks`), by the name given here.
 */
const PER_FILE = new Map([
  [placeholders, 'placeholders'],
  [textSyntax, 'text-syntax'],
  [descriptions, 'descriptions'],
  [priceAmountsReadRight, 'price-amounts'],
  [uiVariablesFilled, 'ui-variables'],
  [textLettersRight, 'text-letters'],
  [titlesFit, 'title-length'],
]);

/** The names of the per-file checks. */
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
  scheduleEndsAfterStart,
  coursesInForm,
  uniqueFaqIds,
  realBaseUrl,
  keepDaysWordOnce,
  descriptions,
  placeholders,
  coursesWithPrice,
  textSyntax,
  priceAmountsReadRight,
  uiVariablesFilled,
  textLettersRight,
  titlesFit,
];

/** What no schema can say — references, uniqueness, consistency between files. */
export function crossCheck(content: Content, options: CrossCheckOptions): Problem[] {
  const context = checkContext(content, options.today);
  const known = options.known;
  return CHECKS.flatMap((check) => {
    const name = PER_FILE.get(check);
    return name && known ? perFile(check, context, known.kept(name)) : check(context);
  });
}

/**
 * A per-file check run on the files whose source it has not seen (a file read again has a new
 * one), the problems of the others as it found them before, all in the order the check gives them.
 */
function perFile(check: Check, context: CheckContext, kept: WeakMap<SourceFile, Problem[]>): Problem[] {
  const all = context.entries;
  const fresh = all.filter((e) => !kept.has(e.source));
  if (fresh.length) {
    const found = new Map<string, Problem[]>(fresh.map((e) => [e.source.file, []]));
    const seen = fresh.length === all.length ? context : only(context, new Set(fresh.map((e) => e.source)));
    for (const p of check(seen)) found.get(p.file)!.push(p);
    for (const e of fresh) kept.set(e.source, found.get(e.source.file)!);
  }
  return all.flatMap((e) => kept.get(e.source)!);
}

/**
 * The context with only the entries whose source is in `keep` (what a per-file check reads of it),
 * in the order the whole context has them.
 */
function only(context: CheckContext, keep: Set<SourceFile>): CheckContext {
  const { content } = context;
  const picked = <E extends { source: SourceFile }>(m: Map<string, E>) => new Map([...m].filter(([, e]) => keep.has(e.source)));
  const subset: Content = { ...content, ...Object.fromEntries(COLLECTION_TYPES.map((t) => [collectionName(t), picked(collection(content, t))])) };
  for (const key of SINGLETONS) if (subset[key] && !keep.has(subset[key].source)) subset[key] = undefined;
  const kept = <E extends { source: SourceFile }>(list: E[]) => list.filter((e) => keep.has(e.source));
  return { ...context, content: subset, courses: kept(context.courses), entries: kept(context.entries) };
}
