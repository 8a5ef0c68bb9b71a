import { problemAt } from '../source.ts';
import type { Check } from './check.ts';

/** The default and the fallback locale are among the available ones. */
export const localesAvailable: Check = ({ content }) => {
  const site = content.site;
  if (!site) return [];
  const { locales } = site.data;
  return (['default', 'fallback'] as const).flatMap((which) =>
    locales.available.includes(locales[which])
      ? []
      : [
          problemAt(site.source, ['locales', which], {
            code: 'unknown-locale',
            severity: 'error',
            message: `The ${which} locale "${locales[which]}" is not in locales.available.`,
            hint: 'Add it to available.',
          }),
        ],
  );
};
