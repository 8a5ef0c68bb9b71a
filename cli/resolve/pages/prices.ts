import type { PriceCategoryModel } from '../../../templates/model.ts';
import type { PricesFile } from '../../schema/price.ts';
import type { UiKey } from '../../schema/ui-keys.ts';
import type { LocaleContext } from '../context.ts';
import type { BodyOf, Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** The price list: categories of prices (some with a table of lessons × length), recording packages, payment rules. */
export const pricesPage: Builder<'prices'> = (ctx, route) => {
  const { tx, ux } = ctx;
  const prices = ctx.content.prices.data;
  const body: BodyOf<'prices'> = {
    kind: 'prices',
    notes: (prices.notes ?? []).map(tx),
    categories: prices.categories.map((cat) => category(ctx, cat)),
    recordingPackages: prices.recordingPackages.map((p) => ({
      id: p.id,
      name: p.name,
      description: tx(p.description),
      revisions: ux('prices.revisions' as UiKey, { count: p.revisions }),
      price: p.price ? ctx.price(p.price) : undefined,
    })),
    paymentRules: prices.paymentRules.map(tx),
  };
  return { ...titled(ctx, route), body };
};

function category(ctx: LocaleContext, cat: PricesFile['categories'][number]): PriceCategoryModel {
  const { tx, ux } = ctx;
  return {
    id: cat.id,
    title: tx(cat.title),
    items: cat.items.map((item) =>
      item.type === 'sub'
        ? { type: 'sub' as const, label: tx(item.label) }
        : { type: 'item' as const, id: item.id, label: tx(item.label), price: ctx.price(item.price, item.addOn) },
    ),
    table: cat.table && {
      caption: tx(cat.table.caption),
      columnHeader: tx(cat.table.columnHeader),
      columns: cat.table.columns.map((n) => ux('prices.lessons' as UiKey, { count: n })),
      rows: cat.table.rows.map((r) => ({ id: r.id, label: tx(r.label), amounts: r.amounts.map((a) => ({ text: ctx.money(a) })) })),
    },
    notes: (cat.notes ?? []).map(tx),
  };
}
