import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBLEMS, SERVER_CODES } from '../../cli/report/problems.ts';
import { ROOT } from '../helpers/cli.ts';

describe('the problem catalogue', () => {
  it.each(Object.entries(PROBLEMS))('%s: a title, and a message and hint that read as sentences', (_, def) => {
    expect(def.title).toMatch(/^[A-Z]/);
    // A sentence: starts with a capital, a quote or a {value}; ends with a full stop (or the value that ends it).
    for (const text of [def.message, def.hint]) {
      expect(text).toMatch(/^([A-Z"{]|\{\{)/);
      expect(text).toMatch(/(\.|\{\w+\}|\?)$/);
      expect(text).not.toMatch(/the text "[^"]*" is not allowed|The value the/);
    }
  });

  it('is where every code the compiler reports comes from (no code written elsewhere)', () => {
    const codes = new Set([...Object.keys(PROBLEMS), ...Object.keys(SERVER_CODES)]);
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
    for (const file of sources('cli')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, code] of text.matchAll(/\bcode: '([a-z0-9-]+)'/g)) expect(codes.has(code!), `${file}: ${code}`).toBe(true);
    }
  });
});
