/**
 * YAML 1.2's core schema as `yaml` resolves plain scalars, for the plain reader (yaml-plain.ts).
 * Tried in this order; a plain scalar none of them matches is a string.
 */
export const CORE_SCALARS: readonly { tag: string; test: RegExp; construct: (s: string) => unknown }[] = [
  { tag: 'null', test: /^(?:~|null|Null|NULL)?$/, construct: () => null },
  { tag: 'bool', test: /^(?:true|True|TRUE|false|False|FALSE)$/, construct: (s) => s[0] === 't' || s[0] === 'T' },
  {
    tag: 'int',
    test: /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/,
    construct: (s) => (s.startsWith('0o') ? Number.parseInt(s.slice(2), 8) : s.startsWith('0x') ? Number.parseInt(s.slice(2), 16) : Number.parseInt(s, 10)),
  },
  {
    tag: 'float',
    test: /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
    construct: (s) =>
      /inf$/i.test(s) ? (s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY) : /nan$/i.test(s) ? Number.NaN : Number.parseFloat(s),
  },
];

/** Only these can start a scalar of the schema above (by character code); any other first character makes a string. */
const MAY_RESOLVE = new Uint8Array(128);
for (const c of '-+.0123456789~nNtTfF') MAY_RESOLVE[c.charCodeAt(0)] = 1;

/** A scalar of the schema above that starts with a letter or "~" is one of its words: null, true, false (five characters at most). */
const LONGEST_WORD = 5;

/** The value of a plain (unquoted) scalar. */
export function resolvePlainScalar(s: string): unknown {
  const first = s.charCodeAt(0);
  if (s !== '' && (first >= 128 || MAY_RESOLVE[first] === 0)) return s;
  // "The teacher…": a text, not a word of the schema (no pattern tried on it).
  if (first >= 65 && s.length > LONGEST_WORD) return s;
  for (const type of CORE_SCALARS) if (type.test.test(s)) return type.construct(s);
  return s;
}
