import type { FormModel, PageBody, Text } from '../../../templates/model.ts';
import type { CardExtras } from '../../images/card-model.ts';
import type { RoutesFile } from '../../schema/routes.ts';
import type { LocaleContext } from '../context.ts';
import type { Localizer } from '../localizer.ts';

/** What a page shows, as the templates know it: one builder per kind. */
export type PageKind = PageBody['kind'];
export type BodyOf<K extends PageKind> = Extract<PageBody, { kind: K }>;

export type Route = RoutesFile['routes'][number];

/**
 * The page a builder makes: a route of routes.yaml, or, for the pages every site has without
 * one (thanks, not found), their path.
 */
export type PageOf<K extends PageKind> = K extends Route['page'] ? Route & { page: K } : { path: string; page: K };

/** What a page of one kind shows; resolveSite adds what every page has (URL, chrome, hreflang, structured data). */
export interface Draft<K extends PageKind> {
  title: Text;
  description: Text;
  body: BodyOf<K>;
  /** The enquiry form, on the pages that show it. */
  form?: FormModel;
  /** For pages search engines should not list: no canonical URL, hreflang or structured data. */
  noindex?: true;
  /** What the page's share card shows besides its title (a course's age, price, photo). */
  card?: CardExtras;
  /** Indexable, but not offered in the sitemap: a page no link leads to, shown only after an action. */
  unlisted?: true;
}

/** Makes the pages of one kind, in one locale. */
export type Builder<K extends PageKind> = (ctx: LocaleContext, page: PageOf<K>) => Draft<K>;

/** The title and description routes.yaml gives a page. */
export const titled = ({ tx }: Localizer, route: Route) => ({ title: tx(route.title), description: tx(route.description) });
