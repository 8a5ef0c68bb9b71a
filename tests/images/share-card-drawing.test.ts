// How share cards are drawn (cli/images/share-cards.ts: HarfBuzz's shaping, our layout, a glyph
// atlas rasterised by resvg once), checked against satori's layout and resvg's drawing of the same
// card (tests/images/ShareCard.tsx, tests/images/card-reference.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { createElement } from 'react';
import satori from 'satori';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { woffToSfnt } from '../../cli/images/card-fonts.ts';
import type { CardLayout } from '../../cli/images/card-layout.ts';
import { CARD_SUBSETS } from '../../cli/images/card-text.ts';
import { cardLayout, drawCard } from '../../cli/images/share-cards.ts';
import type { CardModel } from '../../templates/model.ts';
import { referencePixels, referenceSvg } from './card-reference.ts';

const require = createRequire(import.meta.url);

describe('share card fonts', () => {
  it.each(CARD_SUBSETS.flatMap((subset) => ([400, 700] as const).map((weight) => [subset, weight] as const)))(
    'reads the %s %i WOFF as the TrueType font it holds: satori draws the same outlines from either',
    async (subset, weight) => {
      const woff = readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`));
      const sfnt = woffToSfnt(woff);
      expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4));
      const text = 'Gesangsunterricht für Kinder · Вокал для детей · Łódź 6–16 € ÿ';
      const draw = (data: Buffer) =>
        satori(createElement('div', { style: { display: 'flex', fontSize: 40, fontWeight: weight, fontFamily: 'F' } }, text), {
          width: 1200,
          height: 100,
          fonts: [{ name: 'F', data, weight, style: 'normal' }],
        });
      const [fromWoff, fromSfnt] = await Promise.all([draw(woff), draw(sfnt)]);
      expect(fromSfnt).toBe(fromWoff);
      expect(fromSfnt).toMatch(/<path [^>]*d="M/);
    },
  );

  it('refuses a file that is not a WOFF font', () => {
    expect(() => woffToSfnt(Buffer.from('not a font at all, but long enough to have a header'))).toThrow('not a WOFF font');
  });
});

/** A photo with something to see (a square off its centre), and a logo that is not square: where cover and contain crop and place them shows. */
const photo = await sharp({ create: { width: 800, height: 533, channels: 3, background: '#3a7' } })
  .composite([
    {
      input: await sharp({ create: { width: 200, height: 200, channels: 3, background: '#c52' } })
        .png()
        .toBuffer(),
      left: 300,
      top: 100,
    },
  ])
  .jpeg()
  .toBuffer();
const logo = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#25a' } })
  .jpeg()
  .toBuffer();
const files = (path: string) => (path.includes('logo') ? logo : photo);

const card = (over: Partial<CardModel>): CardModel => ({ file: 'cards/x.png', locale: 'ru', siteName: 'Студия «Ромашка»', title: 'Вокал', ...over });
const CARDS: Record<string, CardModel> = {
  cyrillic: card({ title: 'Адаптивная физкультура (АФК)', age: '7–12 лет', price: '3 200 ₽ в месяц' }),
  umlauts: card({
    locale: 'de',
    siteName: 'Kinderstudio Zwölf',
    title: 'Gesangsunterricht für Kinder: Übungen, Stimmbildung und Bühnenauftritte',
    age: '5–8 Jahre',
  }),
  'three lines, photo and logo': card({
    title: 'Рисование и живопись для детей и подростков, очень длинное название курса',
    age: '6–16 лет',
    price: '2 500 ₽ за занятие',
    photo: 'images/a.jpg',
    logo: 'images/logo.jpg',
  }),
  'photo, no studio name': card({
    siteName: undefined,
    locale: 'en',
    title: 'Early development: AVAWAY fi fl Tý',
    price: '90 € a month',
    photo: 'images/a.jpg',
  }),
  // The J of the second line reaches left of the title's box, which clips it.
  'a J left of the title': card({ siteName: undefined, locale: 'de', title: 'Frühkindliche Förderung, 3–4 Jahre', price: '90 € pro Monat' }),
  'logo, no photo': card({ locale: 'en', siteName: 'Studio', title: 'Chess', logo: 'images/logo.jpg' }),
};

/** The lines satori lays the card out in: its <text> pieces (kept as text) grouped by baseline, the title's hidden fourth line left out. */
async function satoriLines(c: CardModel): Promise<{ text: string; x: number; baseline: number }[]> {
  const pieces = [...(await referenceSvg(c, files, false)).matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*font-size="(\d+)"[^>]*>(.*?)<\/text>/gs)];
  const lines: { text: string; x: number; baseline: number; size: number }[] = [];
  for (const [, x, y, size, text] of pieces) {
    const line = lines.find((l) => l.baseline === Number(y) && l.size === Number(size));
    if (line) line.text += text;
    else lines.push({ text: text!, x: Number(x), baseline: Number(y), size: Number(size) });
  }
  const titles = lines.filter((l) => l.size > 34);
  return lines.filter((l) => !titles.slice(3).includes(l)).map(({ text, x, baseline }) => ({ text: text.trim(), x, baseline }));
}

/** The top left corner of each outline's points, placed in pixels by `place`. */
function corners(outlines: string[], place: (x: number, y: number) => [number, number]): [number, number][] {
  return outlines
    .filter((o) => o.startsWith('M'))
    .map((o) => {
      const points = [...o.matchAll(/(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((p) => place(Number(p[1]), Number(p[2])));
      return [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1]))];
    });
}

const linesOf = (layout: CardLayout) => [...layout.name, ...layout.title, ...layout.facts];

/** The largest and mean difference (of R, G and B) between two RGB drawings, within and outside `boxes`. */
function apart(a: Buffer, b: Buffer, boxes: { x: number; y: number; width: number; height: number }[]) {
  const regions = { text: { sum: 0, n: 0, max: 0, over32: 0 }, pictures: { sum: 0, n: 0, max: 0, over32: 0 } };
  for (let y = 0; y < 630; y++)
    for (let x = 0; x < 1200; x++) {
      const r = boxes.some((b) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height) ? regions.pictures : regions.text;
      const at = (y * 1200 + x) * 3;
      const d = Math.max(...[0, 1, 2].map((c) => Math.abs(a[at + c]! - b[at + c]!)));
      r.sum += d;
      r.n++;
      r.max = Math.max(r.max, d);
      if (d > 32) r.over32++;
    }
  return Object.fromEntries(Object.entries(regions).map(([k, r]) => [k, { mean: r.n ? r.sum / r.n : 0, max: r.max, over32: r.over32 / Math.max(1, r.n) }]));
}

describe('share cards drawn as satori and resvg draw ShareCard.tsx', () => {
  it.each(Object.entries(CARDS))('%s: the same lines, breaks and baselines as satori lays out', async (_, c) => {
    const mine = linesOf(await cardLayout(c)).map(({ text, x, baseline }) => ({ text, x, baseline }));
    const theirs = await satoriLines(c);
    expect(mine.map((l) => [l.text, l.baseline])).toEqual(theirs.map((l) => [l.text, l.baseline]));
    for (const [i, l] of mine.entries()) expect(Math.abs(l.x - theirs[i]!.x), l.text).toBeLessThanOrEqual(0.5);
  });

  it.each(Object.entries({ ...CARDS, hyphen: card({ title: 'Онлайн-консультация по развитию речи' }) }))(
    '%s: each letter where satori puts it (kerned as satori shapes a text: to its next space), to a fifth of a pixel',
    async (_, c) => {
      const svg = await referenceSvg(c, files);
      const layout = await cardLayout(c);
      for (const colour of new Set(linesOf(layout).map((l) => l.colour))) {
        // satori draws a colour's letters as one path; each outline (contour) is known by the top left of its points (a hidden fourth line's last).
        const theirs = [...svg.matchAll(new RegExp(`<path fill="${colour}" d="([^"]*)"`, 'g'))].flatMap((m) => corners(m[1]!.split(/(?=M)/), (x, y) => [x, y]));
        const mine = linesOf(layout)
          .filter((l) => l.colour === colour)
          .flatMap((l) =>
            l.glyphs.flatMap((g) => {
              const scale = l.size / g.font.unitsPerEm;
              return corners(g.font.hb.glyphToPath(g.glyph).split(/(?=M)/), (x, y) => [g.x + x * scale, g.y - y * scale]);
            }),
          );
        expect(mine.length).toBeGreaterThan(0);
        expect(theirs.length).toBeGreaterThanOrEqual(mine.length);
        for (const [i, [x, y]] of mine.entries()) {
          expect(Math.abs(x - theirs[i]![0]), `${colour}: outline ${i} x`).toBeLessThan(0.2);
          expect(Math.abs(y - theirs[i]![1]), `${colour}: outline ${i} y`).toBeLessThan(0.2);
        }
      }
    },
  );

  it.each(Object.entries(CARDS))('%s: the pixels of resvg drawing the whole card, but for letters placed to a quarter pixel', async (_, c) => {
    const layout = await cardLayout(c);
    const png = await drawCard(c, files);
    const drawn = await sharp(png).raw().toBuffer();
    const reference = await sharp(await referencePixels(c, files), { raw: { width: 1200, height: 630, channels: 4 } })
      .removeAlpha()
      .raw()
      .toBuffer();
    const found = apart(
      drawn,
      reference,
      [layout.boxes.photo, layout.boxes.logo].filter((b) => b !== undefined),
    );
    // Measured on these cards: letters mean ≤ 0.20, max 77 of 255 at a few edge pixels (satori rounds
    // outlines to 0.1 px, letters here sit at the nearest quarter pixel), ≤ 0.19 % of pixels over 32;
    // pictures (sharp's resize against resvg's, a logo at a whole pixel where satori centres it at a
    // third: a 3:2 logo's top and bottom edge) mean ≤ 3.4. A line 3 px lower, or broken at another
    // word, is far over these.
    expect(found.text!.mean, 'letters: mean').toBeLessThan(0.25);
    expect(found.text!.max, 'letters: largest').toBeLessThan(110);
    expect(found.text!.over32, 'letters: share of pixels more than 32 apart').toBeLessThan(0.0025);
    expect(found.pictures!.mean, 'photo and logo: mean').toBeLessThan(4);
  });

  it('would see a line 3 px lower: the same comparison of a card with its letters moved fails', async () => {
    const c = CARDS.cyrillic!;
    const drawn = await sharp(await drawCard(c, files))
      .raw()
      .toBuffer();
    const lower = Buffer.from(drawn);
    drawn.copy(lower, 3 * 1200 * 3, 150 * 1200 * 3, 600 * 1200 * 3);
    const reference = await sharp(await referencePixels(c, files), { raw: { width: 1200, height: 630, channels: 4 } })
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(apart(lower, reference, []).text!.mean).toBeGreaterThan(0.25);
  });

  it('writes a card named .jpg (one with a photo) as a JPEG of the same drawing, a fraction of its PNG', async () => {
    // A photo's grain (a camera's photo is no flat colour): what makes its card's PNG large.
    const grainy = await sharp({ create: { width: 800, height: 533, channels: 3, background: '#3a7', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
      .blur(0.8)
      .jpeg()
      .toBuffer();
    const c = { ...CARDS['three lines, photo and logo']!, photo: 'images/grainy.jpg' };
    const withGrain = (path: string) => (path.includes('grainy') ? grainy : files(path));
    const [png, jpeg] = await Promise.all([drawCard(c, withGrain), drawCard({ ...c, file: 'cards/x.jpg' }, withGrain)]);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630, chromaSubsampling: '4:4:4' });
    const [a, b] = await Promise.all([png, jpeg].map((f) => sharp(f).raw().toBuffer()));
    let sum = 0;
    for (let i = 0; i < a!.length; i++) sum += Math.abs(a![i]! - b![i]!);
    expect(sum / a!.length).toBeLessThan(1.5);
    expect(jpeg.length).toBeLessThan(png.length / 4);
  });

  it('writes a PNG whose data inflates, Adler-32 checked, to its rows: the bands a card redraws and those of its ground make one zlib stream', async () => {
    const png = await drawCard(CARDS.umlauts!, files);
    const chunks: Buffer[] = [];
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at);
      if (png.toString('latin1', at + 4, at + 8) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
      at += 12 + length;
    }
    const rows = inflateSync(Buffer.concat(chunks)); // throws on a wrong checksum
    expect(rows.length).toBe(630 * (1200 * 3 + 1));
    expect(await sharp(png).metadata()).toMatchObject({ width: 1200, height: 630, channels: 3 });
  });
});
