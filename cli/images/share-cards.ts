import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { CardModel } from '../../templates/model.ts';
import { FileCache } from '../cache/file-cache.ts';
import { fromRoot } from '../paths.ts';
import { type CardFont, cardFonts } from './card-fonts.ts';
import { type Box, type CardLayout, type CardLine, COLOURS, cardTextWidth, layoutCard } from './card-layout.ts';
import { CARD } from './card-model.ts';
import { cardTexts, titleFont } from './card-text.ts';
import { loadSharp } from './load-sharp.ts';
import { BAND, type DeflatedRows, deflateBands, filterRows, PIXEL, pngOf, refilter } from './png.ts';
import { versionOf } from './versions.ts';

const require = createRequire(import.meta.url);

export interface CardOptions {
  /** Where drawn cards are kept between builds. */
  cacheDir: string;
  /** False: nothing is taken from the cache (STUDIO_NO_CACHE=1); what is made is still stored. */
  readCache?: boolean;
  /** The site's folder: each card is written at its `file`; the photos and logo are read from it (the images stage wrote them). */
  outDir: string;
}

export interface CardSet {
  files: string[];
  drawn: number;
  reused: number;
}

let drawingKey: string | undefined;
/** What every card's pixels depend on besides its facts: the code that lays it out and draws it, the font, the shaper's, line breaker's and rasteriser's versions. */
function cardsKey(): string {
  if (drawingKey) return drawingKey;
  const hash = createHash('sha256');
  for (const file of ['card-text.ts', 'card-fonts.ts', 'card-layout.ts', 'share-cards.ts', 'png.ts']) hash.update(readFileSync(fromRoot('cli/images', file)));
  drawingKey = hash.update(JSON.stringify(['harfbuzzjs', 'linebreak', '@resvg/resvg-js', '@fontsource/noto-sans', 'sharp'].map(versionOf))).digest('hex');
  return drawingKey;
}

/** The bytes of a file of the site (a photo, the logo) by its site-relative path, or the folder they are in. */
export type SiteFiles = string | ((path: string) => Buffer);
const read = (files: SiteFiles, path: string) => (typeof files === 'string' ? readFileSync(join(files, path)) : files(path));

/** A share card that could not be drawn: names the page whose card it is. */
export class CardError extends Error {
  override name = 'CardError';
  constructor(card: CardModel, reason: string) {
    super(
      `The share card of the page ${card.file.replace(/^cards\//, '').replace(/\.(png|jpg)$/, '')} (${card.locale}, "${card.title.slice(0, 80)}") could not be drawn: ${reason}`,
    );
  }
}

/** The texts a card shows (card-text.ts fits them) and its layout (card-layout.ts): lines of text, each letter placed. */
export async function cardLayout(card: CardModel): Promise<CardLayout> {
  const texts = { ...cardTexts(card, cardTextWidth(Boolean(card.photo))), titleSize: titleFont(card.title) };
  return layoutCard(texts, { photo: Boolean(card.photo), logo: Boolean(card.logo) }, await cardFonts());
}

/**
 * Writes the share card of every page that has one into `outDir`. A card is kept in the cache under
 * the hash of what it shows (its facts, the bytes of its photo and logo) and of how it is drawn
 * (`cardsKey`): a rebuild draws only the cards whose page title, price, photo… changed.
 */
export async function shareCards(cards: CardModel[], options: CardOptions): Promise<CardSet> {
  const cache = new FileCache(options.cacheDir, options.readCache ?? true);
  const keyOf = (card: CardModel) => {
    // Not its file nor its language: a card that shows the same as another (a text that falls back to Russian) is drawn once.
    const { file: _file, locale: _locale, ...facts } = card;
    // The photo's and logo's paths carry the hash of their bytes (cli/images/plan.ts).
    return `${createHash('sha256').update(cardsKey()).update(JSON.stringify(facts)).digest('base64url').slice(0, 24)}${extname(card.file)}`;
  };
  const keys = cards.map(keyOf);
  const toDraw = [...new Set(keys.filter((k) => !cache.has(k)))];
  const byKey = new Map(cards.map((c, i) => [keys[i]!, c]));
  await drawCards(
    toDraw.map((k) => byKey.get(k)!),
    options.outDir,
    (i, png) => cache.store(toDraw[i]!, png),
  );
  for (const [i, card] of cards.entries()) {
    const to = join(options.outDir, card.file);
    mkdirSync(dirname(to), { recursive: true });
    try {
      cache.placeAt(keys[i]!, to);
    } catch {
      writeFileSync(to, await drawCard(card, options.outDir)); // a cache that cannot be written
    }
  }
  return { files: cards.map((c) => c.file), drawn: toDraw.length, reused: cards.length - toDraw.length };
}

/** One card's PNG (`drawCards`). */
export async function drawCard(card: CardModel, files: SiteFiles): Promise<Buffer> {
  let png: Buffer | undefined;
  await drawCards([card], files, (_, drawn) => {
    png = drawn;
  });
  return png!;
}

/** A glyph at one size and sub-pixel phase, as coverage (0–255) of the pixels from its pen position's (left, top). */
interface Mask {
  left: number;
  top: number;
  width: number;
  height: number;
  coverage: Uint8Array;
}

/** Each letter is drawn at the quarter pixel nearest its place (satori's outlines are rounded to a tenth of a pixel). */
const PHASES = 4;
const masks = new Map<number, Mask | null>();
const maskKey = (font: CardFont, glyph: number, size: number, phase: number) => ((glyph * 512 + size) * 8 + font.id) * PHASES + phase;
/** The pixel a letter's pen is in, and its phase within it. */
function penOf(x: number): [number, number] {
  const steps = Math.round(x * PHASES);
  return [Math.floor(steps / PHASES), steps - Math.floor(steps / PHASES) * PHASES];
}

/** A glyph's outline in font units (HarfBuzz draws it): its commands (M, L, Q, C, Z) and their points, read once per process. */
const outlines = new Map<string, { commands: string[]; points: number[] }>();
const POINTS: Record<string, number> = { M: 1, L: 1, Q: 2, C: 3, Z: 0 };
function outlineOf(font: CardFont, glyph: number) {
  const key = `${font.id}:${glyph}`;
  let outline = outlines.get(key);
  if (!outline) {
    const path = font.hb.glyphToPath(glyph);
    outline = { commands: path.match(/[MLQCZ]/g) ?? [], points: (path.match(/-?[\d.]+/g) ?? []).map(Number) };
    outlines.set(key, outline);
  }
  return outline;
}

/** Where the atlas places each letter: rows of this width. */
const ATLAS_WIDTH = 2048;

/**
 * The coverage masks of every letter `lines` draw (each glyph at each size and quarter-pixel phase
 * once per process), rasterised by resvg in one drawing: an SVG of their outlines (HarfBuzz's),
 * each in its own cell; the cell's alpha is the letter's coverage, as resvg anti-aliases the
 * letters of a whole card.
 */
async function rasteriseLetters(lines: CardLine[]): Promise<void> {
  const cells: { key: number; font: CardFont; glyph: number; scale: number; phase: number; mask: Mask; x: number; y: number }[] = [];
  const seen = new Set<number>();
  for (const line of lines) {
    for (const g of line.glyphs) {
      const phase = penOf(g.x)[1];
      const key = maskKey(g.font, g.glyph, line.size, phase);
      if (masks.has(key) || seen.has(key)) continue;
      seen.add(key);
      const extents = g.font.hb.glyphExtents(g.glyph);
      const scale = line.size / g.font.unitsPerEm;
      if (!extents || extents.width === 0 || extents.height === 0) {
        masks.set(key, null);
        continue;
      }
      const shift = phase / PHASES;
      const left = Math.floor(shift + extents.xBearing * scale) - 2;
      const right = Math.ceil(shift + (extents.xBearing + extents.width) * scale) + 2;
      const top = Math.floor(-extents.yBearing * scale) - 2;
      const bottom = Math.ceil(-(extents.yBearing + extents.height) * scale) + 2;
      const mask = { left, top, width: right - left, height: bottom - top, coverage: new Uint8Array(0) };
      cells.push({ key, font: g.font, glyph: g.glyph, scale, phase, mask, x: 0, y: 0 });
    }
  }
  if (!cells.length) return;
  // Shelves: the cells in rows, tallest first.
  cells.sort((a, b) => b.mask.height - a.mask.height);
  let [x, y, shelf] = [0, 0, 0];
  for (const cell of cells) {
    if (x + cell.mask.width > ATLAS_WIDTH) [x, y, shelf] = [0, y + shelf, 0];
    [cell.x, cell.y] = [x, y];
    x += cell.mask.width;
    shelf = Math.max(shelf, cell.mask.height);
  }
  const height = y + shelf;
  // Each outline placed in its cell, every point in 64ths of a pixel (whole numbers, scaled by a
  // power of two: exact in resvg's 32-bit floats, so a letter rasterises the same in any cell; a
  // transform's rounding would move its edges by where the cell is, and a card would differ by the
  // other letters of its build; and whole numbers are quick to write).
  const paths = cells.map((c) => {
    const [ox, oy] = [(c.x - c.mask.left + c.phase / PHASES) * 64, (c.y - c.mask.top) * 64];
    const scale = c.scale * 64;
    const { commands, points } = outlineOf(c.font, c.glyph);
    let d = '';
    for (let i = 0, p = 0; i < commands.length; i++) {
      d += commands[i]!;
      for (let n = POINTS[commands[i]!]!; n > 0; n--, p += 2) d += `${Math.round(ox + points[p]! * scale)},${Math.round(oy - points[p + 1]! * scale)} `;
    }
    return `<path d="${d}"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${ATLAS_WIDTH}" height="${height}"><g transform="scale(0.015625)">${paths.join('')}</g></svg>`;
  const { renderAsync } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const pixels = (await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })).pixels;
  for (const c of cells) {
    const { width, height } = c.mask;
    const coverage = new Uint8Array(width * height);
    for (let row = 0; row < height; row++) {
      const from = ((c.y + row) * ATLAS_WIDTH + c.x) * 4 + 3;
      for (let col = 0; col < width; col++) coverage[row * width + col] = pixels[from + col * 4]!;
    }
    masks.set(c.key, { ...c.mask, coverage });
  }
}

const rgbOf = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** Where a card's letters changed its ground: the first and last pixel of each row (none: first > last). */
interface Spans {
  first: Int32Array;
  last: Int32Array;
}

/** Paints `lines`' letters over `rgb` (the card's pixels): each pixel moves toward the line's colour by its coverage. Widens `spans` to the pixels it painted. */
function paintLines(rgb: Buffer, lines: CardLine[], spans?: Spans): void {
  for (const line of lines) {
    const [r, g, b] = rgbOf(line.colour);
    for (const glyph of line.glyphs) {
      const [pen, phase] = penOf(glyph.x);
      const mask = masks.get(maskKey(glyph.font, glyph.glyph, line.size, phase));
      if (!mask) continue;
      const baseline = Math.round(glyph.y);
      const { clip } = line;
      const from = Math.max(clip.y, baseline + mask.top);
      const to = Math.min(clip.y + clip.height, baseline + mask.top + mask.height);
      const left = Math.max(0, clip.x - (pen + mask.left));
      const right = Math.min(mask.width, clip.x + clip.width - pen - mask.left);
      const { coverage, width } = mask;
      for (let y = from; y < to; y++) {
        const row = (y - baseline - mask.top) * width;
        let at = (y * CARD.width + pen + mask.left + left) * PIXEL;
        for (let col = left; col < right; col++, at += PIXEL) {
          const a = coverage[row + col]!;
          if (a === 0) continue;
          rgb[at] = rgb[at]! + ((r - rgb[at]!) * a + 127) / 255;
          rgb[at + 1] = rgb[at + 1]! + ((g - rgb[at + 1]!) * a + 127) / 255;
          rgb[at + 2] = rgb[at + 2]! + ((b - rgb[at + 2]!) * a + 127) / 255;
        }
      }
      if (spans && left < right)
        for (let y = from; y < to; y++) {
          spans.first[y] = Math.min(spans.first[y]!, pen + mask.left + left);
          spans.last[y] = Math.max(spans.last[y]!, pen + mask.left + right - 1);
        }
    }
  }
}

/** A drawing of what cards share: its pixels, and for PNG cards the same as the filtered rows of a PNG (png.ts). */
interface Ground {
  rgb: Buffer;
  /** `rgb`, where a card paints its letters while its file is made (put back after). */
  paint: Buffer;
  /** The rows and deflated bands of a PNG of it, made when the first PNG card of this ground needs them (a photo's cards are JPEGs). */
  png: () => PngGround;
}

interface PngGround {
  rows: Buffer;
  deflated: DeflatedRows;
  /** `rows`, where a card writes its rows while its PNG is made (put back after). */
  work: Buffer;
}

/**
 * What the cards of a site share (the page colour, the accent, the studio's name and logo, a
 * course's photo), drawn once per studio name, logo and photo (a course's cards in every language
 * share one): the fills in JavaScript, the name's letters as the cards' (`paintLines`), the logo
 * (contained in its 64 px square) and the photo (covering its box) resized by sharp, which only a
 * card with a picture loads.
 */
const grounds = new Map<string, Promise<Ground>>();
function groundOf(card: CardModel, layout: CardLayout, files: SiteFiles): Promise<Ground> {
  const key = JSON.stringify([layout.name.map((l) => l.text), card.photo, card.logo]);
  let ground = grounds.get(key);
  if (!ground) {
    if (grounds.size >= 16) grounds.delete(grounds.keys().next().value!);
    ground = drawGround(card, layout, files).then((rgb) => {
      let png: PngGround | undefined;
      return {
        rgb,
        paint: Buffer.from(rgb),
        png: () => {
          if (!png) {
            const rows = filterRows(rgb, CARD.width, CARD.height);
            png = { rows, deflated: deflateBands(rows, CARD.width, CARD.height), work: Buffer.from(rows) };
          }
          return png;
        },
      };
    });
    grounds.set(key, ground);
    // A drawing that failed is not kept: the next card (a preview of `content dev` after a fix) draws it again.
    ground.catch(() => {
      if (grounds.get(key) === ground) grounds.delete(key);
    });
  }
  return ground;
}

async function drawGround(card: CardModel, layout: CardLayout, files: SiteFiles): Promise<Buffer> {
  const rgb = Buffer.alloc(CARD.width * CARD.height * PIXEL);
  const fill = (box: Box, colour: string) => {
    const [r, g, b] = rgbOf(colour);
    const row = Buffer.alloc(box.width * PIXEL);
    for (let x = 0; x < box.width; x++) [row[x * PIXEL], row[x * PIXEL + 1], row[x * PIXEL + 2]] = [r, g, b];
    for (let y = box.y; y < box.y + box.height; y++) row.copy(rgb, (y * CARD.width + box.x) * PIXEL);
  };
  fill({ x: 0, y: 0, width: CARD.width, height: CARD.height }, COLOURS.page);
  fill(layout.boxes.accent, COLOURS.accent);
  const picture = async (path: string, box: Box, fit: 'cover' | 'contain') => {
    const { data, info } = await loadSharp()(read(files, path))
      .resize(box.width, box.height, { fit, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        const [from, to] = [(y * info.width + x) * 4, ((box.y + y) * CARD.width + box.x + x) * PIXEL];
        const a = data[from + 3]!;
        for (let c = 0; c < 3; c++) rgb[to + c] = rgb[to + c]! + ((data[from + c]! - rgb[to + c]!) * a + 127) / 255;
      }
  };
  if (card.photo && layout.boxes.photo) await picture(card.photo, layout.boxes.photo, 'cover');
  if (card.logo && layout.boxes.logo) await picture(card.logo, layout.boxes.logo, 'contain');
  paintLines(rgb, layout.name);
  return rgb;
}

/**
 * The PNGs of `cards`, each handed to `done` as it is made: each card laid out (card-layout.ts),
 * the letters of all of them rasterised in one resvg drawing (`rasteriseLetters`), then each card's
 * letters painted over the drawing of what it shares with others (`groundOf`) and node's zlib
 * writes the PNG (png.ts): the ground's rows filtered once, the rows of the card's letters written
 * over a copy of them that is put back after.
 */
export async function drawCards(cards: CardModel[], files: SiteFiles, done: (index: number, png: Buffer) => void): Promise<void> {
  const layouts = await Promise.all(
    cards.map((card) =>
      cardLayout(card).catch((error: Error) => {
        throw new CardError(card, error.message);
      }),
    ),
  );
  await rasteriseLetters(layouts.flatMap((l) => [...l.name, ...l.title, ...l.facts]));
  for (const [i, card] of cards.entries()) {
    try {
      const layout = layouts[i]!;
      const ground = await groundOf(card, layout, files);
      // The ground's pixels and rows with the card's over them, deflated where they changed, then the ground's put back: no await between.
      const spans = { first: new Int32Array(CARD.height).fill(CARD.width), last: new Int32Array(CARD.height).fill(-1) };
      const rows: number[] = [];
      // A card whose file is a JPEG (card-model.ts's cardFormat: one with a photo) is encoded by sharp (loaded for its photo) from a copy of its pixels.
      const jpeg = card.file.endsWith('.jpg');
      const png = jpeg ? undefined : ground.png();
      let pixels: Buffer | undefined;
      try {
        paintLines(ground.paint, [...layout.title, ...layout.facts], spans);
        for (let y = 0; y < CARD.height; y++) if (spans.last[y]! >= spans.first[y]!) rows.push(y);
        if (png) {
          const sums = new Float64Array(png.deflated.bands.length * 2);
          const changed = new Uint8Array(png.deflated.bands.length);
          for (const y of rows) {
            refilter(png.work, ground.paint, CARD.width, CARD.height, y, spans.first[y]!, spans.last[y]! + 1, sums);
            changed[Math.floor(y / BAND)] = 1;
          }
          done(i, pngOf(deflateBands(png.work, CARD.width, CARD.height, png.deflated, sums, changed), CARD.width, CARD.height));
        } else pixels = Buffer.from(ground.paint);
      } finally {
        // Every row painted so far, also when something above failed: the ground stays as it was for the next card.
        for (let y = 0; y < CARD.height; y++) {
          if (spans.last[y]! < spans.first[y]!) continue;
          if (png) putBack(png.rows, png.work, y, y + 1, CARD.width * PIXEL + 1);
          putBack(ground.rgb, ground.paint, y, y + 1, CARD.width * PIXEL);
        }
      }
      if (pixels)
        done(
          i,
          await loadSharp()(pixels, { raw: { width: CARD.width, height: CARD.height, channels: PIXEL } })
            .jpeg({ quality: 85, chromaSubsampling: '4:4:4' })
            .toBuffer(),
        );
    } catch (error) {
      throw error instanceof CardError ? error : new CardError(card, (error as Error).message);
    }
  }
}

/** Rows `from` to `to` of `target` as those of `source`, rows `stride` bytes long. */
const putBack = (source: Buffer, target: Buffer, from: number, to: number, stride: number) => source.copy(target, from * stride, from * stride, to * stride);
