import type { Chrome, FormModel, PageModel, Text } from '../../templates/model.ts';
import { enquiryRules } from '../schema/enquiry.ts';
import { UI_KEYS, type UiKey } from '../schema/ui-keys.ts';

const t = (text: string): Text => ({ text });

/**
 * One page of each kind Vike builds the client for (without and with the form), with made-up
 * content. The client bundle, and the tags Vike adds to a page, depend on the page's kind and
 * the templates, never on the content: so the bundle is built from these, beside the
 * validation of the real content rather than after it. (Whether the result is what Vike
 * writes for the real pages is checked byte for byte by the renderer test.)
 */
export function bundleSamples(): { static: PageModel; form: PageModel } {
  const ui = Object.fromEntries(Object.entries(UI_KEYS).flatMap(([ns, keys]) => keys.map((k) => [`${ns}.${k}`, t(`${ns}.${k}`)]))) as Record<UiKey, Text>;
  const contacts = { phone: '+49 30 000000', email: 'studio@example.org' };
  const chrome: Chrome = {
    locale: 'ru',
    siteName: 'Sample',
    homeHref: '/',
    menu: [],
    alternates: [{ locale: 'ru', href: '/', name: 'Русский' }],
    contacts: { ...contacts, address: 'Sample street 1', location: t('Sample') },
    hours: [],
    footerLinks: [],
    ui,
  };
  const label = (names: string[]) => Object.fromEntries(names.map((n) => [n, t(n)]));
  const form: FormModel = {
    locale: 'ru',
    action: '/api/enquiry',
    thanksHref: '/thanks',
    options: [{ value: 'sample', label: t('Sample') }],
    labels: {
      ...(label(
        'title intro name course coursePlaceholder message email required submit sending privacyNote success failure scriptFailed errorRequired errorEmail errorCourse errorTooLong'.split(
          ' ',
        ),
      ) as Omit<FormModel['labels'], 'errorSummary'>),
      errorSummary: { one: t('{{count}}'), other: t('{{count}}') },
    },
    rules: enquiryRules(),
    contacts,
    scriptTimeoutMs: 120_000,
  };
  const page = { locale: 'ru', title: t('Sample'), description: t('Sample'), noindex: true, hreflang: [], chrome, jsonLd: [] } as const;
  const og = { url: 'https://example.org/', siteName: 'Sample', locale: 'ru_RU' };
  return {
    static: { ...page, hreflang: [], jsonLd: [], og, url: '/404', route: '/404', file: '404.html', body: { kind: 'notFound', homeHref: '/' } },
    form: { ...page, hreflang: [], jsonLd: [], og, url: '/', route: '/', file: 'index.html', body: { kind: 'home', courses: [], banners: [] }, form },
  };
}
