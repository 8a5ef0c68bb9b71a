import type { ReactElement } from 'react';
import type { CardModel } from './model.ts';

/** The card's colours: the site's accent and ink (styles.css), on its page colour. */
const INK = '#1f2430';
const MUTED = '#4b5263';
const ACCENT = '#8a2d5a';
const PAGE = '#faf7f2';

/**
 * The picture a messenger shows for a shared link, 1200×630 (cli/images/share-cards.ts draws it
 * with satori, which reads this tree's flexbox styles, and resvg). A plain function of the card's
 * facts; `photo` and `logo` are data URLs of the files the images stage wrote.
 */
export function ShareCard({ card, photo, logo }: { card: CardModel; photo?: string; logo?: string }): ReactElement {
  const facts = [card.age, card.price].filter(Boolean).join(' · ');
  const textWidth = photo ? 680 : 1080;
  return (
    <div style={{ display: 'flex', width: 1200, height: 630, background: PAGE, fontFamily: 'Noto Sans, Noto Sans Cyrillic', color: INK }}>
      <div style={{ display: 'flex', width: 16, height: 630, background: ACCENT }} />
      <div style={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between', width: textWidth, padding: '56px 0 56px 56px' }}>
        <div style={{ display: 'flex', alignItems: 'center' }}>
          {logo ? <img src={logo} width={64} height={64} style={{ objectFit: 'contain', marginRight: 20 }} alt="" /> : null}
          <div style={{ display: 'flex', fontSize: 34, fontWeight: 700, color: ACCENT }}>{card.siteName}</div>
        </div>
        <div style={{ display: 'flex', fontSize: card.title.length > 40 ? 56 : 68, fontWeight: 700, lineHeight: 1.15, lineClamp: 3 }}>{card.title}</div>
        <div style={{ display: 'flex', fontSize: 34, color: MUTED, minHeight: 46 }}>{facts}</div>
      </div>
      {photo ? <img src={photo} width={464} height={630} style={{ objectFit: 'cover', marginLeft: 'auto' }} alt="" /> : null}
    </div>
  );
}
