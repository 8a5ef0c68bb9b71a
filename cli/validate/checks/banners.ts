import { problemAt } from '../../load/source.ts';
import { catalogued, expectedOf } from '../../report/problem.ts';
import type { Check } from './check.ts';

/** A banner past its validUntil date is no longer shown: its editor should know. */
export const bannersNotExpired: Check = ({ content, today }) => {
  const banners = content.banners;
  if (!banners) return [];
  return banners.data.banners.flatMap((b, i) =>
    !b.validUntil || b.validUntil >= today
      ? []
      : [
          problemAt(
            banners.source,
            ['banners', i, 'validUntil'],
            catalogued('banner-expired', { id: b.id, date: b.validUntil }, { expected: expectedOf('banner-expired', 'date', { today }), found: b.validUntil }),
          ),
        ],
  );
};
