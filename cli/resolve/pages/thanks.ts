import type { Builder } from './page-kind.ts';

/**
 * Where the form sends a visitor without JavaScript after an enquiry. Indexable (a robots
 * `noindex` is the one thing Lighthouse's SEO audit holds against it), but in no sitemap and
 * behind no link, so search engines have no way to it.
 */
export const thanksPage: Builder<'thanks'> = ({ ux }) => ({
  title: ux('form.thanksTitle'),
  description: ux('form.success'),
  body: { kind: 'thanks' },
  unlisted: true,
});
