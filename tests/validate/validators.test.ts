import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileValidators, getValidators, VALIDATORS_FILE } from '../../cli/validate/validators.ts';
import { ROOT } from '../helpers/cli.ts';

describe('schemas/validators.cjs', () => {
  it('is what the schemas compile to (run "npm run schemas" after changing a shape, or after upgrading ajv)', () => {
    expect(readFileSync(join(ROOT, 'schemas', VALIDATORS_FILE), 'utf8') === compileValidators()).toBe(true);
  });

  it('asks no text for a minimum length above 1 (the compiled code counts UTF-16 units, not characters)', () => {
    const compiled = readFileSync(join(ROOT, 'schemas', VALIDATORS_FILE), 'utf8');
    const minimums = new Set([...compiled.matchAll(/minLength:(\d+)/g)].map((m) => m[1]));
    expect([...minimums]).toEqual(['1']);
  });

  it('is what validation uses', () => {
    expect(getValidators()).toBe(createRequire(import.meta.url)(join(ROOT, 'schemas', VALIDATORS_FILE)));
  });
});
