import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import type { Problem } from '../../report/problem.ts';
import { catalogued, expectedOf } from '../../report/problem.ts';
import type { ContentType } from '../../schema/layout.ts';
import type { Price } from '../../schema/price.ts';
import { type Content, coursesByKey, type Entry, entries } from '../content.ts';
import { withFix } from '../explain-schema-errors.ts';
import { suggest } from '../suggest.ts';

/** An amount as a course page or the price list states it. */
export type Amount = Pick<Price, 'amount' | 'from' | 'per'>;

/** What every check reads: the content, "today", and the lookups several checks share. */
export interface CheckContext {
  content: Content;
  /** YYYY-MM-DD, for banner expiry. */
  today: string;
  /** Every path of the route table. */
  routePaths: Set<string>;
  /** The courses each route shows (a path listed twice is reported separately). */
  routeCourses: Map<string, Set<string | undefined>>;
  /** The price list's lines by id (of an id used twice, the later line). */
  priceLines: Map<string, Amount>;
  /** The courses in key order, sorted once for every check that goes through them. */
  courses: Entry<'course'>[];
  /** Every entry, as `entries(content)` lists them, for the checks that walk all texts. */
  entries: Entry<ContentType>[];
}

/** One rule no schema can say; returns every place the content breaks it. */
export type Check = (context: CheckContext) => Problem[];

export function checkContext(content: Content, today: string): CheckContext {
  const routes = content.routes?.data.routes ?? [];
  const routeCourses = new Map<string, Set<string | undefined>>();
  for (const r of routes) routeCourses.set(r.path, (routeCourses.get(r.path) ?? new Set()).add(r.course));
  const priceLines = new Map<string, Amount>();
  for (const category of content.prices?.data.categories ?? [])
    for (const item of category.items) if (item.type === 'item') priceLines.set(item.id, item.price);
  // In key order, so their problems come in the same order on every run; sorted once, for the checks and `entries`.
  const courses = coursesByKey(content);
  return {
    content,
    today,
    routePaths: new Set(routes.map((r) => r.path)),
    routeCourses,
    priceLines,
    courses,
    entries: entries(content, courses),
  };
}

/** A reference, and what it could have named. */
export interface Reference {
  code: 'unknown-course' | 'unknown-teacher' | 'unknown-price' | 'unknown-route' | 'unknown-section';
  value: string;
  known: Iterable<string>;
  /** Shown when no known name is close to the value. */
  hint: string;
  /** The whole value that replaces what is written, for a suggestion (default: the suggestion itself). */
  fixAs?: (suggestion: string) => string;
}

/** The problem of a reference to something that does not exist, at `path` of `source`. */
export function unknownReference(content: Content, source: SourceFile, path: PathPart[], reference: Reference): Problem[] {
  const { code, value } = reference;
  // A reference to a file that exists but has errors of its own: those errors say enough.
  if ((code === 'unknown-course' && content.invalidKeys.course.has(value)) || (code === 'unknown-teacher' && content.invalidKeys.teacher.has(value))) return [];
  const list = [...reference.known]; // may be an iterator: read it once
  const suggestion = suggest(value, list);
  const described = catalogued(
    code,
    { value },
    { expected: expectedOf(code, 'oneOf', { known: [...list].sort().join(', ') }), found: `"${value}"`, hint: suggestion?.hint ?? reference.hint },
  );
  const problem = problemAt(source, path, described);
  return [suggestion ? withFix(source, problem, reference.fixAs?.(suggestion.fixed) ?? suggestion.fixed) : problem];
}
