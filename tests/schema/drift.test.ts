import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaFileText } from '../../cli/schema/json-schema.ts';
import { CONTENT_TYPE_NAMES, schemaFileName } from '../../cli/schema/layout.ts';
import { ROOT } from '../helpers/cli.ts';

describe('schemas/', () => {
  it.each(CONTENT_TYPE_NAMES)('%s.schema.json equals what the zod source generates (run "npm run schemas" after changing a shape)', (type) => {
    const committed = readFileSync(join(ROOT, 'schemas', schemaFileName(type)), 'utf8');
    expect(committed).toBe(schemaFileText(type));
  });

  it('rejects unknown keys everywhere (additionalProperties: false on every object)', () => {
    for (const type of CONTENT_TYPE_NAMES) {
      const walk = (node: unknown, at: string) => {
        if (!node || typeof node !== 'object') return;
        const n = node as Record<string, unknown>;
        if (n.type === 'object' && n.properties) expect(n.additionalProperties, `${type} ${at}`).toBe(false);
        for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
      };
      walk(JSON.parse(readFileSync(join(ROOT, 'schemas', schemaFileName(type)), 'utf8')), '#');
    }
  });
});
