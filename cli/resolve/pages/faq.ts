import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** The questions and answers. */
export const faqPage: Builder<'faq'> = (ctx, route) => ({
  ...titled(ctx, route),
  body: { kind: 'faq', items: ctx.content.faq.data.items.map((i) => ({ id: i.id, question: ctx.tx(i.question), answer: i.answer.map(ctx.tx) })) },
});
