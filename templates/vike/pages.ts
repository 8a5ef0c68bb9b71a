import type { PageModel } from '../model.ts';

/**
 * The resolved pages of the current build, handed over by `content build` (cli/render/vike.ts)
 * before it starts Vike. Vike bundles this file into its server build, so module state is not
 * shared with the CLI: the hand-over goes through globalThis.
 */
const KEY = Symbol.for('studio-site.pages');

export function setBuildPages(pages: PageModel[]): void {
  (globalThis as Record<symbol, unknown>)[KEY] = new Map(pages.map((p) => [p.url, p]));
}

export function getBuildPages(): Map<string, PageModel> {
  const pages = (globalThis as Record<symbol, unknown>)[KEY] as Map<string, PageModel> | undefined;
  if (!pages) throw new Error('No pages to prerender: run the build through `content build`.');
  return pages;
}

export const hasForm = (page: PageModel) => Boolean(page.form);

/** Vike route function and prerender list for one of the two page groups. */
export function pageGroup(withForm: boolean) {
  return {
    route: (pageContext: { urlPathname: string }) => {
      const page = getBuildPages().get(pageContext.urlPathname);
      return page && hasForm(page) === withForm ? { routeParams: {} } : false;
    },
    prerender: () => [...getBuildPages().values()].filter((p) => hasForm(p) === withForm).map((p) => ({ url: p.url, pageContext: { page: p } })),
  };
}
