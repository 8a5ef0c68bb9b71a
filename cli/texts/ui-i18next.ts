import i18next, { type i18n } from 'i18next';
import { DEFAULT_LOCALE, LOCALES } from '../locales.ts';
import { localizedTexts } from './localized-texts.ts';

/**
 * One i18next instance for the UI strings of ui.yaml (`ui`: its file name and data), every locale
 * falling back to Russian: the translator of the build (cli/resolve/translator.ts), and validate
 * where it must say what a page will read.
 */
export function uiI18next(ui: { source: { file: string }; data: unknown } | undefined): i18n {
  // Only UI strings go through i18next (interpolation, plural forms); content texts are looked up directly.
  const resources = Object.fromEntries(LOCALES.map((l) => [l, { ui: {} as Record<string, string> }]));
  // ui.yaml's texts sit at <namespace>.<key>: their path is their i18next key.
  for (const { path, value } of ui ? localizedTexts(ui.source.file, ui.data) : [])
    for (const l of LOCALES) {
      const t = value[l];
      if (t !== undefined) resources[l]!.ui[path.join('.')] = t;
    }
  const instance = i18next.createInstance();
  instance.init({
    resources,
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
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
  return instance;
}
