import i18next, { type i18n } from 'i18next';
import type { Locale, Text } from '../../templates/model.ts';
import { formatPath } from '../report/problem.ts';
import { LOCALES } from '../schema/locales.ts';
import type { LocalizedText } from '../schema/localized.ts';
import type { UiKey } from '../schema/ui-keys.ts';
import type { Content } from '../validate/content.ts';
import { entries } from '../validate/content.ts';

/** A localized text found in the content, with where it is. */
export interface TextSite {
  /** `courses/vocal.yaml#features[2]` — also its i18next key in the `content` namespace. */
  key: string;
  file: string;
  path: (string | number)[];
  value: LocalizedText;
}

export const isLocalizedText = (v: unknown): v is LocalizedText =>
  Boolean(v) &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  typeof (v as { ru?: unknown }).ru === 'string' &&
  Object.keys(v as object).every((k) => (LOCALES as readonly string[]).includes(k));

/** Every localized text of the content, in file order. UI strings are keyed `ui:<ns>.<key>`. */
export function collectTexts(content: Content): TextSite[] {
  const sites: TextSite[] = [];
  for (const entry of entries(content)) {
    const walk = (value: unknown, path: (string | number)[]) => {
      if (isLocalizedText(value)) {
        const key = entry.source.file === 'ui.yaml' ? `ui:${path.join('.')}` : `${entry.source.file}#${formatPath(path)}`;
        sites.push({ key, file: entry.source.file, path, value });
      } else if (Array.isArray(value)) {
        value.forEach((v, i) => {
          walk(v, [...path, i]);
        });
      } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(entry.data, []);
  }
  return sites;
}

export interface Translator {
  i18n: i18n;
  /** A content text in a locale, falling back to Russian (and saying so). */
  text(value: LocalizedText, locale: Locale): Text;
  /** A UI string, with interpolation and plural forms. */
  ui(key: UiKey | string, locale: Locale, vars?: Record<string, unknown>): Text;
  /** How many texts fell back to Russian, per locale, since creation. */
  fallbacks: Record<Locale, Set<string>>;
}

/**
 * The translation runtime: one i18next instance for the UI strings, whose resources are built
 * from ui.yaml (no second, hand-kept catalogue). `fallbackLng` is ru, so a missing en or de
 * text shows the Russian one; `usedLng` tells us when that happened. Content texts follow the
 * same rule, looked up directly.
 */
export function createTranslator(content: Content): Translator {
  // Only UI strings go through i18next (interpolation, plural forms); content texts are looked up directly.
  const resources: Record<string, { ui: Record<string, string> }> = {};
  for (const l of LOCALES) resources[l] = { ui: {} };
  for (const s of collectTexts({ ui: content.ui, courses: new Map(), teachers: new Map(), invalidKeys: content.invalidKeys })) {
    for (const l of LOCALES) {
      const t = s.value[l];
      if (t !== undefined) resources[l]!.ui[s.key.slice(3)] = t;
    }
  }
  const i18n = i18next.createInstance();
  i18n.init({
    resources,
    lng: 'ru',
    fallbackLng: 'ru',
    supportedLngs: [...LOCALES],
    ns: ['ui'],
    defaultNS: 'ui',
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  } as Parameters<i18n['init']>[0]);

  // Where each content text is, for naming a fallback: found only when the first one happens.
  let keys: WeakMap<object, string> | undefined;
  const keyOf = (value: object) => {
    if (!keys) {
      keys = new WeakMap();
      for (const s of collectTexts(content)) keys.set(s.value, s.key);
    }
    return keys.get(value);
  };
  const fallbacks: Record<Locale, Set<string>> = { ru: new Set(), en: new Set(), de: new Set() };
  const fellBack = (locale: Locale, id: string) => {
    fallbacks[locale].add(id);
  };
  // A text without variables is looked up once per locale: pages repeat the same menu, footer and labels.
  const memo = new Map<string, Text>();
  const lookup = (ns: 'ui', key: string, locale: Locale, vars?: Record<string, unknown>): Text => {
    if (vars) return translate(ns, key, locale, vars);
    const id = `${locale}\0${ns}\0${key}`;
    let text = memo.get(id);
    if (!text) {
      text = translate(ns, key, locale);
      memo.set(id, text);
    }
    return text;
  };
  const translate = (ns: 'ui', key: string, locale: Locale, vars?: Record<string, unknown>): Text => {
    const details = i18n.t(key, { ...vars, lng: locale, ns, returnDetails: true }) as unknown as { res: string; usedLng: string };
    if (details.usedLng !== locale) {
      fellBack(locale, `${ns}:${key}`);
      return { text: details.res, lang: 'ru' };
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
      const key = keyOf(value);
      // A text built at resolve time rather than read from content: same fallback rule, not counted.
      if (!key) return { text: value.ru, lang: locale === 'ru' ? undefined : 'ru' };
      if (locale !== 'ru') fellBack(locale, `content:${key}`);
      return locale === 'ru' ? { text: value.ru } : { text: value.ru, lang: 'ru' };
    },
    ui: (key, locale, vars) => lookup('ui', key, locale, vars),
  };
}
