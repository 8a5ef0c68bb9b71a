import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** One of the legal texts (impressum, privacy, terms), as the route names it. */
export const legalPage: Builder<'legal'> = (ctx, route) => ({
  ...titled(ctx, route),
  body: { kind: 'legal', sections: ctx.content.legal.data[route.legal!].sections.map((s) => ({ heading: ctx.tx(s.heading), body: s.body.map(ctx.tx) })) },
});
