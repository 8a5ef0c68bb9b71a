import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CardModel } from '../../templates/model.ts';
import { FileCache } from '../cache/file-cache.ts';
import { fromRoot } from '../paths.ts';
import { CARD } from './card-model.ts';
import { CardError, CardPool } from './card-pool.ts';
import { CARD_SUBSETS, cardTexts, titleFont } from './card-text.ts';
import { loadSharp } from './load-sharp.ts';
import { versionOf } from './versions.ts';

const require = createRequire(import.meta.url);
/**
 * satori, resvg and sharp, loaded when the first card is drawn (a build whose cards are all in the
 * cache loads none). satori is required, not imported: its CommonJS build puts the function on
 * `default` without marking itself an ES module, so the CLI's bundle (cli/bin.js, esbuild to
 * CommonJS) would import the whole object.
 */
const drawing = () => ({
  satori: (require('satori') as typeof import('satori')).default,
  renderAsync: (require('@resvg/resvg-js') as typeof import('@resvg/resvg-js')).renderAsync,
  sharp: loadSharp(),
});

export interface CardOptions {
  /** Where drawn cards are kept between builds. */
  cacheDir: string;
  /** False: nothing is taken from the cache (STUDIO_NO_CACHE=1); what is made is still stored. */
  readCache?: boolean;
  /** The site's folder: each card is written at its `file`; the photos and logo are read from it (the images stage wrote them). */
  outDir: string;
  /** Cards drawn by worker threads (card-pool.ts) when there are `MIN_FOR_WORKERS` or more to draw; else on this thread. */
  workers?: boolean;
}

/**
 * From this many cards to draw, worker threads draw them: each loads satori and the fonts once
 * (the cost of a few cards), and then they draw on every core, off the build's thread.
 * STUDIO_CARD_WORKERS_FROM sets another number (benchmarks compare both ways).
 */
const MIN_FOR_WORKERS = () => Number(process.env.STUDIO_CARD_WORKERS_FROM) || 8;

export interface CardSet {
  files: string[];
  drawn: number;
  reused: number;
}

type Font = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' };
let fonts: Font[] | undefined;

/** Noto Sans from @fontsource (woff: satori reads woff, not woff2), its Latin (with German letters) and Cyrillic parts. */
function loadFonts(): Font[] {
  fonts ??= CARD_SUBSETS.flatMap((subset) =>
    ([400, 700] as const).map((weight) => ({
      // One family per subset: satori takes the first font of a family and weight, then falls back to the next family for a missing letter.
      name: subset === 'cyrillic' ? 'Noto Sans Cyrillic' : subset === 'latin' ? 'Noto Sans' : 'Noto Sans Latin Ext',
      data: readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`)),
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
    .update(JSON.stringify([versionOf('satori'), versionOf('@resvg/resvg-js'), versionOf('@fontsource/noto-sans')]))
    .digest('hex');
  return drawingKey;
}

/** The bytes of a file of the site (a photo, the logo) by its site-relative path, or the folder they are in. */
export type SiteFiles = string | ((path: string) => Buffer);

const dataUrl = (files: SiteFiles, path: string | undefined) =>
  path ? `data:image/jpeg;base64,${(typeof files === 'string' ? readFileSync(join(files, path)) : files(path)).toString('base64')}` : undefined;

/** The card as SVG (satori). `embedFont: false` keeps the text as text (for tests); the build draws it as outlines. */
export async function cardSvg(card: CardModel, outDir: SiteFiles, options: { embedFont?: boolean } = {}): Promise<string> {
  // Imported when the first card is drawn, not when the build starts: react/jsx-runtime picks its
  // development or production build by NODE_ENV when first loaded, which Vike's prerender and the
  // fast path set before they render (a development runtime under a production server renderer fails).
  const { ShareCard, cardTextWidth } = await import('../../templates/ShareCard.tsx');
  const texts = { ...cardTexts(card, cardTextWidth(Boolean(card.photo))), titleSize: titleFont(card.title) };
  return drawing().satori(ShareCard({ texts, photo: dataUrl(outDir, card.photo), logo: dataUrl(outDir, card.logo) }), {
    ...CARD,
    fonts: loadFonts(),
    embedFont: options.embedFont ?? true,
  });
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
    const { file: _file, ...facts } = card;
    // The photo's and logo's paths carry the hash of their bytes (cli/images/plan.ts).
    return `${createHash('sha256').update(cardsKey()).update(JSON.stringify(facts)).digest('base64url').slice(0, 24)}.png`;
  };
  const keys = cards.map(keyOf);
  const toDraw = [...new Set(keys.filter((k) => !cache.has(k)))];
  const byKey = new Map(cards.map((c, i) => [keys[i]!, c]));
  const pool = options.workers && toDraw.length >= MIN_FOR_WORKERS() ? new CardPool() : undefined;
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
 * One card's PNG: satori's SVG rasterised by resvg (on libuv's threads), encoded by sharp (libvips'
 * PNG encoder took a sixth of the time of resvg's own, for a file 10 % larger).
 */
export async function drawCard(card: CardModel, outDir: SiteFiles): Promise<Buffer> {
  const svg = await cardSvg(card, outDir);
  const { renderAsync, sharp } = drawing();
  const pixels = (await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } })).pixels;
  return sharp(pixels, { raw: { ...CARD, channels: 4 } })
    .removeAlpha()
    .png({ compressionLevel: 6 })
    .toBuffer();
}
