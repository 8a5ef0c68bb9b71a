import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CardModel } from '../../templates/model.ts';

const require = createRequire(import.meta.url);

/** The @fontsource/noto-sans subsets the card is drawn with (share-cards.ts loads their woff files). */
export const CARD_SUBSETS = ['latin', 'latin-ext', 'cyrillic'] as const;

let ranges: [number, number][] | undefined;
/** The code points the card's fonts have: the `unicode-range` of each subset's face in the font package's stylesheet. */
function covered(): [number, number][] {
  if (ranges) return ranges;
  const css = readFileSync(require.resolve('@fontsource/noto-sans/400.css'), 'utf8');
  ranges = CARD_SUBSETS.flatMap((subset) => {
    const face = css.split('@font-face').find((f) => f.includes(`noto-sans-${subset}-400-normal.woff`));
    const range = face && /unicode-range:\s*([^;]+);/.exec(face)?.[1];
    if (!range) throw new Error(`@fontsource/noto-sans/400.css names no unicode-range for ${subset}`);
    return range.split(',').map((part): [number, number] => {
      const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
      return [Number.parseInt(from!, 16), Number.parseInt(to ?? from!, 16)];
    });
  });
  return ranges;
}

/** Whether the card's fonts draw `char` (a character they lack would be drawn as a box). */
export function drawable(char: string): boolean {
  const cp = char.codePointAt(0)!;
  return covered().some(([from, to]) => cp >= from && cp <= to);
}

/**
 * A text as the card can show it: the characters its fonts lack (emoji, CJK, Arabic, Hebrew…)
 * left out rather than drawn as boxes, spaces collapsed, and at most `lines` lines of about
 * `perLine` characters (the card breaks a word longer than a line), a longer text ending with "…"
 * at a word.
 * So a card is laid out in bounded time whatever a title holds.
 */
export function fitText(text: string, perLine: number, lines: number): string {
  let shown = '';
  for (const char of text.slice(0, perLine * lines * 4)) shown += /\s/.test(char) ? ' ' : drawable(char) ? char : '';
  const words = shown.replace(/ +/g, ' ').trim().split(' ').filter(Boolean);
  const max = perLine * lines;
  let out = '';
  for (const raw of words) {
    const word = raw.length > max ? `${raw.slice(0, max - 1)}…` : raw;
    const next = out ? `${out} ${word}` : word;
    if (next.length > max) return `${out || word.slice(0, max - 1)}…`.replace(/……$/, '…');
    out = next;
  }
  return out;
}

/** The title's font size, and the characters of a line (Noto Sans Bold is about 0.55 em a letter on average, a Cyrillic one 0.6). */
export const titleFont = (title: string) => (title.length > 40 ? 56 : 68);
const perLine = (width: number, fontSize: number) => Math.floor(width / (fontSize * 0.6));

/** The card's texts as drawn: the title in at most three lines, the studio's name and the facts in one each. */
export function cardTexts(card: CardModel, textWidth: number): { siteName?: string; title: string; facts: string } {
  const title = fitText(card.title, perLine(textWidth, titleFont(card.title)), 3);
  const facts = fitText([card.age, card.price].filter(Boolean).join(' · '), perLine(textWidth, 34), 1);
  const siteName = card.siteName ? fitText(card.siteName, perLine(textWidth - 84, 34), 1) : undefined;
  return { ...(siteName && { siteName }), title: title || (siteName ?? ''), facts };
}
