import type { ReactElement } from 'react';
import { type CardTexts, COLOURS, cardTextWidth, LAYOUT, titleHeight } from '../../cli/images/card-layout.ts';

/**
 * The share card as a tree satori lays out (flexbox) and resvg draws: the reference the build's
 * drawing (cli/images/share-cards.ts, from the layout in cli/images/card-layout.ts, whose numbers
 * this takes) is compared with in tests/images/share-card-drawing.test.ts. `photo` and `logo` are
 * data URLs of the files the images stage wrote. The title's box has a fixed height and clips what
 * overflows (satori ignores `lineClamp`).
 */
export function ShareCard({ texts, photo, logo }: { texts: CardTexts; photo?: string; logo?: string }): ReactElement {
  const { pad } = LAYOUT;
  return (
    <div style={{ display: 'flex', width: 1200, height: 630, background: COLOURS.page, fontFamily: 'Noto Sans, Noto Sans Cyrillic', color: COLOURS.ink }}>
      <div style={{ display: 'flex', width: LAYOUT.accent, height: 630, background: COLOURS.accent }} />
      <div
        style={{
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
          width: cardTextWidth(Boolean(photo)),
          padding: `${pad}px 0 ${pad}px ${pad}px`,
        }}
      >
        <div style={{ display: 'flex', alignItems: 'center', height: LAYOUT.header }}>
          {logo ? <img src={logo} width={LAYOUT.logo} height={LAYOUT.logo} style={{ objectFit: 'contain', marginRight: LAYOUT.logoGap }} alt="" /> : null}
          {texts.siteName ? <div style={{ display: 'flex', fontSize: LAYOUT.nameSize, fontWeight: 700, color: COLOURS.accent }}>{texts.siteName}</div> : null}
        </div>
        <div
          style={{
            display: 'flex',
            fontSize: texts.titleSize,
            fontWeight: 700,
            lineHeight: LAYOUT.lineHeight,
            // A box satori sizes by its content collapses under overflow: hidden.
            height: titleHeight(texts.titleSize),
            flexShrink: 0,
            alignItems: 'flex-start',
            wordBreak: 'break-word',
            overflow: 'hidden',
          }}
        >
          {texts.title}
        </div>
        <div style={{ display: 'flex', fontSize: LAYOUT.factsSize, color: COLOURS.muted, height: LAYOUT.facts }}>{texts.facts}</div>
      </div>
      {photo ? <img src={photo} width={LAYOUT.photo} height={630} style={{ objectFit: 'cover', marginLeft: 'auto' }} alt="" /> : null}
    </div>
  );
}
