import { hash } from 'node:crypto';
import type { PageModel } from '../../templates/model.ts';

/**
 * The key of everything a page's HTML is made from: its resolved model (which holds every
 * text, link and setting the page shows) and the templates. Same key, same bytes.
 */
export function pageKey(page: PageModel, templateKey: string): string {
  return hash('sha1', `${templateKey}\n${fields(page, SHARED_PAGE)}`, 'base64url');
}

// The parts pages share (the chrome of a locale, the form, the alternates of a route in every
// locale) are hashed once per object, not once per page: every other field is written out whole.
// A nested entry says which fields of that object are shared (the chrome itself is per page).
type Shared = { [field: string]: 'digest' | Shared };
const SHARED_PAGE: Shared = {
  hreflang: 'digest',
  form: 'digest',
  chrome: { ui: 'digest', menu: 'digest', hours: 'digest', contacts: 'digest', footerLinks: 'digest' },
};

/**
 * Every own field of `model` as `name=JSON` (or `name#digest` for a shared one) on a line of
 * its own. Unambiguous: JSON has no raw line breaks and never starts with '#' or '{' after '#'.
 * Fields are taken as they are (no copies of the model), undefined ones left out as JSON does.
 */
function fields(model: object, shared: Shared): string {
  let text = '';
  const record = model as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value === undefined) continue;
    const how = Object.hasOwn(shared, name) && typeof value === 'object' && value !== null ? shared[name] : undefined;
    if (how === 'digest') text += `${name}#${digestOnce(value as object)}\n`;
    else if (how) text += `${name}{\n${fields(value as object, how)}}\n`;
    else text += `${name}=${JSON.stringify(value)}\n`;
  }
  return text;
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
