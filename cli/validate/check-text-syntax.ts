import { type PathPart, problemAt } from '../load/source.ts';
import { DEFAULT_LOCALE, LOCALES } from '../locales.ts';
import { catalogued, expectedOf, hintOf, type Problem } from '../report/problem.ts';
import { LEGAL_VARIABLES } from '../schema/keep-days.ts';
import type { ContentType } from '../schema/layout.ts';
import { PLURAL_SUFFIX, UI_VARIABLES } from '../schema/ui-keys.ts';
import type { Entry } from './content.ts';

/** i18next nesting: `$t(key)` inserts another text (an object, printed "[object Object]", for a namespace). */
const NESTING = /\$t\([^)]*\)?/;
/** i18next interpolation: `{{name}}`, and its forms with formatting (`{{x, number}}`) or unescaping (`{{- x}}`). */
const INTERPOLATION = /\{\{(.*?)\}\}/g;
const PLAIN_VARIABLE = /^\s*([A-Za-z_][\w]*)\s*$/;

const isLocalized = (v: unknown): v is Record<string, string> =>
  Boolean(v) && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>)[DEFAULT_LOCALE] === 'string';

const braces = (names: readonly string[]) => names.map((n) => `{{${n}}}`).join(', ');

/**
 * i18next syntax in texts (issue 12): UI strings go through i18next, which would interpret
 * `$t(…)` and any `{{…}}`; content texts are shown as written, so there the same characters
 * reach visitors as they are. Either way it is a mistake: each is an error at its text. The
 * variables a UI string may hold are declared with its key (UI_VARIABLES); content texts have none.
 */
export function checkTextSyntax(entries: readonly Entry<ContentType>[]): Problem[] {
  const problems: Problem[] = [];
  // One path, extended and shortened as the walk goes; a problem gets a copy (problemAt keeps none).
  const path: PathPart[] = [];
  for (const entry of entries) {
    const isUi = entry.source.file === 'ui.yaml';
    // The legal texts may state the retention period the server applies ({{keepDays}}), filled in by the build.
    const isLegal = entry.source.file === 'legal.yaml';
    const texts = (value: Record<string, string>) => {
      // The key names the UI string: made only for ui.yaml, not for every text of every course.
      const key = isUi ? path.join('.') : undefined;
      const declared = isLegal ? LEGAL_VARIABLES : key === undefined ? [] : (UI_VARIABLES[key.replace(PLURAL_SUFFIX, '')] ?? []);
      for (const locale of LOCALES) {
        const text = value[locale];
        if (typeof text !== 'string') continue;
        const p = textProblem(text, declared, key);
        if (!p) continue;
        path.push(locale);
        problems.push(problemAt(entry.source as Entry<never>['source'], path, p));
        path.pop();
      }
    };
    const walk = (value: unknown) => {
      if (isLocalized(value)) texts(value);
      else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) within(i, value[i]);
      else if (value && typeof value === 'object') for (const k of Object.keys(value)) within(k, (value as Record<string, unknown>)[k]);
    };
    const within = (part: PathPart, value: unknown) => {
      path.push(part);
      walk(value);
      path.pop();
    };
    walk(entry.data);
  }
  return problems;
}

function textProblem(text: string, declared: readonly string[], uiKey: string | undefined): Omit<Problem, 'file' | 'line' | 'column' | 'path'> | undefined {
  // Most texts have neither; matchAll would make a new RegExp for every one of them.
  if (!text.includes('$t(') && !text.includes('{{')) return undefined;
  const shown = uiKey ? 'i18next would interpret it' : 'content texts are shown as written, so visitors would see these characters';
  const nested = NESTING.exec(text);
  if (nested)
    return catalogued(
      'i18next-syntax',
      { found: nested[0], effect: uiKey ? 'the page would show "[object Object]" or the other text' : shown },
      { expected: expectedOf('i18next-syntax', 'plain', {}), found: `"${nested[0]}"` },
    );
  for (const m of text.matchAll(INTERPOLATION)) {
    const name = PLAIN_VARIABLE.exec(m[1]!)?.[1];
    const code = name === undefined ? 'i18next-syntax' : 'unknown-variable';
    const expected = declared.length
      ? expectedOf(code, 'variables', { key: uiKey ?? '', variables: braces(declared) })
      : uiKey
        ? expectedOf(code, 'noVariables', { key: uiKey })
        : expectedOf(code, 'noContentVariables', {});
    if (name === undefined)
      return catalogued(
        'i18next-syntax',
        { found: m[0], effect: shown },
        {
          variant: 'formatting',
          expected,
          found: `"${m[0]}"`,
          hint: declared.length
            ? hintOf('i18next-syntax', { variable: braces(declared.slice(0, 1)) }, 'plainVariable')
            : hintOf('i18next-syntax', {}, 'noVariables'),
        },
      );
    if (!declared.includes(name))
      return catalogued(
        'unknown-variable',
        { found: m[0], effect: uiKey ? 'i18next would leave it empty or as written' : shown },
        {
          expected,
          found: `"${m[0]}"`,
          hint: declared.length ? hintOf('unknown-variable', { variables: braces(declared) }, 'variables') : hintOf('unknown-variable', {}, 'noVariables'),
        },
      );
  }
  return undefined;
}
