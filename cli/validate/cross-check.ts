import type { Problem } from '../report/problem.ts';
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
import type { Content } from './content.ts';
import { checkDescriptions } from './description-length.ts';

export interface CrossCheckOptions {
  /** "Today" for banner expiry, YYYY-MM-DD. */
  today: string;
}

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
  ({ content }) => checkDescriptions(content),
  placeholders,
  ({ entries }) => checkTextSyntax(entries),
];

/** Stage 3: what no schema can say — references, uniqueness, consistency between files. */
export function crossCheck(content: Content, options: CrossCheckOptions): Problem[] {
  const context = checkContext(content, options.today);
  return CHECKS.flatMap((check) => check(context));
}
