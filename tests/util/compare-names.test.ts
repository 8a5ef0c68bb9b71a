import { describe, expect, it } from 'vitest';
import { compareNames } from '../../cli/util/compare-names.ts';

/** A small deterministic generator (mulberry32), so a failure can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

describe('compareNames', () => {
  it('orders printable ASCII names as English collation does (localeCompare)', () => {
    const next = random(13);
    const pick = (set: string, n: number) => Array.from({ length: n }, () => set[Math.floor(next() * set.length)]).join('');
    for (let i = 0; i < 100_000; i++) {
      const set = i % 2 ? PRINTABLE : 'aAbB_-./1z';
      const a = pick(set, 1 + Math.floor(next() * 6));
      // Some pairs share a start, some differ only in case: where case and length decide.
      const b =
        i % 5 === 0
          ? [...a].map((c) => (next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('')
          : i % 3 === 0
            ? a.slice(0, Math.floor(next() * a.length)) + pick(set, Math.floor(next() * 3))
            : pick(set, 1 + Math.floor(next() * 6));
      expect([a, b, Math.sign(compareNames(a, b))]).toEqual([a, b, Math.sign(a.localeCompare(b, 'en'))]);
    }
  });

  it('sorts file names and keys as before', () => {
    const names = [
      'courses/vocal.yaml',
      'courses/Vocal.yaml',
      'courses.yaml',
      'courses/a-b.yaml',
      'courses/a_b.yaml',
      'courses/ab.yaml',
      'site.yaml',
      'ui.yaml',
      'courses/a1.yaml',
    ];
    expect([...names].sort(compareNames)).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('leaves names with other characters to localeCompare', () => {
    for (const [a, b] of [
      ['kurs-ö', 'kurs-o'],
      ['a\tb', 'a b'],
      ['Жанр', 'жанр'],
    ] as const)
      expect(Math.sign(compareNames(a, b))).toBe(Math.sign(a.localeCompare(b)));
  });
});

describe('compareNames, whoever runs it', () => {
  it('gives the same order under a Danish or Swedish locale, where "aa" sorts after "z"', async () => {
    const { execFileSync } = await import('node:child_process');
    const names = ['chess', 'aa-x', 'ab', 'zz', 'Äpfel', 'apfel', 'Øre', 'oe', 'курс', 'Ёлка', 'елка'];
    const module = `${import.meta.dirname}/../../cli/util/compare-names.ts`;
    const script = `import(${JSON.stringify(module)}).then(({ compareNames }) => console.log(JSON.stringify(${JSON.stringify(names)}.sort(compareNames))))`;
    const here = [...names].sort(compareNames);
    for (const locale of ['da_DK.UTF-8', 'sv_SE.UTF-8', 'C.UTF-8']) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
        env: { ...process.env, LANG: locale, LC_ALL: locale },
        encoding: 'utf8',
      });
      expect([locale, JSON.parse(out)]).toEqual([locale, here]);
    }
    // Under da_DK, the machine's own collation would put "aa-x" last.
    expect(here.indexOf('aa-x')).toBeLessThan(here.indexOf('chess'));
  });
});
