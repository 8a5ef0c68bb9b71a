import type { DefaultLocale } from '../../locales.ts';
import { keepDaysOf, type LEGAL_VARIABLES } from '../../schema/keep-days.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/**
 * One of the legal texts (impressum, privacy, terms), as the route names it. `{{keepDays}}` is
 * the retention period `content serve` applies (site.yaml form.keepDays, written into the build's
 * manifest too), so the privacy page states the period the server really uses. It is the number
 * with its word for days (ui.yaml legal.days), which agrees with it by the language's plural rules:
 * Russian has "1 день", "3 дня", "5 дней", "21 день"; a text could not write one word for every number.
 */
export const legalPage: Builder<'legal'> = (ctx, route) => {
  const values: Record<(typeof LEGAL_VARIABLES)[number], string> = {
    keepDays: ctx.ux('legal.days', { count: keepDaysOf(ctx.content.site.data) }).text,
  };
  const fill = (text: { text: string; lang?: DefaultLocale }) =>
    text.text.includes('{{')
      ? { ...text, text: text.text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, name: string) => values[name as keyof typeof values] ?? all) }
      : text;
  return {
    ...titled(ctx, route),
    body: {
      kind: 'legal',
      sections: ctx.content.legal.data[route.legal!].sections.map((s) => ({ heading: ctx.tx(s.heading), body: s.body.map((b) => fill(ctx.tx(b))) })),
    },
  };
};
