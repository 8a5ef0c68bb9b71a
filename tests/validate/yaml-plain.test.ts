import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { locateInDocument } from '../../cli/load/yaml-full.ts';
import { locatePlain, readPlainYaml } from '../../cli/load/yaml-plain.ts';
import { ROOT } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

// The plain reader (cli/load/yaml-plain.ts) stands in for `yaml` on clean files: whatever it
// accepts it must read exactly as `yaml` does (same data, and `yaml` finds nothing wrong), and
// locate every path where `yaml` locates it. Held to that on real files and on thousands of files
// mutated the way editors break them.

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));

/** Deep equality with Object.is at the leaves (-0, NaN), and the same key order. */
function same(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Every path into `data`, and one step past each (a missing key, an item out of range). */
function paths(data: unknown, path: (string | number)[] = []): (string | number)[][] {
  const out = [path, [...path, 'missing'], [...path, 99]];
  if (Array.isArray(data))
    data.forEach((v, i) => {
      out.push(...paths(v, [...path, i]));
    });
  else if (data && typeof data === 'object') for (const [k, v] of Object.entries(data)) out.push(...paths(v, [...path, k]));
  return out;
}

/** Checks one text; returns whether the plain reader accepted it. */
function agrees(text: string): boolean {
  const plain = readPlainYaml(text);
  if (!plain) return false;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  const report = (what: string) => `${what}:\n${text}`;
  expect(doc.errors.map(String), report('yaml finds errors in a text the plain reader accepted')).toEqual([]);
  expect(doc.warnings.map(String), report('yaml warns about a text the plain reader accepted')).toEqual([]);
  expect(same(plain.data, doc.toJS()), report('the plain reader reads other data than yaml')).toBe(true);
  for (const path of paths(plain.data))
    for (const key of [false, true]) {
      const found = locatePlain(plain.outline, plain.data, path, key);
      if (found) expect(found, report(`${JSON.stringify(path)} key=${key}`)).toEqual(locateInDocument({ doc, lines }, path, key));
    }
  return true;
}

/** A seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SNIPPETS = [
  ' ',
  '  ',
  ':',
  ': ',
  '-',
  '- ',
  '#',
  ' #',
  '"',
  "'",
  "''",
  '\\',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a ',
  '*a',
  '!',
  '|',
  '>',
  '?',
  '%',
  '@',
  '`',
  '~',
  'x',
  'null',
  '0x1F',
  '1_0',
  '.5',
  '-0',
  'TODO: x',
  '\n',
  '\n  ',
  '\n\n',
  '\t',
  '\r',
  '---',
  '...',
  '\u00a0',
  '\u2028',
  'é',
];

/** One of the ways editors break a file: a character or snippet inserted or removed, a line moved left or right, lines joined, split, doubled or dropped. */
function mutate(text: string, next: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const lines = text.split('\n');
  const n = Math.floor(next() * lines.length);
  const line = lines[n]!;
  const at = Math.floor(next() * (line.length + 1));
  switch (Math.floor(next() * 7)) {
    case 0:
      lines[n] = line.slice(0, at) + pick(SNIPPETS) + line.slice(at);
      break;
    case 1:
      lines[n] = line.slice(0, at) + line.slice(at + 1 + Math.floor(next() * 3));
      break;
    case 2:
      lines[n] = next() < 0.5 ? ` ${line}` : line.replace(/^ {1,2}/, '');
      break;
    case 3:
      lines.splice(n, 2, `${line} ${(lines[n + 1] ?? '').trimStart()}`);
      break;
    case 4:
      lines.splice(n, 1, line.slice(0, at), ' '.repeat(Math.floor(next() * 8)) + line.slice(at));
      break;
    case 5:
      lines.splice(n, 0, line);
      break;
    default:
      lines.splice(n, 1);
  }
  return lines.join('\n');
}

describe('the plain YAML reader', () => {
  const syn = syntheticContent(5);
  const files = [...yamlFiles(join(ROOT, 'tests/fixtures')), ...yamlFiles(syn.dir)];
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  syn.cleanup();

  it('reads the fixtures (the frozen content and the editing corpus) and synthetic courses exactly as yaml does, and locates every path as yaml does', () => {
    const left = files.filter((_, i) => !agrees(texts[i]!)).map((f) => f.slice(f.lastIndexOf('/') + 1));
    // It is what reads the content files, translations.yaml included (validate checks it on every run); left to
    // `yaml`: the fixture corpus (flow lists) and a synthetic file with aliases.
    expect(left.sort()).toEqual(['editing.yaml', 'legal.yaml']);
  });

  it('accepts only what yaml reads the same way, however the files are broken (2,000 seeded mutations)', () => {
    const next = random(20261124);
    const courses = texts.filter((t) => t.length < 8000);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      let text = courses[Math.floor(next() * courses.length)]!;
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) text = mutate(text, next);
      if (agrees(text)) accepted++;
    }
    // Harmless mutations (a changed letter, a doubled comment) are accepted; the rest are left to the full parser.
    expect(accepted).toBeGreaterThan(200);
    expect(accepted).toBeLessThan(1900);
  });

  it('leaves to `yaml` what is not plain block YAML', () => {
    for (const text of [
      'a: 1\na: 2\n',
      'a:\n  b: 1\n c: 2\n',
      'a: [1, 2]\n',
      'a: {b: 1}\n',
      'a: [ ]\n',
      'a: []x\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: |\n  text\n',
      'a: >\n  text\n',
      'a:\n',
      'a: "esc\\n"\n',
      'a: "open\n  close"\n',
      'a: 1 # c\n  more\n',
      '"a\\n": 1\n',
      '"a" : 1\n',
      '"a":1\n',
      'a:\n  "__proto__": x\n  b: y\n',
      '1e5: x\n',
      '123: x\n',
      '0x1F: x\n',
      'a b: 1\n',
      'true: 1\n',
      '- 1\n',
      'a:\n- - 1\n',
      'a: b: c\n',
      'a: 1\n---\nb: 2\n',
      'a:\r\n  b: 1\r\n',
      'a:\n\tb: 1\n',
    ])
      expect(readPlainYaml(text), text).toBeUndefined();
  });

  it("reads translations.yaml's keys as yaml does: quoted, starting with a digit, with = and * (whatever way editors break them)", () => {
    const shipped = readFileSync(join(ROOT, 'content/translations.yaml'), 'utf8');
    expect(agrees(shipped)).toBe(true);
    const keys = [
      'confirmed:',
      '  de:',
      '    banners.yaml#banners[id=school-prep].cta.label: e3f1df844a',
      '    courses/afc.yaml#features[*]:',
      '      8d962d5479: 6f42147e6f',
      '      "1350182284": 85e580e888',
      '      "533853e498": d4dff1dc05',
      '      "12": x',
      '    courses/afc.yaml#teachers[*]:',
      '      "x0": a1',
      '      "true": t1',
      '      1_0: b2',
      '      "a b #c": c3',
      '',
    ].join('\n');
    expect(agrees(keys)).toBe(true);
    // JavaScript puts "1350182284" first among its keys: such a mapping is located by yaml, never misplaced.
    const plain = readPlainYaml(keys)!;
    expect(Object.keys((plain.data as { confirmed: { de: Record<string, Record<string, string>> } }).confirmed.de['courses/afc.yaml#features[*]']!)[0]).toBe(
      '12',
    );
    expect(locatePlain(plain.outline, plain.data, ['confirmed', 'de', 'courses/afc.yaml#features[*]', '8d962d5479'], true)).toBeUndefined();
    expect(locatePlain(plain.outline, plain.data, ['confirmed', 'de', 'courses/afc.yaml#teachers[*]', 'a b #c'], true)).toEqual({
      line: 13,
      column: 7,
      endLine: 13,
      endColumn: 15,
    });
    const next = random(20261208);
    let accepted = 0;
    for (let i = 0; i < 1000; i++) {
      let text = keys;
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) text = mutate(text, next);
      if (agrees(text)) accepted++;
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it('reads keys met before (kept by a hash of their letters) as their own names, and keeps each line to itself', () => {
    // Thousands of names share the kept slots; some are the start of another or differ in case only.
    const keys = Array.from({ length: 3000 }, (_, i) => `k${i.toString(36)}`).flatMap((k) => [k, `${k}x`, k.toUpperCase()]);
    const file = (entry: (key: string) => string) => (from: number) =>
      `${keys
        .slice(from, from + 30)
        .map(entry)
        .join('\n')}\n`;
    for (const write of [file((k) => `${k}: v`), file((k) => `${k}:\n  ${k}: 1`)])
      for (let i = 0; i < keys.length; i += 30) expect(agrees(write(i))).toBe(true);
    // A comment, a quote or a colon on a later line says nothing about this one.
    for (const text of ['a: one\nb: two # c\n', "a: 'it''s\nb: 'x'\n", 'a: "x\nb: "y"\n', 'a: x\n  y\nb: "q" # c\n', "a: 'x'''\nb: 'y'\n"])
      expect(readPlainYaml(text) === undefined || agrees(text), text).toBe(true);
    expect(agrees('a: one\nb: two # c\n')).toBe(true);
  });
});
