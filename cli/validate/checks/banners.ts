import { problemAt } from '../source.ts';
import type { Check } from './check.ts';

/** A banner past its validUntil date is no longer shown: its editor should know. */
export const bannersNotExpired: Check = ({ content, today }) => {
  const banners = content.banners;
  if (!banners) return [];
  return banners.data.banners.flatMap((b, i) =>
    !b.validUntil || b.validUntil >= today
      ? []
      : [
          problemAt(banners.source, ['banners', i, 'validUntil'], {
            code: 'banner-expired',
            severity: 'warning',
            message: `The banner "${b.id}" expired on ${b.validUntil}; it is no longer shown.`,
            expected: `a date on or after ${today}`,
            found: b.validUntil,
            hint: 'Remove the banner, or move validUntil to a later date if the offer still runs.',
          }),
        ],
  );
};
