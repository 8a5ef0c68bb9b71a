import { DEFAULT_LOCALE, LANGUAGE_NAMES, LOCALES } from '../../locales.ts';
import { catalogued, expectedOf, hintOf, type Problem } from '../../report/problem.ts';
import { PLURAL_SUFFIX, UI_VARIABLES } from '../../schema/ui-keys.ts';
import type { Check } from './check.ts';
import { problemAtPart } from './text-position.ts';

/** `{name}` in single braces, not part of `{{name}}`. */
const SINGLE = /(?<!\{)\{\s*([A-Za-z_]\w*)\s*\}(?!\})/;
/** `{{name}}`, and i18next's forms of it (`{{- name}}`, `{{name, number}}`). */
const DOUBLE = /\{\{-?\s*([^\s,}]*)[^}]*\}\}/g;
const braces = (names: readonly string[]) => names.map((n) => `{{${n}}}`).join(', ');
/** `{{name}}` as i18next reads it: spaces inside the braces, a format after a comma. */
const uses = (text: string, name: string) => new RegExp(`\\{\\{-?\\s*${name}\\s*(,[^}]*)?\\}\\}`).test(text);

/**
 * The variables of every UI string (issue #34): the site fills in `{{name}}` only, and only the
 * names it passes for that key (UI_VARIABLES, which tests/validate/ui-variables.test.ts holds to the
 * calls in cli/ and templates/). `ab {amount}` shows visitors "ab {amount}" and no price; a text
 * that leaves a variable out shows no value at all. (Unknown names in double braces: check-text-syntax.ts.)
 * The singular forms of English and German (`_one`) may say the number in words ("one lesson").
 */
export const uiVariablesFilled: Check = ({ content }) => {
  const ui = content.ui;
  if (!ui) return [];
  const problems: Problem[] = [];
  for (const [ns, keys] of Object.entries(ui.data as Record<string, Record<string, Partial<Record<(typeof LOCALES)[number], string>>>>))
    for (const [name, value] of Object.entries(keys)) {
      const key = `${ns}.${name}`;
      const declared = UI_VARIABLES[key.replace(PLURAL_SUFFIX, '')] ?? [];
      const singular = PLURAL_SUFFIX.exec(name)?.[1] === 'one';
      for (const locale of LOCALES) {
        const text = value[locale];
        // Most UI texts have no braces and no variables: nothing to look at.
        if (typeof text !== 'string' || (!declared.length && !text.includes('{'))) continue;
        const language = LANGUAGE_NAMES[locale];
        const path = [ns, name, locale];
        const single = SINGLE.exec(text);
        if (single) {
          const [found, variable] = [single[0], single[1]!];
          const known = declared.includes(variable);
          const expected = declared.length
            ? expectedOf('single-brace-variable', 'variables', { key, variables: braces(declared) })
            : expectedOf('single-brace-variable', 'noVariables', { key });
          problems.push(
            problemAtPart(
              ui.source,
              path,
              found,
              catalogued(
                'single-brace-variable',
                { language, found, variable: `{{${variable}}}` },
                known
                  ? { expected, found: `"${found}"` }
                  : {
                      variant: 'unknown',
                      expected,
                      found: `"${found}"`,
                      hint: hintOf('single-brace-variable', { variables: braces(declared) || 'none' }, 'unknown'),
                    },
              ),
            ),
          );
          continue;
        }
        // A misspelt {{name}} is reported as unknown (check-text-syntax.ts), not again as the one left out.
        if ((singular && locale !== DEFAULT_LOCALE) || [...text.matchAll(DOUBLE)].some((m) => !declared.includes(m[1]!))) continue;
        const missing = declared.find((v) => !uses(text, v));
        if (missing === undefined) continue;
        const variable = `{{${missing}}}`;
        const russian = value[DEFAULT_LOCALE];
        problems.push(
          problemAtPart(
            ui.source,
            path,
            text,
            catalogued(
              'missing-variable',
              { language, variable, russian: russian ?? '' },
              {
                expected: expectedOf('missing-variable', 'variables', { key, variables: braces(declared) }),
                found: `"${text}"`,
                ...(locale === DEFAULT_LOCALE || russian === undefined || !uses(russian, missing)
                  ? { hint: hintOf('missing-variable', { variable, key, variables: braces(declared) }, 'russian') }
                  : {}),
              },
            ),
          ),
        );
      }
    }
  return problems;
};
