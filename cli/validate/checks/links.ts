import type { PathPart, SourceFile } from '../../load/source.ts';
import { hintOf, type Problem } from '../../report/problem.ts';
import type { Check, CheckContext } from './check.ts';
import { unknownReference } from './check.ts';

/** Sections of the home page that links may point to with `/#id`. */
export const HOME_SECTIONS = ['courses', 'offers', 'contacts', 'enquiry'] as const;

/** The links of banners and of the menu lead to a route of the table, and `/#id` to a home page section. */
export const linksExist: Check = (context) => {
  const { banners, site } = context.content;
  return [
    ...(banners?.data.banners.flatMap((b, i) => checkLink(context, banners.source, ['banners', i, 'cta', 'link'], b.cta.link)) ?? []),
    ...(site?.data.menu.flatMap((m, i) => checkLink(context, site.source, ['menu', i, 'link'], m.link)) ?? []),
  ];
};

function checkLink({ content, routePaths }: CheckContext, source: SourceFile, path: PathPart[], link: string): Problem[] {
  const [route, fragment] = link.split('#') as [string, string | undefined];
  if (content.routes && !routePaths.has(route))
    return unknownReference(content, source, path, {
      code: 'unknown-route',
      value: route,
      known: routePaths,
      hint: hintOf('unknown-route', {}),
      fixAs: (r) => (fragment === undefined ? r : `${r}#${fragment}`),
    });
  if (fragment && route === '/' && !(HOME_SECTIONS as readonly string[]).includes(fragment))
    return unknownReference(content, source, path, {
      code: 'unknown-section',
      value: `#${fragment}`,
      known: HOME_SECTIONS.map((s) => `#${s}`),
      hint: hintOf('unknown-section', {}),
      fixAs: (s) => `/${s}`,
    });
  return [];
}
