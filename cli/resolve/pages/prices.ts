import type { PriceCategoryModel } from '../../../templates/model.ts';
import type { PricesFile } from '../../schema/price.ts';
import type { LocaleContext } from '../context.ts';
import type { BodyOf, Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** The price list: categories of prices (some with a table of lessons × length), recording packages, payment rules. */
export const pricesPage: Builder<'prices'> = (ctx, route) => {
  const { tx, ux } = ctx;
  const prices = ctx.content.prices.data;
  const byLine = pricedCourses(ctx);
  const body: BodyOf<'prices'> = {
    kind: 'prices',
    notes: (prices.notes ?? []).map(tx),
    categories: prices.categories.map((cat) => category(ctx, cat, byLine)),
    recordingPackages: prices.recordingPackages.map((p) => ({
      id: p.id,
      name: p.name,
      description: tx(p.description),
      revisions: ux('prices.revisions', { count: p.revisions }),
      price: p.price ? ctx.price(p.price) : undefined,
    })),
    paymentRules: prices.paymentRules.map(tx),
  };
  return { ...titled(ctx, route), body };
};

type Course = PriceCategoryModel['courses'][number];

/** The courses with a page of their own, by the id of the price line they refer to (`price.ref`), in the home page's order. */
function pricedCourses(ctx: LocaleContext): Map<string, Course[]> {
  const byLine = new Map<string, Course[]>();
  for (const e of ctx.courses()) {
    const ref = e.data.price?.ref;
    if (!ref || !e.data.route) continue;
    const href = ctx.url(e.data.route);
    byLine.set(ref, [...(byLine.get(ref) ?? []), { key: e.key, title: ctx.tx(e.data.title), href, signUpHref: `${href}#enquiry` }]);
  }
  return byLine;
}

/**
 * A category of prices. A line links to the page of its course: the one course referring to it,
 * or, for a line no course refers to (a trial lesson), the category's only course.
 */
function category(ctx: LocaleContext, cat: PricesFile['categories'][number], byLine: Map<string, Course[]>): PriceCategoryModel {
  const { tx, ux } = ctx;
  const courses = [...new Map(cat.items.flatMap((item) => (item.type === 'item' ? (byLine.get(item.id) ?? []) : [])).map((c) => [c.key, c])).values()];
  return {
    id: cat.id,
    title: tx(cat.title),
    items: cat.items.map((item) => {
      if (item.type === 'sub') return { type: 'sub' as const, label: tx(item.label) };
      const own = byLine.get(item.id);
      const href = (own ? (own.length === 1 ? own[0] : undefined) : courses.length === 1 ? courses[0] : undefined)?.href;
      return { type: 'item' as const, id: item.id, label: tx(item.label), price: ctx.price(item.price, item.addOn), ...(href && { href }) };
    }),
    courses,
    table: cat.table && {
      caption: tx(cat.table.caption),
      columnHeader: tx(cat.table.columnHeader),
      columns: cat.table.columns.map((n) => ux('prices.lessons', { count: n })),
      rows: cat.table.rows.map((r) => ({ id: r.id, label: tx(r.label), amounts: r.amounts.map((a) => ({ text: ctx.money(a) })) })),
    },
    notes: (cat.notes ?? []).map(tx),
  };
}
