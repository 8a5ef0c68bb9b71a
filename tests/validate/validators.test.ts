import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileValidators, generatedSchemaTexts, installValidators } from '../../cli/validate/install-validators.ts';
import { compileWithAjv, getValidators } from '../../cli/validate/validators.ts';
import { installedValidatorsFile } from '../../cli/validate/validators-file.ts';
import { FIXTURE, ROOT } from '../helpers/cli.ts';

describe('the installed validators (beside the CLI bundle of these sources)', () => {
  it('are what the zod shapes compile to', () => {
    expect(readFileSync(installValidators(), 'utf8') === compileValidators()).toBe(true);
  });

  it('are compiled from the zod shapes, which generate what schemas/ holds for the editors', () => {
    const committed = readdirSync(join(ROOT, 'schemas')).filter((n) => n.endsWith('.schema.json'));
    expect(generatedSchemaTexts().sort()).toEqual(committed.map((n) => readFileSync(join(ROOT, 'schemas', n), 'utf8')).sort());
  });

  it('ask no text for a minimum length above 1 (the compiled code counts UTF-16 units, not characters)', () => {
    const compiled = readFileSync(installValidators(), 'utf8');
    const minimums = new Set([...compiled.matchAll(/minLength:(\d+)/g)].map((m) => m[1]));
    expect([...minimums]).toEqual(['1']);
  });

  it('have only patterns that mean the same with and without the u flag (they are compiled without it)', () => {
    const patterns = new Set<string>();
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) key === 'pattern' && typeof value === 'string' ? patterns.add(value) : collect(value);
    };
    for (const text of generatedSchemaTexts()) collect(JSON.parse(text));
    expect(patterns.size).toBeGreaterThan(5);
    for (const pattern of patterns) {
      // Outside escapes and classes, a `.` matches half a character without the flag.
      const bare = pattern.replace(/\\./g, '').replace(/\[(?:[^\]\\]|\\.)*\]/g, '');
      expect(bare, pattern).not.toContain('.');
      // Property classes and code point escapes need the flag; characters beyond the Basic Multilingual Plane are two units without it.
      expect(pattern, pattern).not.toMatch(/\\[pP]\{|\\u\{|[\uD800-\uDFFF]/);
      for (const text of ['', 'Занятие <b>', 'a😀b', '\uD83D', 'x\u2028y'])
        expect(new RegExp(pattern).test(text), `${pattern} on ${JSON.stringify(text)}`).toBe(new RegExp(pattern, 'u').test(text));
    }
  });

  it('are what validation uses', () => {
    expect(getValidators()).toBe(createRequire(import.meta.url)(installedValidatorsFile()));
  });

  it('find what ajv compiling the schemas in the run finds (the reference), error for error', () => {
    const shipped = getValidators();
    const reference = compileWithAjv(generatedSchemaTexts());
    const files = readdirSync(FIXTURE, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
    const datas = files.map((f) => parse(readFileSync(join(FIXTURE, f), 'utf8')) as unknown);
    // Each file against every schema (most against the wrong one: many errors), and some broken at the root.
    datas.push(null, 42, 'text', [], { title: { ru: '' } }, { ...(datas[0] as object), extra: { de: 1 } });
    let errors = 0;
    for (const name of Object.keys(reference) as (keyof typeof reference)[])
      for (const data of datas) {
        const ok = shipped[name](data);
        expect(ok, name).toBe(reference[name](data));
        expect(shipped[name].errors ?? null, name).toEqual(reference[name].errors ?? null);
        errors += shipped[name].errors?.length ?? 0;
      }
    expect(errors).toBeGreaterThan(100);
  });
});
