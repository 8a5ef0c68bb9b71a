import { type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import { catalogued, expectedOf, foundOf, type Problem } from '../../report/problem.ts';
import type { Check } from './check.ts';
import { writtenText } from './text-position.ts';

/** An amount as written: a thousands separator the YAML reader took for a decimal point (`1.200`, `12.500`). */
const THOUSANDS = /^[1-9]\d{0,2}\.\d{3}$/;
/** Below this, an amount beside prices of tens or hundreds is more likely a misreading than a price. */
const LOW = 5;
/** The prices of a file are "of tens or hundreds" from this amount on. */
const TENS = 10;

interface Written {
  path: PathPart[];
  amount: number;
}

/**
 * Every amount a visitor reads, as the editor wrote it (issue #34): the YAML reader reads
 * `amount: 1.200` as 1.2, and the price list and the course page then show "1,20 €". A number loses
 * what was written (1.200 and 1.2 are the same number), so the check reads the scalar's own text
 * at its position. Two findings: a dot followed by exactly three digits (no price has tenths of a
 * cent: an error), and an amount below 5 € among prices of tens or hundreds in the same file (a
 * warning: it may be meant).
 */
export const priceAmountsReadRight: Check = ({ content, courses }) => {
  const problems: Problem[] = [];
  const prices = content.prices;
  if (prices) {
    const amounts: Written[] = [];
    const d = prices.data;
    d.categories.forEach((category, c) => {
      category.items.forEach((item, i) => {
        if (item.type === 'item') amounts.push({ path: ['categories', c, 'items', i, 'price', 'amount'], amount: item.price.amount });
      });
      category.table?.rows.forEach((row, r) => {
        row.amounts.forEach((amount, a) => {
          amounts.push({ path: ['categories', c, 'table', 'rows', r, 'amounts', a], amount });
        });
      });
    });
    d.recordingPackages.forEach((p, i) => {
      if (p.price) amounts.push({ path: ['recordingPackages', i, 'price', 'amount'], amount: p.price.amount });
    });
    problems.push(...misread(prices.source, amounts));
  }
  for (const course of courses) {
    const price = course.data.price;
    if (price) problems.push(...misread(course.source, [{ path: ['price', 'amount'], amount: price.amount }]));
  }
  return problems;
};

/** The amounts of one file that are read otherwise than meant, or probably so. */
function misread(source: SourceFile, amounts: Written[]): Problem[] {
  const problems: Problem[] = [];
  const flagged = new Set<Written>();
  // Only a file that has a dot before three digits somewhere has its amounts read as written.
  const separated = /\d\.\d{3}/.test(source.text);
  for (const w of separated ? amounts : []) {
    const raw = writtenText(source, w.path);
    if (raw === undefined || !THOUSANDS.test(raw)) continue;
    flagged.add(w);
    const vars = { raw, read: String(w.amount), fixed: raw.replace('.', '') };
    problems.push(
      problemAt(
        source,
        w.path,
        catalogued('price-thousands-separator', vars, {
          expected: expectedOf('price-thousands-separator', 'whole', vars),
          found: foundOf('price-thousands-separator', 'read', vars),
        }),
      ),
    );
  }
  const others = amounts.filter((w) => !flagged.has(w) && w.amount >= TENS).map((w) => w.amount);
  if (!others.length) return problems;
  const range = { low: String(Math.min(...others)), high: String(Math.max(...others)) };
  for (const w of amounts) {
    if (flagged.has(w) || w.amount <= 0 || w.amount >= LOW) continue;
    const vars = { raw: writtenText(source, w.path) ?? String(w.amount), read: String(w.amount), ...range };
    problems.push(
      problemAt(
        source,
        w.path,
        catalogued('price-suspiciously-low', vars, {
          expected: expectedOf('price-suspiciously-low', 'beside', range),
          found: foundOf('price-suspiciously-low', 'read', vars),
        }),
      ),
    );
  }
  return problems;
}
