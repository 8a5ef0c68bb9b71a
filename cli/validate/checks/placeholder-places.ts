import type { PathPart } from '../../load/source.ts';
import type { ContentType } from '../../schema/layout.ts';
import type { Content, Entry } from '../content.ts';

/** Where visitors read a text: the pages, in words an editor recognises; `unshown` names why no page shows it. */
export type Place = { on: string } | { unshown: string };

/** The fields of a course its card on the home page shows too (cli/resolve/pages/home.ts). */
const ON_CARD = new Set<PathPart>(['title', 'summary', 'age', 'price']);

/**
 * Where the text at `path` of `entry` is shown on the built site (issue 38): a placeholder is
 * reported with its pages, or as shown on no page, never as "shown to visitors" when nobody can
 * read it. Follows what the page builders in cli/resolve/pages/ render; the same pages exist in
 * every language.
 */
export function placeOf(content: Content, entry: Entry<ContentType>, path: readonly PathPart[]): Place {
  const top = path[0];
  if (entry === content.site) {
    // No page renders the legal name (the Impressum asks for the operator's name itself).
    if (top === 'legalName') return { unshown: 'no page shows site.yaml legalName' };
    if (top === 'baseUrl') return { on: 'every page, in its links and shared previews (not as text)' };
    return { on: 'every page (header, footer or title)' };
  }
  if (entry === content.routes) {
    const route = typeof path[1] === 'number' ? content.routes.data.routes[path[1]] : undefined;
    return { on: route ? `${route.path} (its title and description)` : 'the pages routes.yaml lists' };
  }
  if (entry === content.prices) return { on: '/prises' };
  if (entry === content.faq) return { on: '/faq' };
  if (entry === content.schedule) return { on: '/schedule' };
  if (entry === content.banners) return { on: '/ (the banners of the home page)' };
  if (entry === content.form) return { on: 'every page with the enquiry form' };
  if (entry === content.ui) return { on: 'every page that uses this text' };
  // Named by the text, not looked up in routes.yaml: this check reads each file on its own (PER_FILE in cross-check.ts).
  if (entry === content.legal) return { on: `the ${String(top)} page` };
  if (content.teachers.get(entry.key) === entry) return { on: '/teachers' };
  if (content.courses.get(entry.key) === entry) {
    const route = (entry as Entry<'course'>).data.route;
    if (!route) return { unshown: 'the course has no page (no route) and so no card on the home page' };
    return { on: top !== undefined && ON_CARD.has(top) ? `${route} and its card on the home page` : route };
  }
  return { on: 'the site' };
}
