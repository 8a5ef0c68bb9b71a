import type { BannersFile } from '../schema/banners.ts';

type Banner = BannersFile['banners'][number];

/** Whether the home page built on `today` (YYYY-MM-DD) shows the banner: through its last day, `validUntil`. */
export const bannerShown = (b: Pick<Banner, 'validUntil'>, today: string): boolean => !b.validUntil || b.validUntil >= today;

/** When the site built on `today` next goes out of date because a banner stops showing. */
export interface BannerExpiry {
  banner: string;
  /** The last day the banner is shown (its validUntil). */
  lastDay: string;
  /** The day after: a build on that day or later leaves the banner out. */
  rebuildOnOrAfter: string;
}

/**
 * The banner among those shown today whose last day comes first (the first in the file among
 * equals), or undefined when none has one. A static page cannot hide a banner by itself: the
 * site must be built again on the day after (a daily rebuild, docs/deploy.md). The schema has no
 * first day for a banner, so a banner never appears by a date.
 */
export function nextBannerExpiry(banners: readonly Banner[] | undefined, today: string): BannerExpiry | undefined {
  let next: Banner | undefined;
  for (const b of banners ?? []) if (b.validUntil && bannerShown(b, today) && (!next || b.validUntil < next.validUntil!)) next = b;
  if (!next) return undefined;
  return { banner: next.id, lastDay: next.validUntil!, rebuildOnOrAfter: dayAfter(next.validUntil!) };
}

/** The calendar day after a YYYY-MM-DD date (the schema checks it is a real date). */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
