import { problemAt } from '../../load/source.ts';
import { catalogued } from '../../report/problem.ts';
import type { Check } from './check.ts';

/** The default and the fallback locale are among the available ones. */
export const localesAvailable: Check = ({ content }) => {
  const site = content.site;
  if (!site) return [];
  const { locales } = site.data;
  return (['default', 'fallback'] as const).flatMap((which) =>
    locales.available.includes(locales[which])
      ? []
      : [problemAt(site.source, ['locales', which], catalogued('unknown-locale', { which, value: locales[which] }))],
  );
};
