import type { Builder } from './page-kind.ts';

/** The page served for an unknown URL, in the locale its path begins with. Not for search engines. */
export const notFoundPage: Builder<'notFound'> = ({ ux, url }) => ({
  title: ux('notFound.title'),
  description: ux('notFound.text'),
  body: { kind: 'notFound', homeHref: url('/'), coursesHref: `${url('/')}#courses` },
  noindex: true,
});
