// How share cards are drawn cheaply (cli/images/share-cards.ts), checked against the plain way.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createElement } from 'react';
import satori from 'satori';
import { describe, expect, it } from 'vitest';
import { CARD_SUBSETS } from '../../cli/images/card-text.ts';
import { cardWorkers, woffToSfnt } from '../../cli/images/share-cards.ts';

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

describe('card workers', () => {
  it("draws on the build's thread where one worker is all the cores allow (it would only add its start-up), and where few cards are to draw", () => {
    expect([1, 2].map((cores) => cardWorkers(10_000, cores))).toEqual([0, 0]);
    expect(cardWorkers(10, 8)).toBe(0);
    expect([3, 4, 8, 64].map((cores) => cardWorkers(500, cores))).toEqual([2, 3, 4, 4]);
  });
});
