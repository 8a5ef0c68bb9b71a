import { formatPath } from '../report/problem.ts';
import { LOCALES, type Locale } from '../schema/locales.ts';

/** A localized text found in a content file, with where it is. */
export interface LocalizedTextSite {
  /**
   * `courses/vocal.yaml#features[2]`: the text's name in content/translations.yaml (so it must not
   * change: the confirmed translations are stored under it) and in the build's fallback count.
   */
  key: string;
  path: (string | number)[];
  /** Possibly without its Russian text when the file has not passed its schema. */
  value: Partial<Record<Locale, string>>;
}

/** A map whose keys are all locales and whose values are strings: a localized text, possibly missing its ru. */
export const isLocalized = (v: unknown): v is Partial<Record<Locale, string>> =>
  Boolean(v) &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v as object).length > 0 &&
  Object.entries(v as object).every(([k, x]) => (LOCALES as readonly string[]).includes(k) && typeof x === 'string');

/**
 * Every localized text of one file's data, in file order. The one walk over texts: the translation
 * check runs it over every parsed file, schema-valid or not; the translator over validated content.
 */
export function localizedTexts(file: string, data: unknown): LocalizedTextSite[] {
  const sites: LocalizedTextSite[] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    if (isLocalized(value)) sites.push({ key: `${file}#${formatPath(path)}`, path, value });
    else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(v, [...path, i]);
      });
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(data, []);
  return sites;
}
