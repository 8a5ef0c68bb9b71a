import type { Chrome, Contacts, Text } from '../../templates/model.ts';
import { ENDONYMS, type Locale } from '../locales.ts';
import { inLocale, known } from '../schema/layout.ts';
import type { RoutesFile } from '../schema/routes.ts';
import type { SiteFile } from '../schema/site.ts';
import { PLURAL_SUFFIXES, UI_KEYS, type UiKey } from '../schema/ui-keys.ts';
import type { Localizer } from './localizer.ts';
import { localeUrl } from './urls.ts';

/** The studio's contacts in one locale, as the header, the footer and the form show them. */
export function contacts({ locale, tx }: Localizer, site: SiteFile): Contacts {
  const c = site.contacts;
  const phone = known(c.phone);
  const email = known(c.email);
  const shown = (v: string | Record<string, string>) => inLocale(v, locale);
  return {
    phone: shown(c.phone),
    phoneHref: phone ? `tel:${phone.replace(/[^+0-9]/g, '')}` : undefined,
    email: shown(c.email),
    emailHref: email ? `mailto:${email}` : undefined,
    address: [shown(c.address.street), `${shown(c.address.postalCode)} ${shown(c.address.city)}`].join(', '),
    location: tx(c.location),
  };
}

/**
 * The chrome (header, footer, UI strings) of a locale's pages. What they share is built once;
 * only the language switcher differs from page to page.
 */
export function chromeMaker(l: Localizer, site: SiteFile, routes: RoutesFile['routes'], locales: Locale[], shown: Contacts): (route: string) => Chrome {
  const { locale, tx, url } = l;
  const shared = {
    locale,
    siteName: inLocale(site.name, locale),
    homeHref: url('/'),
    menu: site.menu.map((m) => ({ id: m.id, label: tx(m.label), href: l.link(m.link) })),
    contacts: shown,
    hours: site.hours.map((h) => ({
      days: tx(h.days),
      time: h.time === undefined ? undefined : inLocale(h.time, locale),
      note: h.note ? tx(h.note) : undefined,
    })),
    footerLinks: routes.filter((r) => r.page === 'legal').map((r) => ({ href: url(r.path), label: tx(r.title) })),
    ui: uiStrings(l),
  };
  return (route) => ({ ...shared, alternates: locales.map((other) => ({ locale: other, href: localeUrl(route, other), name: ENDONYMS[other] })) });
}

/** Every UI string in a locale, for the templates. */
function uiStrings({ locale, ux }: Localizer): Record<UiKey, Text> {
  return Object.fromEntries(
    Object.entries(UI_KEYS).flatMap(([ns, keys]) =>
      keys
        // Plural forms this locale does not have (English has no "few") are not looked up at all.
        .filter((k) => !/_(few|many)$/.test(k) || (PLURAL_SUFFIXES[locale] as readonly string[]).includes(k.split('_').at(-1)!))
        .map((k) => [`${ns}.${k}`, ux(`${ns}.${k}` as UiKey)]),
    ),
  ) as Record<UiKey, Text>;
}
