import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';

interface Entry {
  deps: readonly unknown[];
  html: string;
}
const rendered = new WeakMap<object, Entry>();

/**
 * The HTML of a part that many pages share (the footer of a locale, the form of a course),
 * rendered once and reused while its inputs are the very same objects (page models share
 * them; they are never changed after resolving). The caller puts the HTML into the part's
 * own element with dangerouslySetInnerHTML: the bytes are those React writes in place.
 */
export function sharedHtml(deps: readonly [object, ...unknown[]], render: () => ReactNode): string {
  const hit = rendered.get(deps[0]);
  if (hit && hit.deps.length === deps.length && hit.deps.every((d, i) => d === deps[i])) return hit.html;
  const html = renderToString(render());
  rendered.set(deps[0], { deps, html });
  return html;
}
