import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import type { CARD_SUBSETS } from './card-text.ts';

const require = createRequire(import.meta.url);

/**
 * The font (TrueType) a WOFF file holds: its tables, each inflated by node's zlib where it is
 * compressed (HarfBuzz reads TrueType, not WOFF).
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF font');
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    const [offset, packed, length] = [woff.readUInt32BE(at + 4), woff.readUInt32BE(at + 8), woff.readUInt32BE(at + 12)];
    const bytes = woff.subarray(offset, offset + packed);
    return { tag: woff.readUInt32BE(at), checksum: woff.readUInt32BE(at + 16), data: packed < length ? inflateSync(bytes) : bytes };
  });
  const head = 12 + count * 16;
  const out = Buffer.alloc(head + tables.reduce((sum, t) => sum + ((t.data.length + 3) & ~3), 0));
  const log = Math.floor(Math.log2(count));
  out.writeUInt32BE(woff.readUInt32BE(4), 0); // the font's flavour (TrueType or CFF)
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(16 << log, 6);
  out.writeUInt16BE(log, 8);
  out.writeUInt16BE(count * 16 - (16 << log), 10);
  let at = head;
  for (const [i, t] of tables.entries()) {
    out.writeUInt32BE(t.tag, 12 + i * 16);
    out.writeUInt32BE(t.checksum, 16 + i * 16);
    out.writeUInt32BE(at, 20 + i * 16);
    out.writeUInt32BE(t.data.length, 24 + i * 16);
    t.data.copy(out, at);
    at += (t.data.length + 3) & ~3;
  }
  return out;
}

/** The part of harfbuzzjs's API the cards use (its package has no types). */
interface HbFont {
  setScale(x: number, y: number): void;
  glyphToPath(glyph: number): string;
  glyphExtents(glyph: number): { xBearing: number; yBearing: number; width: number; height: number } | undefined;
}
interface HbFace {
  upem: number;
  collectUnicodes(): Uint32Array;
  reference_table(tag: string): Uint8Array | undefined;
}
interface HarfBuzz {
  createBlob(data: Uint8Array): { destroy(): void };
  createFace(blob: unknown, index: number): HbFace;
  createFont(face: HbFace): HbFont;
  createBuffer(): {
    addText(text: string): void;
    guessSegmentProperties(): void;
    getGlyphInfos(): { codepoint: number; cluster: number }[];
    getGlyphPositions(): { x_advance: number; x_offset: number; y_offset: number }[];
    destroy(): void;
  };
  shape(font: HbFont, buffer: unknown): void;
}

/** A glyph as HarfBuzz shapes it, in font units: its id, the character it is of, its advance and offset. */
export interface ShapedGlyph {
  g: number;
  cl: number;
  ax: number;
  dx: number;
  dy: number;
}

export type Weight = 400 | 700;

/** One of the card's font files (a subset of Noto Sans in one weight). */
export interface CardFont {
  /** Its name: subset and weight. */
  key: string;
  /** Its number among the card's fonts (0 to 5), in the drawing's keys. */
  id: number;
  hb: HbFont;
  unitsPerEm: number;
  /** hhea's ascender and descender (font units), as satori and CSS place a line's baseline. */
  ascender: number;
  descender: number;
  has: Set<number>;
}

let loaded: Promise<Record<Weight, CardFont[]>> | undefined;

/**
 * Noto Sans from @fontsource (its WOFF files as TrueType), Latin, Cyrillic and Latin Ext in that
 * order (the order satori takes them in: its family list, then the others), each weight, read by
 * HarfBuzz (harfbuzzjs, the shaper satori uses: it applies the fonts' kerning, which sits in GPOS
 * extension lookups that opentype.js 2.0 does not read). Loaded once per process.
 */
export function cardFonts(): Promise<Record<Weight, CardFont[]>> {
  loaded ??= (async () => {
    const hb = (await (require('harfbuzzjs') as Promise<HarfBuzz>)) satisfies HarfBuzz;
    const order = ['latin', 'cyrillic', 'latin-ext'] as const satisfies readonly (typeof CARD_SUBSETS)[number][];
    const load = (subset: (typeof order)[number], weight: Weight, id: number): CardFont => {
      const sfnt = woffToSfnt(readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`)));
      const blob = hb.createBlob(new Uint8Array(sfnt));
      const face = hb.createFace(blob, 0);
      const font = hb.createFont(face);
      font.setScale(face.upem, face.upem);
      const hhea = Buffer.from(face.reference_table('hhea')!);
      return {
        key: `${subset}-${weight}`,
        id,
        hb: font,
        unitsPerEm: face.upem,
        ascender: hhea.readInt16BE(4),
        descender: hhea.readInt16BE(6),
        has: new Set(face.collectUnicodes()),
      };
    };
    shaper = hb;
    return { 400: order.map((s, i) => load(s, 400, i)), 700: order.map((s, i) => load(s, 700, order.length + i)) };
  })();
  return loaded;
}
let shaper: HarfBuzz | undefined;

/** A run of text in one font, shaped. */
export interface Run {
  font: CardFont;
  glyphs: ShapedGlyph[];
}

const shapedRuns = new Map<string, Run[]>();

/**
 * `text` shaped as satori shapes it: split into runs by the first font that has each character (a
 * space stays in the run it is in when that font has it), each run shaped by HarfBuzz with the
 * font's default features (kerning, ligatures).
 */
export function shape(text: string, fonts: CardFont[]): Run[] {
  const key = `${fonts[0]!.key}\0${text}`;
  const known = shapedRuns.get(key);
  if (known) return known;
  const runs: { font: CardFont; text: string }[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const last = runs.at(-1);
    const font = /\s/.test(char) && last?.font.has.has(cp) ? last.font : (fonts.find((f) => f.has.has(cp)) ?? fonts.at(-1)!);
    if (last?.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  const shaped = runs.map(({ font, text }) => {
    const buffer = shaper!.createBuffer();
    try {
      buffer.addText(text);
      buffer.guessSegmentProperties();
      shaper!.shape(font.hb, buffer);
      const positions = buffer.getGlyphPositions();
      const glyphs = buffer.getGlyphInfos().map((info, i) => {
        const at = positions[i]!;
        return { g: info.codepoint, cl: info.cluster, ax: at.x_advance, dx: at.x_offset, dy: at.y_offset };
      });
      return { font, glyphs };
    } finally {
      buffer.destroy();
    }
  });
  if (shapedRuns.size > 5000) shapedRuns.clear();
  shapedRuns.set(key, shaped);
  return shaped;
}

/** The width of `text` at `size` px, as satori measures it (the sum of the shaped advances). */
export const measure = (text: string, fonts: CardFont[], size: number) =>
  shape(text, fonts).reduce((sum, run) => sum + (run.glyphs.reduce((s, g) => s + g.ax, 0) * size) / run.font.unitsPerEm, 0);
