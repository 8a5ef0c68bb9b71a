import type { Builder } from './page-kind.ts';

/**
 * Where the form sends a visitor without JavaScript after an enquiry: `noindex` (a thank-you page
 * must not be found in a search; Lighthouse's SEO audit counts that against it, the right trade)
 * and in no sitemap.
 */
export const thanksPage: Builder<'thanks'> = ({ ux }) => ({
  title: ux('form.thanksTitle'),
  description: ux('form.success'),
  body: { kind: 'thanks' },
  noindex: true,
});
