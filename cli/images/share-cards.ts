import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { CardModel } from '../../templates/model.ts';
import { FileCache } from '../cache/file-cache.ts';
import { fromRoot } from '../paths.ts';
import { CARD } from './card-model.ts';
import { CardError, CardPool, MAX_WORKERS } from './card-pool.ts';
import { CARD_SUBSETS, cardTexts, titleFont } from './card-text.ts';
import { filterRows, pngOf, putRow, rowAt } from './png.ts';
import { versionOf } from './versions.ts';

const require = createRequire(import.meta.url);
/**
 * satori and resvg, loaded when the first card is drawn (a build whose cards are all in the
 * cache loads neither). satori is required, not imported: its CommonJS build puts the function on
 * `default` without marking itself an ES module, so the CLI's bundle (cli/bin.js, esbuild to
 * CommonJS) would import the whole object.
 */
const drawing = () => ({
  satori: (require('satori') as typeof import('satori')).default,
  renderAsync: (require('@resvg/resvg-js') as typeof import('@resvg/resvg-js')).renderAsync,
});

export interface CardOptions {
  /** Where drawn cards are kept between builds. */
  cacheDir: string;
  /** False: nothing is taken from the cache (STUDIO_NO_CACHE=1); what is made is still stored. */
  readCache?: boolean;
  /** The site's folder: each card is written at its `file`; the photos and logo are read from it (the images stage wrote them). */
  outDir: string;
  /** Cards drawn by worker threads (card-pool.ts) where they save time (`cardWorkers`); else on this thread. */
  workers?: boolean;
}

/**
 * How many worker threads draw `cards` cards (card-pool.ts), none for the build's own thread. A
 * worker starts in about 0.6 s of CPU (its bundle, satori, the fonts: the shipped site's first card
 * in a worker) and a card takes about 14 ms on whichever thread lays it out, resvg rasterising it on
 * libuv's threads either way (measured on 2 cores). So `w` workers beside the build's idle thread
 * gain wall time only when the cards they share out save more than one start-up:
 * cards × 14 ms × (1 − 1/w) > 0.6 s; one worker (2 cores) never does, and costs the start-up in
 * CPU (the shipped site's cold build with its 90 cards: 1.08× the CPU, no shorter). With
 * STUDIO_CARD_WORKERS_FROM=n, workers draw from n cards on (benchmarks compare both ways).
 */
export function cardWorkers(cards: number, cores = availableParallelism()): number {
  const workers = Math.min(MAX_WORKERS, Math.max(1, cores - 1));
  const from = Number(process.env.STUDIO_CARD_WORKERS_FROM);
  if (from) return cards >= from ? workers : 0;
  return cards * CARD_MS * (1 - 1 / workers) > WORKER_START_MS ? workers : 0;
}
const WORKER_START_MS = 600;
const CARD_MS = 14;

export interface CardSet {
  files: string[];
  drawn: number;
  reused: number;
}

type Font = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' };
let fonts: Font[] | undefined;

/**
 * The font (TrueType) a WOFF file holds: its tables, each inflated by node's zlib where it is
 * compressed. satori reads WOFF too, but inflates it with a JavaScript inflate in each thread that
 * draws cards (about 130 ms of CPU for the six files before its code is optimised; node's zlib: 15 ms).
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

/** Noto Sans from @fontsource (its woff files, as TrueType: `woffToSfnt`), its Latin (with German letters) and Cyrillic parts. */
function loadFonts(): Font[] {
  fonts ??= CARD_SUBSETS.flatMap((subset) =>
    ([400, 700] as const).map((weight) => ({
      // One family per subset: satori takes the first font of a family and weight, then falls back to the next family for a missing letter.
      name: subset === 'cyrillic' ? 'Noto Sans Cyrillic' : subset === 'latin' ? 'Noto Sans' : 'Noto Sans Latin Ext',
      data: woffToSfnt(readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`))),
      weight,
      style: 'normal' as const,
    })),
  );
  return fonts;
}

let drawingKey: string | undefined;
/** What every card's pixels depend on besides its facts: the component's code, the font, satori's and resvg's versions. */
function cardsKey(): string {
  drawingKey ??= createHash('sha256')
    .update(readFileSync(fromRoot('templates/ShareCard.tsx')))
    .update(readFileSync(fromRoot('cli/images/card-text.ts')))
    .update(readFileSync(fromRoot('cli/images/share-cards.ts')))
    .update(readFileSync(fromRoot('cli/images/png.ts')))
    .update(JSON.stringify([versionOf('satori'), versionOf('@resvg/resvg-js'), versionOf('@fontsource/noto-sans')]))
    .digest('hex');
  return drawingKey;
}

/** The bytes of a file of the site (a photo, the logo) by its site-relative path, or the folder they are in. */
export type SiteFiles = string | ((path: string) => Buffer);

const dataUrl = (files: SiteFiles, path: string | undefined) =>
  path ? `data:image/jpeg;base64,${(typeof files === 'string' ? readFileSync(join(files, path)) : files(path)).toString('base64')}` : undefined;

/** The card's texts as drawn (card-text.ts), and the data URLs of its photo and logo. */
async function cardParts(card: CardModel, outDir: SiteFiles) {
  // Imported when the first card is drawn, not when the build starts: react/jsx-runtime picks its
  // development or production build by NODE_ENV when first loaded, which Vike's prerender and the
  // fast path set before they render (a development runtime under a production server renderer fails).
  const template = await import('../../templates/ShareCard.tsx');
  const texts = { ...cardTexts(card, template.cardTextWidth(Boolean(card.photo))), titleSize: titleFont(card.title) };
  return { template, texts, photo: dataUrl(outDir, card.photo), logo: dataUrl(outDir, card.logo) };
}

const satoriSvg = (tree: ReturnType<typeof import('../../templates/ShareCard.tsx').ShareCard>, embedFont: boolean) =>
  drawing().satori(tree, { ...CARD, fonts: loadFonts(), embedFont });

/** The card as SVG (satori). `embedFont: false` keeps the text as text (for tests); the build draws it as outlines. */
export async function cardSvg(card: CardModel, outDir: SiteFiles, options: { embedFont?: boolean } = {}): Promise<string> {
  const { template, texts, photo, logo } = await cardParts(card, outDir);
  return satoriSvg(template.ShareCard({ texts, photo, logo }), options.embedFont ?? true);
}

/** How many cards are drawn at once: as many as the workers take (each one waiting, one being drawn), or on this thread while resvg rasterises the last. */
const IN_FLIGHT = 8;

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
    return `${createHash('sha256').update(cardsKey()).update(JSON.stringify(facts)).digest('base64url').slice(0, 24)}.png`;
  };
  const keys = cards.map(keyOf);
  const toDraw = [...new Set(keys.filter((k) => !cache.has(k)))];
  const byKey = new Map(cards.map((c, i) => [keys[i]!, c]));
  const workers = options.workers ? cardWorkers(toDraw.length) : 0;
  const pool = workers ? new CardPool(workers) : undefined;
  try {
    return await placeCards(cards, keys, toDraw, byKey, cache, options, pool?.draw ?? drawHere);
  } finally {
    await pool?.close();
  }
}

async function placeCards(
  cards: CardModel[],
  keys: string[],
  toDraw: string[],
  byKey: Map<string, CardModel>,
  cache: FileCache,
  options: CardOptions,
  draw: (card: CardModel, outDir: string) => Promise<Buffer>,
): Promise<CardSet> {
  let next = 0;
  const worker = async () => {
    while (next < toDraw.length) {
      const key = toDraw[next++]!;
      cache.store(key, await draw(byKey.get(key)!, options.outDir));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  for (const [i, card] of cards.entries()) {
    const to = join(options.outDir, card.file);
    mkdirSync(dirname(to), { recursive: true });
    try {
      cache.placeAt(keys[i]!, to);
    } catch {
      writeFileSync(to, await draw(card, options.outDir)); // a cache that cannot be written
    }
  }
  return { files: cards.map((c) => c.file), drawn: toDraw.length, reused: cards.length - toDraw.length };
}

/** `drawCard` on this thread, a failure naming the card's page. */
const drawHere = (card: CardModel, outDir: string) =>
  drawCard(card, outDir).catch((error: Error) => {
    throw new CardError(card, error.message);
  });

/**
 * resvg's pixels (RGBA) of the part `box` of `svg` (a whole card), without satori's masks and clip
 * paths (resvg 2.6 stops the process on one outside the picture): each is a box's bounds, and the
 * only box whose content overflows (the title's) is drawn as exactly its part.
 */
async function rasterise(svg: string, box: Box): Promise<Buffer> {
  const whole = box.width === CARD.width && box.height === CARD.height;
  const part = whole
    ? svg
    : svg
        .replace(
          /^<svg width="1200" height="630" viewBox="0 0 1200 630"/,
          `<svg width="${box.width}" height="${box.height}" viewBox="${box.x} ${box.y} ${box.width} ${box.height}"`,
        )
        .replace(/ (mask|clip-path)="url\(#satori_(om|cp)-[^"]*\)"/g, '');
  return (await drawing().renderAsync(part, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })).pixels;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The title's box as satori placed it: the clip path (its overflow: hidden) in the text column
 * below the studio's name (the photo's and the logo's are beside it and above it), and the id of
 * that clip path (the group of the title's letters names it).
 */
function titleBox(svg: string, left: number, below: number): (Box & { id: string }) | undefined {
  const boxes = [...svg.matchAll(/<clipPath id="(satori_cp-[^"]*)"><rect x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"\/><\/clipPath>/g)]
    .map((m) => [m[1]!, ...m.slice(2).map(Number)] as [string, number, number, number, number])
    .filter(([, x, y]) => x === left && y >= below);
  if (boxes.length !== 1) return undefined;
  const [id, x, y, width, height] = boxes[0]!;
  return { id, x, y, width, height };
}

/**
 * The pixels the letters of `paths` (satori's outlines: absolute M, L, Q, C and Z) can touch, one
 * more on each side, within `within`; undefined for no letters, null for an outline of another kind.
 */
function inkBox(paths: string[], within: Box): Box | undefined | null {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const d of paths) {
    if (/[^MLQCZ\d\s.,e-]/.test(d)) return null;
    const numbers = d.match(/-?\d*\.?\d+(?:e-?\d+)?/g) ?? [];
    if (numbers.length % 2) return null;
    // A curve lies within its points' bounds.
    for (let i = 0; i < numbers.length; i += 2) {
      const [x, y] = [Number(numbers[i]), Number(numbers[i + 1])];
      [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
    }
  }
  if (left > right) return undefined;
  const x = Math.max(within.x, Math.floor(left) - 1);
  const y = Math.max(within.y, Math.floor(top) - 1);
  const width = Math.min(within.x + within.width, Math.ceil(right) + 1) - x;
  const height = Math.min(within.y + within.height, Math.ceil(bottom) + 1) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

const outlines = (svg: string) => [...svg.matchAll(/<path [^>]*\bd="([^"]*)"/g)].map((m) => m[1]!);

/**
 * The boxes of a card (its svg as `drawCard` lays it out) that differ from its ground: where the
 * title's letters are, within the title's box, and where the facts' letters are; undefined where
 * the card is not laid out as this function knows it (then it is drawn whole).
 */
function inkBoxes(svg: string, title: Box & { id: string }, factsFrom: number): Box[] | undefined {
  const group = new RegExp(`<g [^>]*clip-path="url\\(#${title.id}\\)"[^>]*>(.*?)</g>`).exec(svg);
  if (!group) return undefined;
  const rest = svg.replace(group[0], '');
  const facts: string[] = [];
  for (const d of outlines(rest)) {
    const box = inkBox([d], { x: 0, y: 0, ...CARD });
    if (box === null) return undefined;
    if (!box) continue;
    // Above the title's box: the studio's name, drawn in the ground; below, the facts' line.
    if (box.y >= factsFrom) facts.push(d);
    else if (box.y + box.height > title.y) return undefined;
  }
  const boxes = [inkBox(outlines(group[1]!), title), inkBox(facts, { x: 0, y: factsFrom, width: CARD.width, height: CARD.height - factsFrom })];
  if (boxes.includes(null)) return undefined;
  return boxes.filter((b): b is Box => Boolean(b));
}

/** A 1×1 PNG: what the title and facts rows are laid out beside in place of the photo or logo (they are drawn once, in the card's ground). */
const STAND_IN = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A drawing of what cards share: its RGBA pixels, and the same as the filtered rows of a PNG (png.ts). */
interface Ground {
  rgba: Buffer;
  rows: Buffer;
  /** `rows`, where a card writes its own rows while its PNG is made. */
  work: Buffer;
}

/**
 * What the cards of a site share (the ground, the accent, the studio's name and logo, a course's
 * photo), drawn once per studio name, logo and photo (a course's cards in every language share
 * one): each card then rasterises only the boxes of its title's and facts' letters over it.
 */
const grounds = new Map<string, Promise<Ground>>();
function groundOf(key: string, draw: () => Promise<Buffer>): Promise<Ground> {
  let ground = grounds.get(key);
  if (!ground) {
    if (grounds.size >= 16) grounds.delete(grounds.keys().next().value!);
    ground = draw().then((rgba) => {
      const rows = filterRows(rgba, CARD.width, CARD.height);
      return { rgba, rows, work: Buffer.from(rows) };
    });
    grounds.set(key, ground);
    // A drawing that failed is not kept: the next card (a preview of `content dev` after a fix) draws it again.
    ground.catch(() => {
      if (grounds.get(key) === ground) grounds.delete(key);
    });
  }
  return ground;
}

/**
 * One card's PNG, the same pixels as resvg's drawing of the whole card (cardSvg) but where a
 * letter's edge is blended in another order (at most 2 of 255 apart): satori lays the card out;
 * resvg rasterises only the boxes its title's and facts' letters fill (`inkBoxes`: about a tenth
 * of the card; resvg's time goes by the pixels it fills) over the drawing of what this card shares
 * with others (`groundOf`); node's zlib writes the PNG (png.ts), the ground's rows filtered once
 * and the card's rows written over a copy of them that is put back after.
 */
export async function drawCard(card: CardModel, outDir: SiteFiles): Promise<Buffer> {
  const { template, texts, photo, logo } = await cardParts(card, outDir);
  const ground = await groundOf(JSON.stringify([texts.siteName, card.photo, card.logo]), async () => {
    const svg = await satoriSvg(template.ShareCard({ texts: { ...texts, title: '', facts: '' }, photo, logo }), true);
    return rasterise(svg, { x: 0, y: 0, ...CARD });
  });
  const svg = await satoriSvg(template.ShareCard({ texts, photo: photo && STAND_IN, logo: logo && STAND_IN }), true);
  const title = titleBox(svg, template.CARD_TEXT_LEFT, template.CARD_HEADER_BOTTOM);
  // The facts' line and what is below it (its place: ShareCard.tsx).
  const factsFrom = CARD.height - template.CARD_FACTS_FROM_BOTTOM - 3;
  const boxes = title && title.y + title.height <= factsFrom ? inkBoxes(svg, title, factsFrom) : undefined;
  if (!boxes) {
    // Not laid out as this function knows it: the whole card, drawn whole.
    const whole = await satoriSvg(template.ShareCard({ texts, photo, logo }), true);
    return pngOf(filterRows(await rasterise(whole, { x: 0, y: 0, ...CARD }), CARD.width, CARD.height), CARD.width, CARD.height);
  }
  const parts = await Promise.all(boxes.map((box) => rasterise(svg, box)));
  // The ground's rows with the card's over them, written, then the ground's put back: no await between.
  const rows = ground.work;
  for (const [i, box] of boxes.entries()) {
    const stride = box.width * 4;
    for (let y = 0; y < box.height; y++) putRow(rows, box.y + y, ground.rgba, CARD.width, parts[i]!.subarray(y * stride, (y + 1) * stride), box.x);
  }
  try {
    return pngOf(rows, CARD.width, CARD.height);
  } finally {
    for (const box of boxes) ground.rows.copy(rows, rowAt(CARD.width, box.y), rowAt(CARD.width, box.y), rowAt(CARD.width, box.y + box.height));
  }
}
