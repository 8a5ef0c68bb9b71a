import type { Builder } from './page-kind.ts';

/** Where the form sends a visitor without JavaScript after an enquiry. Not for search engines. */
export const thanksPage: Builder<'thanks'> = ({ ux }) => ({
  title: ux('form.thanksTitle'),
  description: ux('form.success'),
  body: { kind: 'thanks' },
  noindex: true,
});
