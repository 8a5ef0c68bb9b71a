import { LOCALES, type Locale } from '../locales.ts';
import { formatPath } from '../report/problem.ts';

/** A localized text found in a content file, with where it is. */
export interface LocalizedTextSite {
  /**
   * `courses/vocal.yaml#features[2]`: where the text is now, by position. Names a text in the build's
   * fallback count, and in a translations.yaml of the earlier form (confirmations by position), which
   * is carried over by it (cli/i18n/translation-lock.ts).
   */
  key: string;
  /**
   * The name its confirmations are kept under in translations.yaml, stable across moves:
   * `banners.yaml#banners[id=school-prep].title`, `routes.yaml#routes[path=/faq].title`. A list entry
   * without an identifying field is `[*]` (`faq.yaml#items[id=payment].answer[*]`): the texts there
   * are told apart by their Russian text itself, as gettext tells messages apart by their msgid.
   */
  identity: string;
  /** The identity holds `[*]`: the text is known by its Russian text within it. */
  byText: boolean;
  path: (string | number)[];
  /** Possibly without its Russian text when the file has not passed its schema. */
  value: Partial<Record<Locale, string>>;
}

const LOCALE_KEYS: ReadonlySet<string> = new Set(LOCALES);

/** A map whose keys are all locales and whose values are strings: a localized text, possibly missing its ru. */
export const isLocalized = (v: unknown): v is Partial<Record<Locale, string>> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  let keys = 0;
  for (const k in v) {
    if (!LOCALE_KEYS.has(k) || typeof (v as Record<string, unknown>)[k] !== 'string') return false;
    keys++;
  }
  return keys > 0;
};

/**
 * The fields that name a list entry, first found first: an entry's `id`, a route's `path`, a
 * sub-program's `key`, a form option's `value` (each stable by its schema's word, and unique where
 * validate checks it).
 */
export const IDENTIFYING_FIELDS = ['id', 'path', 'key', 'value'] as const;

/** `[id=school-prep]`; a value that would read as more than one part is quoted. */
const named = (field: string, value: string) => `[${field}=${/^[^\s[\]"=]+$/.test(value) ? value : JSON.stringify(value)}]`;

/**
 * What each entry of a list is named by in an identity: its identifying field, or `[*]`. An id
 * a second entry repeats (an error validate reports) names only the first one.
 */
function entryNames(list: unknown[]): string[] {
  const seen = new Set<string>();
  return list.map((entry) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || isLocalized(entry)) return '[*]';
    for (const field of IDENTIFYING_FIELDS) {
      const value = (entry as Record<string, unknown>)[field];
      if (typeof value !== 'string' || value === '') continue;
      const name = named(field, value);
      if (seen.has(name)) return '[*]';
      seen.add(name);
      return name;
    }
    return '[*]';
  });
}

/**
 * Every localized text of one file's data, in file order. The one walk over texts: the translation
 * check runs it over every parsed file, schema-valid or not; the translator over validated content.
 */
export function localizedTexts(file: string, data: unknown): LocalizedTextSite[] {
  const sites: LocalizedTextSite[] = [];
  // Where the walk is, by position and by identity (`items`, `[id=trial]`, `.question`): joined for each text found.
  const path: (string | number)[] = [];
  const named: string[] = [];
  const walk = (value: unknown, byText: boolean) => {
    if (isLocalized(value)) {
      const at = path.slice();
      sites.push({ key: `${file}#${formatPath(at)}`, identity: `${file}#${named.join('')}`, byText, path: at, value });
    } else if (Array.isArray(value)) {
      const names = entryNames(value);
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        named.push(names[i]!);
        walk(value[i], byText || names[i] === '[*]');
        path.pop();
        named.pop();
      }
    } else if (value && typeof value === 'object')
      for (const k in value) {
        named.push(path.length ? `.${k}` : k);
        path.push(k);
        walk((value as Record<string, unknown>)[k], byText);
        path.pop();
        named.pop();
      }
  };
  walk(data, false);
  return sites;
}
