import { hash } from 'node:crypto';
import type { PageModel } from '../../templates/model.ts';

/**
 * The key of everything a page's HTML is made from: its resolved model (which holds every
 * text, link and setting the page shows) and the templates. Same key, same bytes.
 */
export function pageKey(page: PageModel, templateKey: string): string {
  // The parts pages share (the chrome of a locale, the form, the organization, the alternates of a
  // route in every locale) are hashed once per object, not once per page.
  const c = page.chrome;
  const own = {
    ...page,
    hreflang: digestOnce(page.hreflang),
    chrome: {
      ...c,
      ui: digestOnce(c.ui),
      menu: digestOnce(c.menu),
      hours: digestOnce(c.hours),
      contacts: digestOnce(c.contacts),
      footerLinks: digestOnce(c.footerLinks),
    },
    form: page.form && digestOnce(page.form),
    jsonLd: page.jsonLd.map((entry, i) => (i === 0 ? digestOnce(entry) : entry)), // the first is the organization
  };
  return hash('sha1', `${templateKey}${JSON.stringify(own)}`, 'base64url');
}

const digests = new WeakMap<object, string>();
function digestOnce(value: object): string {
  let digest = digests.get(value);
  if (digest === undefined) {
    digest = hash('sha1', JSON.stringify(value), 'base64url');
    digests.set(value, digest);
  }
  return digest;
}
