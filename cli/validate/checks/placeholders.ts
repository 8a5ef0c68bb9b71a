import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import { catalogued, type Problem } from '../../report/problem.ts';
import { PLACEHOLDER_PATTERN } from '../../schema/layout.ts';
import type { Check } from './check.ts';

const placeholderProblem = (what: string, value: string): Omit<Problem, 'file' | 'line' | 'column' | 'path'> =>
  catalogued('placeholder', { what }, { found: value });

/** A public address on a name reserved for examples (RFC 2606: `.example`, `.invalid`, `.test`, `example.…`) is a placeholder too. */
export const realBaseUrl: Check = ({ content }) => {
  const site = content.site;
  if (!site || !/\.(example|invalid|test)(\/|$)|\/\/example\./.test(site.data.baseUrl)) return [];
  return [problemAt(site.source, ['baseUrl'], placeholderProblem('the public address of the site', site.data.baseUrl))];
};

/**
 * Every `TODO:` string. A localized text is reported once (at its Russian text), not once per
 * locale.
 */
export const placeholders: Check = ({ entries }) => {
  const problems: Problem[] = [];
  const todo = new RegExp(PLACEHOLDER_PATTERN);
  // One path, extended and shortened as the walk goes; a problem gets a copy (problemAt keeps none).
  const path: PathPart[] = [];
  const walk = (source: SourceFile, value: unknown) => {
    if (typeof value === 'string') {
      if (todo.test(value)) problems.push(problemAt(source, path, placeholderProblem(value.replace(todo, '').trim(), value)));
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) within(source, i, value[i]);
    } else if (value && typeof value === 'object') {
      const map = value as Record<string, unknown>;
      if (typeof map.ru === 'string' && todo.test(map.ru)) within(source, 'ru', map.ru);
      else for (const k of Object.keys(map)) within(source, k, map[k]);
    }
  };
  const within = (source: SourceFile, part: PathPart, value: unknown) => {
    path.push(part);
    walk(source, value);
    path.pop();
  };
  for (const entry of entries) walk(entry.source, entry.data);
  return problems;
};
