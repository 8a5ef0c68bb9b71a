import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { quickParse } from '../../cli/validate/yaml-quick.ts';
import { FIXTURE, ROOT } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

/** What the full parser makes of a text (undefined when it reports any problem). */
function full(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: false });
  return doc.errors.length || doc.warnings.length ? undefined : doc.toJS({ maxAliasCount: 100 });
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));

const SCALARS = [
  '010',
  '0o17',
  '0x1F',
  '1_000',
  '.inf',
  '-.Inf',
  '.NaN',
  '~',
  'null',
  'Null',
  'NULL',
  'True',
  'TRUE',
  'false',
  'yes',
  'no',
  'on',
  'off',
  '1e3',
  '+12',
  '-0',
  '0.5',
  '.5',
  '2026-11-22',
  '2026-11-22T10:00:00Z',
  '12:30',
  '1:20:30',
  "'quoted: yes'",
  '"esc \\u00e9 \\n"',
  'Malen & Basteln',
  'a #not comment',
  'text # comment',
  '"# hash"',
  '[a, b, 1]',
  '{a: 1, b: [x]}',
  '>-\n  folded\n  text',
  '|+\n  literal\n\n',
  '',
  'TODO: later',
];

describe('the quick YAML path', () => {
  it('reads every file it accepts exactly as the full parser does: shipped content, fixtures, synthetic courses, tricky scalars', () => {
    const syn = syntheticContent(20);
    try {
      const files = [...yamlFiles(join(ROOT, 'tests/fixtures')), ...yamlFiles(syn.dir)];
      const texts = [...files.map((f) => readFileSync(f, 'utf8')), ...SCALARS.map((s) => `key: ${s}\nother:\n  - ${s.split('\n')[0]}\n`)];
      let quick = 0;
      for (const text of texts) {
        const q = quickParse(text);
        if (!q) continue;
        quick++;
        expect(q.data, text.slice(0, 200)).toEqual(full(text));
      }
      // Most content takes the quick path; it is not a path nothing takes.
      expect(quick).toBeGreaterThan(texts.length / 2);
    } finally {
      syn.cleanup();
    }
  });

  it('leaves to the full parser what it must report: duplicate keys, tabs, anchors, several documents, bad indentation', () => {
    for (const text of [
      'a: 1\na: 2\n',
      'a:\n\t- 1\n',
      'a: &x 1\nb: *x\n',
      'a: 1\n---\nb: 2\n',
      'a:\n  b: 1\n c: 2\n',
      'a: !!str 1\n',
      '? [a]\n: 1\n',
      'a: "unclosed\n',
    ])
      expect(quickParse(text), text).toBeUndefined();
  });

  it('is what validation uses for the (frozen copy of the) shipped content', () => {
    expect(yamlFiles(FIXTURE).filter((f) => quickParse(readFileSync(f, 'utf8'))).length).toBeGreaterThan(20);
  });
});
