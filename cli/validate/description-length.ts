import { problemAt } from '../load/source.ts';
import { LOCALES } from '../locales.ts';
import { catalogued, expectedOf, foundOf, type Problem } from '../report/problem.ts';
import type { Content } from './content.ts';

/**
 * About what search engines show of a meta description before they cut it off. A longer one is
 * not an error, but what is past it may never be read; nobody should shorten one by hand with
 * "…" either (it drops facts).
 */
export const DESCRIPTION_MAX = 160;

/** A warning for every page description longer than search engines show, or cut off with "…". */
export function checkDescriptions(content: Content): Problem[] {
  const problems: Problem[] = [];
  content.routes?.data.routes.forEach((route, i) => {
    for (const locale of LOCALES) {
      const text = route.description[locale];
      if (text === undefined) continue;
      const path = ['routes', i, 'description', locale];
      // Code points are counted (a spread: an array per text) only when the UTF-16 length is over the limit: they are never more.
      if (text.length > DESCRIPTION_MAX && [...text].length > DESCRIPTION_MAX)
        problems.push(
          problemAt(
            content.routes!.source,
            path,
            catalogued(
              'description-too-long',
              { path: route.path, locale, length: [...text].length, max: DESCRIPTION_MAX },
              {
                expected: expectedOf('description-too-long', 'max', { max: DESCRIPTION_MAX }),
                found: foundOf('description-too-long', 'length', { length: [...text].length }),
              },
            ),
          ),
        );
      else if (/(…|\.\.\.)$/.test(text))
        problems.push(
          problemAt(content.routes!.source, path, catalogued('description-cut-off', { path: route.path, locale }, { found: `"…${text.slice(-30)}"` })),
        );
    }
  });
  return problems;
}
