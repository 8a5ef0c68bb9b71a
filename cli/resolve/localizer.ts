import type { Text } from '../../templates/model.ts';
import type { Locale } from '../locales.ts';
import type { LocalizedText } from '../schema/localized.ts';
import type { UiKey, UiPluralKey } from '../schema/ui-keys.ts';
import type { Translator } from './translator.ts';
import { localeLink, localeUrl } from './urls.ts';

/** How one locale says things: its texts and its URLs. */
export interface Localizer {
  locale: Locale;
  /** A content text in this locale, or its Russian fallback (marked, and counted). */
  tx(value: LocalizedText): Text;
  /** A UI string in this locale. */
  ux(key: UiKey, vars?: Record<string, unknown>): Text;
  /** A plural family's form for `count` in this locale (`prices.lessons`: 1 занятие, 4 занятия, 8 занятий). */
  ux(key: UiPluralKey, vars: { count: number; [name: string]: unknown }): Text;
  /** A route's URL in this locale: "/vocal" → "/en/vocal". */
  url(route: string): string;
  /** A content link ("/prises", "/#enquiry") in this locale. */
  link(link: string): string;
}

export function localizer(tr: Translator, locale: Locale): Localizer {
  return {
    locale,
    tx: (value) => tr.text(value, locale),
    ux: (key: UiKey | UiPluralKey, vars?: Record<string, unknown>) => tr.ui(key, locale, vars),
    url: (route) => localeUrl(route, locale),
    link: (link) => localeLink(link, locale),
  };
}
