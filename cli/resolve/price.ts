import type { PriceText } from '../../templates/model.ts';
import { NUMBER_LOCALES } from '../locales.ts';
import { isPlaceholder } from '../schema/layout.ts';
import type { LocalizedText } from '../schema/localized.ts';
import type { Price } from '../schema/price.ts';
import type { UiKey } from '../schema/ui-keys.ts';
import type { Localizer } from './localizer.ts';

/** How a locale writes amounts in euros. */
export interface Prices {
  /** "90 €", "12,50 €": cents only where there are some. */
  money(amount: number): string;
  /** A price as the page shows it; `addOn` for one added to another subscription ("+80 €"). */
  price(p: { amount: number; from?: boolean; per: Price['per']; note?: LocalizedText }, addOn?: boolean): PriceText;
}

const PER_KEY: Record<Exclude<Price['per'], `TODO:${string}`>, UiKey | undefined> = {
  month: 'prices.perMonth',
  lesson: 'prices.perLesson',
  hour: 'prices.perHour',
  visit: 'prices.perVisit',
  once: undefined,
  package: 'prices.perPackage',
};

export function prices({ locale, tx, ux }: Localizer): Prices {
  const formats = [0, 2].map((digits) => new Intl.NumberFormat(NUMBER_LOCALES[locale], { style: 'currency', currency: 'EUR', maximumFractionDigits: digits }));
  // Formatted once per amount: a site has few amounts, and Intl's format is dear (every course page shows one).
  const written = new Map<number, string>();
  const money = (amount: number) => {
    let text = written.get(amount);
    if (text === undefined) {
      text = formats[amount % 1 ? 1 : 0]!.format(amount);
      written.set(amount, text);
    }
    return text;
  };
  const per = (p: Price['per']) => {
    if (isPlaceholder(p)) return { text: p };
    const key = PER_KEY[p as keyof typeof PER_KEY];
    return key ? ux(key) : undefined;
  };
  return {
    money,
    price: (p, addOn = false) => ({
      amount: addOn
        ? ux('prices.addOn', { amount: money(p.amount) })
        : p.from
          ? ux('prices.fromAmount', { amount: money(p.amount) })
          : { text: money(p.amount) },
      per: per(p.per),
      note: p.note ? tx(p.note) : undefined,
    }),
  };
}
