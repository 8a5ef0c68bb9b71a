import type { PageModel } from '../../templates/model.ts';

/**
 * A course page a build takes over from the previous one without resolving it (see
 * `resolvePages`): what the sitemap and the page records need, nothing to render.
 */
export interface TakenOverPage extends Pick<PageModel, 'url' | 'route' | 'file' | 'locale' | 'canonical' | 'hreflang' | 'noindex'> {
  takenOver: true;
  course: string;
}

export type SitePage = PageModel | TakenOverPage;

export const isTakenOver = (p: SitePage): p is TakenOverPage => 'takenOver' in p;
