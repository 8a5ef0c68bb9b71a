import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBLEMS, type ProblemDefinition, SERVER_CODES } from '../../cli/report/problems.ts';
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

  it("is the only place a problem's message is written (the code that reports one fills in the catalogue's words)", () => {
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
    const files = [...sources('cli/validate'), ...sources('cli/i18n'), ...sources('cli/report'), 'cli/commands/validate.ts', 'cli/commands/i18n.ts'];
    const written: string[] = [];
    for (const file of files.filter((f) => f !== 'cli/report/problems.ts')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\bmessage:\s*(['"`])/g)) written.push(`${file}:${text.slice(0, m.index).split('\n').length}`);
      // A hint is taken from the catalogue too (hintOf, or a "did you mean" from SUGGESTIONS); only a
      // hint made from parts (`${…}`) is put together where the parts are known.
      for (const m of text.matchAll(/\bhint:\s*(['"]|`[^$])/g)) written.push(`${file}:${text.slice(0, m.index).split('\n').length} (hint)`);
    }
    expect(written).toEqual([]);
  });

  it('has variants that read as sentences too', () => {
    for (const [code, def] of Object.entries(PROBLEMS) as [string, ProblemDefinition][])
      for (const text of [...Object.values(def.variants ?? {}), ...Object.values(def.hints ?? {})]) {
        expect(text, code).toMatch(/^([A-Z"{]|\{\{)/);
        expect(text, code).toMatch(/(\.|\{\w+\}|\?)$/);
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
