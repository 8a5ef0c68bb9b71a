import type { ReactElement } from 'react';

/** The card's colours: the site's accent and ink (styles.css), on its page colour. */
const INK = '#1f2430';
const MUTED = '#4b5263';
const ACCENT = '#8a2d5a';
const PAGE = '#faf7f2';

/** The texts as the card shows them (cli/images/card-text.ts fits them: characters the font has, at most three lines of title). */
export interface CardTexts {
  siteName?: string;
  title: string;
  titleSize: number;
  facts: string;
}

/** The width of the text column: beside the photo, or the whole card. */
export const cardTextWidth = (photo: boolean) => (photo ? 680 : 1080);

const PAD = 56;
const HEADER = 64;
const FACTS = 46;
const titleHeight = (titleSize: number) => Math.ceil(titleSize * 1.15 * 3);

/** How far from the card's bottom the facts' line starts (share-cards.ts rasterises it and what is below it on its own). */
export const CARD_FACTS_FROM_BOTTOM = PAD + FACTS;
/** Where the text column's boxes start: after the accent and the padding. */
export const CARD_TEXT_LEFT = 16 + PAD;
/** Where the row of the studio's name and logo ends. */
export const CARD_HEADER_BOTTOM = PAD + HEADER;
/** The photo's width, at the card's right edge. */
export const CARD_PHOTO_WIDTH = 464;

/**
 * The picture a messenger shows for a shared link, 1200×630 (cli/images/share-cards.ts draws it
 * with satori, which reads this tree's flexbox styles, and resvg). A plain function of the card's
 * texts; `photo` and `logo` are data URLs of the files the images stage wrote. Each text box has a
 * fixed height and clips what overflows (satori ignores `lineClamp`): a long title never pushes the
 * age and price off the card.
 */
export function ShareCard({ texts, photo, logo }: { texts: CardTexts; photo?: string; logo?: string }): ReactElement {
  const textWidth = cardTextWidth(Boolean(photo));
  return (
    <div style={{ display: 'flex', width: 1200, height: 630, background: PAGE, fontFamily: 'Noto Sans, Noto Sans Cyrillic', color: INK }}>
      <div style={{ display: 'flex', width: 16, height: 630, background: ACCENT }} />
      <div style={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between', width: textWidth, padding: `${PAD}px 0 ${PAD}px ${PAD}px` }}>
        <div style={{ display: 'flex', alignItems: 'center', height: HEADER }}>
          {logo ? <img src={logo} width={64} height={64} style={{ objectFit: 'contain', marginRight: 20 }} alt="" /> : null}
          {texts.siteName ? <div style={{ display: 'flex', fontSize: 34, fontWeight: 700, color: ACCENT }}>{texts.siteName}</div> : null}
        </div>
        <div
          style={{
            display: 'flex',
            fontSize: texts.titleSize,
            fontWeight: 700,
            lineHeight: 1.15,
            // Three lines' height, from the top (a fourth line, where the fitted text still runs over, is hidden whole, never cut through):
            // a box satori sizes by its content collapses under overflow: hidden.
            height: titleHeight(texts.titleSize),
            flexShrink: 0,
            alignItems: 'flex-start',
            wordBreak: 'break-word',
            overflow: 'hidden',
          }}
        >
          {texts.title}
        </div>
        <div style={{ display: 'flex', fontSize: 34, color: MUTED, height: FACTS }}>{texts.facts}</div>
      </div>
      {photo ? <img src={photo} width={CARD_PHOTO_WIDTH} height={630} style={{ objectFit: 'cover', marginLeft: 'auto' }} alt="" /> : null}
    </div>
  );
}
