// The share card's layout: its boxes, colours and type, and where each letter of its texts goes.
// One declaration of each: share-cards.ts draws from this; tests/images/ShareCard.tsx (the same card
// for satori, the reference tests draw it) takes its numbers from here.
import LineBreaker from 'linebreak';
import { type CardFont, measure, type Run, shape, type Weight } from './card-fonts.ts';
import { CARD } from './card-model.ts';

/** The card's colours: the site's accent and ink (styles.css), on its page colour. */
export const COLOURS = { ink: '#1f2430', muted: '#4b5263', accent: '#8a2d5a', page: '#faf7f2' } as const;

/** The texts as the card shows them (card-text.ts fits them: characters the font has, at most three lines of title). */
export interface CardTexts {
  siteName?: string;
  title: string;
  titleSize: number;
  facts: string;
}

/** The card's numbers (px): the text column beside the photo, in a 1200×630 card. */
export const LAYOUT = {
  accent: 16,
  pad: 56,
  header: 64,
  logo: 64,
  logoGap: 20,
  facts: 46,
  photo: 464,
  nameSize: 34,
  factsSize: 34,
  lineHeight: 1.15,
  titleLines: 3,
} as const;

/** The width of the text column's content: beside the photo, or the whole card. */
export const cardTextWidth = (photo: boolean) => (photo ? 680 : 1080);
/** The title's box: three lines' height, from the top (a fourth line is hidden whole, never cut through). */
export const titleHeight = (titleSize: number) => Math.ceil(titleSize * LAYOUT.lineHeight * LAYOUT.titleLines);

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The card's boxes as flexbox lays out ShareCard.tsx: the accent, the text column and the photo in
 * a row (beside a photo the row is 16 px too wide, and each of the three gives up its share by its
 * width, as CSS shrinks flex items), the column's header, title and facts spread from top to bottom
 * (justify-content: space-between); positions rounded to pixels as the layout engine rounds them.
 */
export function cardBoxes(photo: boolean, titleSize: number) {
  const column = cardTextWidth(photo) + LAYOUT.pad;
  const widths = [LAYOUT.accent, column, ...(photo ? [LAYOUT.photo] : [])];
  const total = widths.reduce((a, b) => a + b, 0);
  const over = Math.max(0, total - CARD.width);
  const [accent, columnWidth] = widths.map((w) => w - (over * w) / total) as [number, number];
  const textLeft = accent + LAYOUT.pad;
  const textWidth = Math.round(textLeft + columnWidth - LAYOUT.pad) - Math.round(textLeft);
  const title = titleHeight(titleSize);
  const gap = (CARD.height - 2 * LAYOUT.pad - LAYOUT.header - title - LAYOUT.facts) / 2;
  const titleTop = LAYOUT.pad + LAYOUT.header + gap;
  const photoLeft = Math.round(accent + columnWidth);
  return {
    accent: { x: 0, y: 0, width: Math.round(accent), height: CARD.height },
    header: { x: Math.round(textLeft), y: LAYOUT.pad, width: textWidth, height: LAYOUT.header },
    title: { x: Math.round(textLeft), y: Math.round(titleTop), width: textWidth, height: title },
    facts: { x: Math.round(textLeft), y: Math.round(titleTop + title + gap), width: textWidth, height: LAYOUT.facts },
    photo: photo ? { x: photoLeft, y: 0, width: CARD.width - photoLeft, height: CARD.height } : undefined,
  } satisfies Record<string, Box | undefined>;
}

/** A letter as drawn: its glyph in its font, its pen position (x fractional, on the baseline). */
export interface PlacedGlyph {
  font: CardFont;
  glyph: number;
  x: number;
  y: number;
}

/** A line of a text as the card draws it. */
export interface CardLine {
  text: string;
  x: number;
  baseline: number;
  size: number;
  weight: Weight;
  colour: string;
  glyphs: PlacedGlyph[];
  /** Where the line's letters are drawn (the title's box clips them, overflow: hidden; a letter that reaches left of it, a J, is cut). */
  clip: Box;
}

/** The half-leading and ascent as satori (and Chrome) place a baseline: ascent and descent rounded, half the leading floored. */
function lineMetrics(font: CardFont, size: number, lineHeight: number | 'normal') {
  const ascent = (font.ascender / font.unitsPerEm) * size;
  const descent = (-font.descender / font.unitsPerEm) * size;
  const height = lineHeight === 'normal' ? ascent + descent : size * lineHeight;
  return { height, step: Math.round(height), baseline: Math.round(ascent) + Math.floor((height - Math.round(ascent) - Math.round(descent)) / 2) };
}

/** What ends a text satori shapes as one (CSS's word separators). */
const WORD_SEPARATORS = new Set([0x20, 0xa0, 0x1361, 0x10100, 0x10101, 0x1039, 0x1091, 0xa].map((c) => String.fromCodePoint(c)));

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A text broken into lines as satori breaks it: at the line-break opportunities of Unicode's line
 * breaking (UAX 14: after a space, a dash…, the `linebreak` package satori uses), a word wider than
 * the line broken between its letters (word-break: break-word), trailing spaces not counted; each
 * piece (a word or a space: Intl.Segmenter) placed at the sum of the widths before it, each
 * measured alone (no kerning across pieces), at a whole pixel when the text has several lines.
 */
export function layoutText(
  text: string,
  fonts: CardFont[],
  options: { size: number; width: number; maxLines: number },
): { text: string; pieces: { text: string; x: number }[] }[] {
  const { size, width } = options;
  const opportunities: string[] = [];
  const breaker = new LineBreaker(text);
  for (let last = 0, bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    opportunities.push(text.slice(last, bk.position));
    last = bk.position;
  }
  const lines: { text: string; pieces: { text: string; x: number }[] }[] = [];
  let line: (typeof lines)[number] | undefined;
  let lineWidth = 0;
  for (let i = 0; i < opportunities.length && lines.length <= options.maxLines; ) {
    const word = opportunities[i]!;
    const w = measure(word, fonts, size);
    const trimmed = word.trimEnd();
    const spaces = trimmed === word ? 0 : w - measure(trimmed, fonts, size);
    const wraps = i > 0 && lineWidth + w > width + spaces;
    const chars = w > width && (!lineWidth || wraps) ? [...graphemes.segment(word)].map((s) => s.segment) : [];
    if (chars.length > 1) {
      opportunities.splice(i, 1, ...chars);
      if (lineWidth > 0) line = undefined;
      lineWidth = 0;
      continue;
    }
    if (!line || wraps) {
      line = { text: '', pieces: [] };
      lines.push(line);
      lineWidth = 0;
    }
    let x = lineWidth;
    for (const { segment } of words.segment(word)) {
      line.pieces.push({ text: segment, x });
      x += measure(segment, fonts, size);
    }
    line.text += word;
    lineWidth += w;
    i++;
  }
  const shown = lines.slice(0, options.maxLines).map((l) => ({ ...l, text: l.text.trimEnd() }));
  if (lines.length > 1) for (const l of shown) for (const p of l.pieces) p.x = Math.round(p.x);
  return shown;
}

/** The lines of one text in its box: `lineHeight` 'normal' (the font's ascent and descent) or a factor of the size. */
function linesIn(
  text: string,
  fonts: CardFont[],
  box: Box,
  style: { size: number; weight: Weight; colour: string; lineHeight: number | 'normal'; maxLines: number; clip: boolean; centre?: boolean },
): CardLine[] {
  if (!text) return [];
  const metrics = lineMetrics(fonts[0]!, style.size, style.lineHeight);
  const laid = layoutText(text, fonts, { size: style.size, width: box.width, maxLines: style.maxLines });
  const top = style.centre ? Math.round(box.y + (box.height - metrics.height * laid.length) / 2) : box.y;
  return laid.map((line, i) => {
    const baseline = top + i * metrics.step + metrics.baseline;
    const glyphs: PlacedGlyph[] = [];
    // As satori draws them: the pieces up to and including a word separator (a space) shaped as one
    // text (kerned across pieces, e.g. "Онлайн-консультация"), from the place of its first.
    const draw = (text: string, x: number) => {
      let pen = box.x + x;
      for (const run of shape(text, fonts) as Run[]) {
        const scale = style.size / run.font.unitsPerEm;
        for (const g of run.glyphs) {
          glyphs.push({ font: run.font, glyph: g.g, x: pen + g.dx * scale, y: baseline - g.dy * scale });
          pen += g.ax * scale;
        }
      }
    };
    let run: { text: string; x: number } | undefined;
    for (const piece of line.pieces) {
      run = run ? { ...run, text: run.text + piece.text } : { ...piece };
      if (WORD_SEPARATORS.has(piece.text)) {
        draw(run.text, run.x);
        run = undefined;
      }
    }
    if (run) draw(run.text, run.x);
    const clip = style.clip ? box : { x: 0, y: 0, width: CARD.width, height: CARD.height };
    return { text: line.text, x: box.x + (line.pieces[0]?.x ?? 0), baseline, size: style.size, weight: style.weight, colour: style.colour, glyphs, clip };
  });
}

/** The card's layout: its boxes, and the lines of its studio's name (drawn in the ground), title and facts. */
export function layoutCard(texts: CardTexts, has: { photo: boolean; logo: boolean }, fonts: Record<Weight, CardFont[]>) {
  const boxes = cardBoxes(has.photo, texts.titleSize);
  const logo = has.logo ? { x: boxes.header.x, y: boxes.header.y, width: LAYOUT.logo, height: LAYOUT.logo } : undefined;
  const nameLeft = boxes.header.x + (logo ? LAYOUT.logo + LAYOUT.logoGap : 0);
  const nameBox = { ...boxes.header, x: nameLeft, width: boxes.header.x + boxes.header.width - nameLeft };
  const name = linesIn(texts.siteName ?? '', fonts[700], nameBox, {
    size: LAYOUT.nameSize,
    weight: 700,
    colour: COLOURS.accent,
    lineHeight: 'normal',
    maxLines: 1,
    clip: false,
    centre: true,
  });
  const title = linesIn(texts.title, fonts[700], boxes.title, {
    size: texts.titleSize,
    weight: 700,
    colour: COLOURS.ink,
    lineHeight: LAYOUT.lineHeight,
    maxLines: LAYOUT.titleLines,
    clip: true,
  });
  const facts = linesIn(texts.facts, fonts[400], boxes.facts, {
    size: LAYOUT.factsSize,
    weight: 400,
    colour: COLOURS.muted,
    lineHeight: 'normal',
    maxLines: 2,
    clip: false,
  });
  return { boxes: { ...boxes, logo }, name, title, facts };
}
export type CardLayout = ReturnType<typeof layoutCard>;
