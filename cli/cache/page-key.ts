import { hash } from 'node:crypto';
import type { PageModel } from '../../templates/model.ts';
import { jsonLdScript } from '../../templates/script-json.ts';

/**
 * The key of everything a page's HTML is made from: its resolved model (which holds every
 * text, link and setting the page shows) and the templates. Same key, same bytes.
 * Written as the page's structured data as its script holds it (`jsonLdScript`, its count
 * first: the same text, serialized once for the key and the page), then the rest of the model
 * as one JSON text (`keyed`). One text made by one JSON.stringify: a field at a time cost a
 * call each and a string of many pieces to flatten before hashing.
 */
export function pageKey(page: PageModel, templateKey: string): string {
  const script = page.jsonLd.length ? jsonLdScript(page.jsonLd) : '';
  return hash('sha1', `${templateKey}\n${page.jsonLd.length}:${script}\n${JSON.stringify(keyed(page, SHARED_PAGE))}`, 'base64url');
}

// The parts pages share (the chrome of a locale, the form) are hashed once per object, not once
// per page: every other field is written out whole. A nested entry says which fields of that
// object are shared (the chrome itself is per page). The alternates of a route (`hreflang`) are
// written out too: pages go to the render workers a locale at a time, so the three pages that
// share them are never in one batch, and a digest of its own would cost a hash for each page.
// The structured data is left out of the JSON: the script's text before it stands for it.
type Shared = { [field: string]: 'digest' | 'script' | Shared };
const SHARED_PAGE: Shared = {
  form: 'digest',
  jsonLd: 'script',
  chrome: { ui: 'digest', menu: 'digest', hours: 'digest', contacts: 'digest', footerLinks: 'digest' },
};

/**
 * A shallow copy of `model` with each shared part as its digest (a string where the model always
 * has an object or nothing: unambiguous) and the structured data left out. Fields keep their
 * order; undefined ones are left out by JSON as before. The model itself is not changed.
 */
function keyed(model: object, shared: Shared): object {
  const copy: Record<string, unknown> = { ...model };
  for (const name of Object.keys(shared)) {
    const value = copy[name];
    if (typeof value !== 'object' || value === null) continue;
    const how = shared[name]!;
    copy[name] = how === 'digest' ? digestOnce(value) : how === 'script' ? undefined : keyed(value, how);
  }
  return copy;
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
