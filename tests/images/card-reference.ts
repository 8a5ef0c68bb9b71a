// The share card as satori lays it out and resvg draws it (tests/images/ShareCard.tsx): the reference
// the build's drawing (cli/images/share-cards.ts) is compared with.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import satori from 'satori';
import { woffToSfnt } from '../../cli/images/card-fonts.ts';
import { cardTextWidth } from '../../cli/images/card-layout.ts';
import { CARD } from '../../cli/images/card-model.ts';
import { CARD_SUBSETS, cardTexts, titleFont } from '../../cli/images/card-text.ts';
import type { SiteFiles } from '../../cli/images/share-cards.ts';
import type { CardModel } from '../../templates/model.ts';
import { ShareCard } from './ShareCard.tsx';

const require = createRequire(import.meta.url);
const fonts = CARD_SUBSETS.flatMap((subset) =>
  ([400, 700] as const).map((weight) => ({
    // One family per subset: satori takes the first font of a family and weight, then falls back to the next family for a missing letter.
    name: subset === 'cyrillic' ? 'Noto Sans Cyrillic' : subset === 'latin' ? 'Noto Sans' : 'Noto Sans Latin Ext',
    data: woffToSfnt(readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`))),
    weight,
    style: 'normal' as const,
  })),
);

const dataUrl = (files: SiteFiles, path: string | undefined) =>
  path ? `data:image/jpeg;base64,${(typeof files === 'string' ? readFileSync(`${files}/${path}`) : files(path)).toString('base64')}` : undefined;

/** The card as satori's SVG: `embedFont: false` keeps each piece of text as a <text> (x, baseline y). */
export function referenceSvg(card: CardModel, files: SiteFiles, embedFont = true): Promise<string> {
  const texts = { ...cardTexts(card, cardTextWidth(Boolean(card.photo))), titleSize: titleFont(card.title) };
  return satori(ShareCard({ texts, photo: dataUrl(files, card.photo), logo: dataUrl(files, card.logo) }), { ...CARD, fonts, embedFont });
}

/** The card as resvg draws satori's SVG: RGBA pixels. */
export async function referencePixels(card: CardModel, files: SiteFiles): Promise<Buffer> {
  return (await renderAsync(await referenceSvg(card, files), { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })).pixels;
}
