import type { i18n } from 'i18next';
import type { Text } from '../../templates/model.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales.ts';
import type { LocalizedText } from '../schema/localized.ts';
import type { UiKey } from '../schema/ui-keys.ts';
import { localizedTexts } from '../texts/localized-texts.ts';
import { uiI18next } from '../texts/ui-i18next.ts';
import type { Content } from '../validate/content.ts';
import { entries } from '../validate/content.ts';

export interface Translator {
  i18n: i18n;
  /** A content text in a locale, falling back to Russian (and saying so). */
  text(value: LocalizedText, locale: Locale): Text;
  /** A UI string, with interpolation and plural forms. */
  ui(key: UiKey | string, locale: Locale, vars?: Record<string, unknown>): Text;
  /** How many texts fell back to Russian, per locale, since creation. */
  fallbacks: Record<Locale, Set<string>>;
  /** Runs `make`, and says which texts fell back while it ran (each one, also those that fell back before). */
  collect<T>(make: () => T): { value: T; fallbacks: string[] };
  /** Counts fallbacks made elsewhere (by the pages the previous build resolved and this one takes over). */
  absorb(locale: Locale, fallbacks: readonly string[]): void;
}

/**
 * The translation runtime: one i18next instance for the UI strings, whose resources are built
 * from ui.yaml (no second, hand-kept catalogue). `fallbackLng` is ru, so a missing en or de
 * text shows the Russian one; `usedLng` tells us when that happened. Content texts follow the
 * same rule, looked up directly.
 */
export function createTranslator(content: Content): Translator {
  const i18n = uiI18next(content.ui);

  // Where each content text is, for naming a fallback: found only when the first one happens.
  let keys: WeakMap<object, string> | undefined;
  const keyOf = (value: object) => {
    if (!keys) {
      keys = new WeakMap();
      for (const entry of entries(content)) for (const s of localizedTexts(entry.source.file, entry.data)) keys.set(s.value, s.key);
    }
    return keys.get(value);
  };
  const fallbacks = Object.fromEntries(LOCALES.map((l) => [l, new Set<string>()])) as Record<Locale, Set<string>>;
  let collecting: Set<string> | undefined;
  const fellBack = (locale: Locale, id: string) => {
    fallbacks[locale].add(id);
    collecting?.add(id);
  };
  // A text is looked up once per locale and variables: pages repeat the same menu, footer, labels and prices.
  const looked = new Map<string, Text>();
  const lookup = (ns: 'ui', key: string, locale: Locale, vars?: Record<string, unknown>): Text => {
    const id = `${locale}\0${ns}\0${key}${vars ? `\0${JSON.stringify(vars)}` : ''}`;
    let text = looked.get(id);
    if (!text) {
      text = translate(ns, key, locale, vars);
      looked.set(id, text);
    } else if (text.lang !== undefined) fellBack(locale, `${ns}:${key}`); // counted for each page that shows it
    return text;
  };
  const translate = (ns: 'ui', key: string, locale: Locale, vars?: Record<string, unknown>): Text => {
    const details = i18n.t(key, { ...vars, lng: locale, ns, returnDetails: true }) as unknown as { res: string; usedLng: string };
    if (details.usedLng !== locale) {
      fellBack(locale, `${ns}:${key}`);
      return { text: details.res, lang: DEFAULT_LOCALE };
    }
    return { text: details.res };
  };
  return {
    i18n,
    fallbacks,
    text(value, locale) {
      // A content text has no variables or plural forms: i18next's fallback rule, applied directly
      // (it is called for every text of every page; i18next.t costs a hundred times more).
      const own = value[locale];
      if (own !== undefined) return { text: own };
      const source = value[DEFAULT_LOCALE];
      if (locale === DEFAULT_LOCALE) return { text: source };
      const key = keyOf(value);
      // A text built at resolve time rather than read from content: same fallback rule, not counted.
      if (key) fellBack(locale, `content:${key}`);
      return { text: source, lang: DEFAULT_LOCALE };
    },
    ui: (key, locale, vars) => lookup('ui', key, locale, vars),
    collect(make) {
      const outer = collecting;
      collecting = new Set();
      try {
        const value = make();
        const made = [...collecting];
        for (const id of made) outer?.add(id);
        return { value, fallbacks: made };
      } finally {
        collecting = outer;
      }
    },
    absorb(locale, made) {
      for (const id of made) fallbacks[locale].add(id);
    },
  };
}
