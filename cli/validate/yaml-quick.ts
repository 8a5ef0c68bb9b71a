import { createRequire } from 'node:module';
import type { Schema } from 'js-yaml';
import { CORE_SCALARS } from './yaml-scalars.ts';

const require = createRequire(import.meta.url);
let core: { jsyaml: typeof import('js-yaml'); schema: Schema } | undefined;

/** js-yaml with YAML 1.2's core schema as `yaml` resolves it; loaded on first use (most files never need it). */
function jsYaml(): { jsyaml: typeof import('js-yaml'); schema: Schema } {
  if (core) return core;
  const jsyaml = require('js-yaml') as typeof import('js-yaml');
  const implicit = CORE_SCALARS.map(
    ({ tag, test, construct }) =>
      new jsyaml.Type(`tag:yaml.org,2002:${tag}`, {
        kind: 'scalar',
        // js-yaml asks about an empty node with null: it is the core schema's empty null.
        resolve: (s: string | null) => (s === null ? tag === 'null' : test.test(s)),
        construct: (s: string | null) => construct(s ?? ''),
      }),
  );
  core = { jsyaml, schema: jsyaml.FAILSAFE_SCHEMA.extend({ implicit }) };
  return core;
}

const NOT_PLAIN = /(^|[\s,[{:-])[&*!][^\s,\]}]|^[ \t]*(\?|%|---|\.\.\.)(\s|$)|\t/m;

/**
 * Plain YAML the plain reader (yaml-plain.ts) leaves (flow collections, block scalars, escapes, empty
 * values…) does not need the full parser to get its data either: js-yaml reads it about five times
 * faster, with the same core schema. Anything it refuses, and anything less plain (anchors,
 * aliases, tags, explicit keys, directives, more than one document), goes to `yaml`, which also
 * gives every problem and every position; a file read this way is parsed by `yaml` only if a
 * position in it is asked for.
 */
export function quickParse(text: string): { data: unknown } | undefined {
  if (NOT_PLAIN.test(text)) return undefined;
  const { jsyaml, schema } = jsYaml();
  try {
    const data = jsyaml.load(text, { schema, json: false });
    return data !== null && typeof data === 'object' ? { data } : undefined;
  } catch {
    return undefined;
  }
}
