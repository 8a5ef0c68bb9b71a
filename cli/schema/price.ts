import { z } from 'zod';
import { Key, LocalizedLine, LocalizedText, Money, OneLineText, Placeholder } from './localized.ts';

export const PricePer = z.enum(['month', 'lesson', 'hour', 'visit', 'once', 'package']).meta({
  id: 'PricePer',
  description: 'What the amount pays for: a month, one lesson, an hour, a single visit, once, or a package.',
});

/** An amount in EUR, the way the studio states it. */
export const Price = z
  .strictObject({
    amount: Money.describe('Amount in EUR.'),
    from: z.boolean().optional().describe('"from 300": the amount is the lowest price.'),
    per: z.union([PricePer, Placeholder]).describe('What the amount pays for; "TODO: …" where the studio has not said.'),
    note: LocalizedText.optional().describe('A condition, e.g. "4 lessons of 30 min".'),
  })
  .meta({ id: 'Price', title: 'Price in EUR' });
export type Price = z.infer<typeof Price>;

export const PriceItem = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('item'),
      id: Key.describe('Stable id, referenced by course pages ("prices: vocal-individual").'),
      label: LocalizedLine,
      price: Price,
      addOn: z.boolean().optional().describe('The price is added to another subscription ("+80").'),
    })
    .meta({ title: 'Price line' }),
  z.strictObject({ type: z.literal('sub'), label: LocalizedLine }).meta({ title: 'Sub-heading' }),
]);
export type PriceItem = z.infer<typeof PriceItem>;

export const PriceTable = z
  .strictObject({
    caption: LocalizedLine,
    columnHeader: LocalizedLine.describe('What the columns count, e.g. "number of lessons".'),
    columns: z.array(z.number().int().positive()).min(1).describe('Lessons per subscription.'),
    rows: z
      .array(
        z.strictObject({
          id: Key,
          label: LocalizedLine.describe('The lesson length, e.g. "1 hour".'),
          amounts: z.array(Money).min(1).describe('One amount in EUR per column.'),
        }),
      )
      .min(1),
  })
  .meta({ id: 'PriceTable', title: 'Price table (lessons × length)' });

export const PriceCategory = z
  .strictObject({
    id: Key,
    title: LocalizedLine,
    items: z.array(PriceItem).default([]),
    table: PriceTable.optional(),
    notes: z.array(LocalizedText).optional(),
  })
  .meta({ id: 'PriceCategory' });

export const RecordingPackage = z.strictObject({
  id: Key,
  name: OneLineText.describe('Package name as sold: Lite, Standard, Pro.'),
  description: LocalizedText,
  revisions: z.number().int().nonnegative().describe('Revision rounds included.'),
  price: Price.optional().describe('Left out when the studio gives no separate price.'),
});

export const PricesFile = z
  .strictObject({
    title: LocalizedLine.optional().describe(
      'Not shown on the site (the heading of /prises is its title in routes.yaml), and not counted by "content i18n": a note for editors, may be left out.',
    ),
    currency: z.literal('EUR'),
    notes: z
      .array(LocalizedText)
      .optional()
      .describe(
        'Shown under the heading of the price list, after "All prices are final prices in euros" (ui.yaml prices.currencyNote): the VAT status the price indication rules (PAngV) ask for.',
      ),
    categories: z.array(PriceCategory).min(1),
    recordingPackages: z.array(RecordingPackage).min(1),
    paymentRules: z.array(LocalizedText).min(1),
  })
  .meta({ title: 'Prices', description: 'The price list (/prises): categories, packages and payment rules.' });
export type PricesFile = z.infer<typeof PricesFile>;
