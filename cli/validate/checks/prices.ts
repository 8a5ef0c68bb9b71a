import { problemAt } from '../../load/source.ts';
import { catalogued, expectedOf, hintOf } from '../../report/problem.ts';
import type { Amount, Check } from './check.ts';
import { unknownReference } from './check.ts';

/** Course pages name price lines by id: each id names one line. */
export const uniquePriceIds: Check = ({ content }) => {
  const prices = content.prices;
  if (!prices) return [];
  const seen = new Set<string>();
  return prices.data.categories.flatMap((category, c) =>
    category.items.flatMap((item, i) => {
      if (item.type !== 'item') return [];
      const twice = seen.has(item.id);
      seen.add(item.id);
      if (!twice) return [];
      return [
        problemAt(
          prices.source,
          ['categories', c, 'items', i, 'id'],
          catalogued('duplicate-id', { what: 'price id', value: item.id }, { found: `"${item.id}"`, hint: hintOf('duplicate-id', {}, 'priceLine') }),
        ),
      ];
    }),
  );
};

/** A price table has one amount per column in every row. */
export const completeTableRows: Check = ({ content }) => {
  const prices = content.prices;
  if (!prices) return [];
  return prices.data.categories.flatMap((category, c) => {
    const columns = category.table?.columns.length;
    return (category.table?.rows ?? []).flatMap((row, r) =>
      row.amounts.length === columns
        ? []
        : [
            problemAt(
              prices.source,
              ['categories', c, 'table', 'rows', r, 'amounts'],
              catalogued(
                'table-shape',
                { found: row.amounts.length, expected: columns ?? 0 },
                { expected: expectedOf('table-shape', 'amounts', { columns: columns ?? 0 }), found: `${row.amounts.length}` },
              ),
            ),
          ],
    );
  });
};

/** A course page's price names a line of the price list, and states what that line says. */
export const coursePricesMatchList: Check = ({ content, priceLines, courses }) => {
  if (!content.prices) return [];
  return courses.flatMap((course) => {
    const price = course.data.price;
    if (!price?.ref) return [];
    const listed = priceLines.get(price.ref);
    if (!listed)
      return unknownReference(content, course.source, ['price', 'ref'], {
        code: 'unknown-price',
        value: price.ref,
        known: priceLines.keys(),
        hint: hintOf('unknown-price', {}),
      });
    if (listed.amount === price.amount && listed.per === price.per && Boolean(listed.from) === Boolean(price.from)) return [];
    return [
      problemAt(
        course.source,
        ['price', 'amount'],
        catalogued('price-mismatch', { page: money(price), ref: price.ref, list: money(listed) }, { expected: money(listed), found: money(price) }),
      ),
    ];
  });
};

const money = (p: Amount) => `${p.from ? 'from ' : ''}${p.amount} EUR per ${p.per}`;
