import type { PageModel } from '../model.ts';

/**
 * What `content build --renderer vike` puts into every page context, through Vike's public
 * `prerender({ pageContextInit })` (cli/render/vike.ts): the build's resolved pages, and where
 * to report a page rendered. Vike bundles these files into a server build of their own, so they
 * share no module state with the CLI; the page context is the way in.
 */
export interface BuildPages {
  /** The resolved pages of the build, by URL. */
  buildPages: ReadonlyMap<string, PageModel>;
  /** Told each URL once its page is rendered (the build's progress). */
  onPageRendered: (url: string) => void;
  /** What every page's head starts with: the stylesheet, in a <style>. */
  head: string;
}

/** The URLs of the pages with the form and of the others: Vike's prerender asks for them before any page context exists. */
export interface PrerenderUrls {
  form: string[];
  static: string[];
}

/** Compiled into the server build by cli/render/vike.ts (Vite's `define`): a hook without a page context can read nothing else. */
declare const __STUDIO_PRERENDER_URLS__: PrerenderUrls;

export const hasForm = (page: PageModel) => Boolean(page.form);

/** The build's page of a page context; fails when the build did not hand the pages over. */
export function buildPageOf(pageContext: { urlPathname: string } & Partial<BuildPages>): PageModel | undefined {
  if (!pageContext.buildPages) throw new Error('No pages to prerender: run the build through `content build --renderer vike`.');
  return pageContext.buildPages.get(pageContext.urlPathname);
}

/** Vike route function and prerender list for one of the two page groups. */
export function pageGroup(withForm: boolean) {
  return {
    route: (pageContext: { urlPathname: string } & Partial<BuildPages>) => {
      const page = buildPageOf(pageContext);
      return page && hasForm(page) === withForm ? { routeParams: {} } : false;
    },
    prerender: () => __STUDIO_PRERENDER_URLS__[withForm ? 'form' : 'static'],
  };
}
