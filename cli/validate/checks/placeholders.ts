import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import { DEFAULT_LOCALE } from '../../locales.ts';
import { catalogued, hintOf, type Problem } from '../../report/problem.ts';
import { PLACEHOLDER_PATTERN } from '../../schema/layout.ts';
import type { Check } from './check.ts';
import { type Place, placeOf } from './placeholder-places.ts';

/** A placeholder with the pages it is shown on, or as shown on no page (issue 38: never "shown to visitors" when none can read it). */
const placeholderProblem = (what: string, value: string, place: Place): Omit<Problem, 'file' | 'line' | 'column' | 'path'> =>
  'on' in place
    ? { ...catalogued('placeholder', { what, where: place.on }, { found: value }), where: place.on }
    : catalogued('placeholder', { what }, { found: value, variant: 'unshown', hint: hintOf('placeholder', { why: place.unshown }, 'unshown') });

/** A public address on a name reserved for examples (RFC 2606: `.example`, `.invalid`, `.test`, `example.…`) is a placeholder too. */
export const realBaseUrl: Check = ({ content }) => {
  const site = content.site;
  if (!site || !/\.(example|invalid|test)(\/|$)|\/\/example\./.test(site.data.baseUrl)) return [];
  return [problemAt(site.source, ['baseUrl'], placeholderProblem('the public address of the site', site.data.baseUrl, placeOf(content, site, ['baseUrl'])))];
};

/**
 * Every `TODO:` string, with the pages it is shown on. A localized text is reported once (at its
 * Russian text), not once per locale.
 */
export const placeholders: Check = ({ content, entries }) => {
  const problems: Problem[] = [];
  const todo = new RegExp(PLACEHOLDER_PATTERN);
  // One path, extended and shortened as the walk goes; a problem gets a copy (problemAt keeps none).
  const path: PathPart[] = [];
  let place: (() => Place) | undefined;
  const walk = (source: SourceFile, value: unknown) => {
    if (typeof value === 'string') {
      if (todo.test(value)) problems.push(problemAt(source, path, placeholderProblem(value.replace(todo, '').trim(), value, place!())));
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) within(source, i, value[i]);
    } else if (value && typeof value === 'object') {
      const map = value as Record<string, unknown>;
      if (typeof map[DEFAULT_LOCALE] === 'string' && todo.test(map[DEFAULT_LOCALE])) within(source, DEFAULT_LOCALE, map[DEFAULT_LOCALE]);
      else for (const k of Object.keys(map)) within(source, k, map[k]);
    }
  };
  const within = (source: SourceFile, part: PathPart, value: unknown) => {
    path.push(part);
    walk(source, value);
    path.pop();
  };
  for (const entry of entries) {
    place = () => placeOf(content, entry, path);
    walk(entry.source, entry.data);
  }
  return problems;
};

/** A course with a page of its own whose page shows no price at all (the course states none). */
export const coursesWithPrice: Check = ({ courses }) =>
  courses
    .filter((c) => c.data.route && !c.data.price)
    .map((c) => problemAt(c.source, ['route'], catalogued('course-without-price', { course: c.key, route: c.data.route! })));
