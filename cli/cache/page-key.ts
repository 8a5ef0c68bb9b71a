import { hash } from 'node:crypto';
import type { PageModel } from '../../templates/model.ts';
import { jsonLdScript } from '../../templates/script-json.ts';

/**
 * The key of everything a page's HTML is made from: its resolved model (which holds every
 * text, link and setting the page shows) and the templates. Same key, same bytes.
 */
export function pageKey(page: PageModel, templateKey: string): string {
  return hash('sha1', `${templateKey}\n${fields(page, SHARED_PAGE)}`, 'base64url');
}

// The parts pages share (the chrome of a locale, the form) are hashed once per object, not once
// per page: every other field is written out whole. A nested entry says which fields of that
// object are shared (the chrome itself is per page). The alternates of a route (`hreflang`) are
// written out too: pages go to the render workers a locale at a time, so the three pages that
// share them are never in one batch, and a digest of its own would cost a hash for each page.
// The structured data is written as the page's script holds it (`jsonLdScript`, its count
// first): the same text, serialized once for the key and the page.
type Shared = { [field: string]: 'digest' | 'script' | Shared };
const SHARED_PAGE: Shared = {
  form: 'digest',
  jsonLd: 'script',
  chrome: { ui: 'digest', menu: 'digest', hours: 'digest', contacts: 'digest', footerLinks: 'digest' },
};

/**
 * Every own field of `model` as `name=JSON` (or `name#digest` for a shared one, `name<count:script`
 * for the structured data) on a line of its own. Unambiguous: a field's name is an identifier, the
 * character after it says how its value is written, and no value holds a raw line break (JSON
 * escapes them). Fields are taken as they are (no copies of the model), undefined ones left out
 * as JSON does.
 */
function fields(model: object, shared: Shared): string {
  let text = '';
  const record = model as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value === undefined) continue;
    const how = Object.hasOwn(shared, name) && typeof value === 'object' && value !== null ? shared[name] : undefined;
    if (how === 'digest') text += `${name}#${digestOnce(value as object)}\n`;
    else if (how === 'script' && Array.isArray(value)) text += `${name}<${value.length}:${jsonLdScript(value)}\n`;
    else if (how && how !== 'script') text += `${name}{\n${fields(value as object, how)}}\n`;
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
