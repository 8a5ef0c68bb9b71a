import { LOCALES } from '../locales.ts';
import { expectedOf, type Fix, foundOf, hintOf, type Problem } from '../report/problem.ts';
import type { ProblemCode } from '../report/problems.ts';

/** Makes a problem at a place; where the message's wording is one of the code's variants, its name goes in `extra.variant`. */
export type At = (
  code: ProblemCode,
  line: number,
  column: number,
  vars?: Record<string, string | number>,
  extra?: Partial<Problem> & { variant?: string },
) => Problem;

/**
 * Mistakes in the text after "key: " that the yaml parser cannot read, named as the editor made them:
 * a quote or apostrophe inside a quoted text, a block sign ("|", ">") or a Telegram quote's "> " pasted
 * in front of a text, two entries on one line, a colon or special character in a text without quotes,
 * a text's next line pasted at the margin. Each fix keeps every word the editor wrote, with its meaning.
 */

/** What YAML makes of a plain text's first character. */
const SPECIAL_START: Record<string, string> = {
  '*': 'a reference to an anchor (an alias)',
  '&': 'the name of an anchor',
  '!': 'a type tag',
  '%': 'a directive',
  '@': 'a reserved character',
  '`': 'a reserved character',
  '|': 'the start of a block of several lines',
  '>': 'the start of a block of several lines',
};

/** `key: value` (or `- key: value`), the value not yet cut at a comment. */
const KEY_VALUE = /^( *(?:- +)?)([^\s#'"[\]{}:-][^:#]*?|-[^\s:#][^:#]*?):( +)(\S.*)$/;
/** Keys that name a language: the site's, and those of a course's teaching languages (uk). */
const LANGUAGE_KEYS = new Set<string>([...LOCALES, 'uk']);
const indentOf = (l: string) => /^ */.exec(l)![0].length;
const blank = (l: string | undefined) => l === undefined || /^\s*(#.*)?$/.test(l);
const fix = (line: number, column: number, endColumn: number, text: string): Fix[] => [{ line, column, endColumn, text }];

/** A plain value up to a comment (" #"). */
export const plainValue = (v: string) => v.replace(/\s+#.*$/, '').replace(/\s+$/, '');
export const quoted = (v: string) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
/** A long text in a hint: its start, then "…" (the fix carries all of it). */
export const shorten = (v: string) => (v.length > 50 ? `${v.slice(0, 40)}…` : v);

/** The mistake in the value of the `key: value` line `n`, if it has one of those named here. */
export function textMistake(l: string, n: number, src: string[], at: At): Problem | undefined {
  const m = KEY_VALUE.exec(l);
  if (!m) return undefined;
  const [, lead, key, gap, rest] = m as unknown as [string, string, string, string, string];
  const column = lead.length + key.length + 1 + gap.length + 1;
  if (rest[0] === '"' || rest[0] === "'") return quoteInQuotes(rest, key.trim(), n, column, at);
  const value = plainValue(rest);
  const name = key.trim();
  const first = value[0]!;
  if ('[{'.includes(first)) return undefined;
  const quoteFix = { fix: fix(n, column, column + value.length, quoted(value)), endLine: n, endColumn: column + value.length };
  // "| Piano lessons", "> Да, …" (a Telegram quote): a sign in front of the text, not a block of lines.
  const sign = /^([|>])[-+0-9]* +(?=[^\s#])/.exec(value);
  if (sign) {
    const text = value.slice(sign[0].length);
    return at(
      'yaml-block-sign',
      n,
      column,
      { char: sign[1]!, fixed: `${name}: ${shorten(text)}` },
      {
        endLine: n,
        endColumn: column + sign[0].length,
        expected: expectedOf('yaml-block-sign', 'text', {}),
        found: foundOf('yaml-block-sign', 'sign', { char: sign[1]! }),
        fix: fix(n, column, column + sign[0].length, ''),
      },
    );
  }
  const meaning = SPECIAL_START[first];
  // "*name" alone is an alias; "**bold**" or "*word* more" is a text.
  if (meaning && !(first === '*' && /^\*[\w-]+$/.test(value)) && !(first === '&' && /^&[\w-]+ *$/.test(value)))
    return at(
      'yaml-starts-with-special',
      n,
      column,
      { char: first, meaning, fixed: `${name}: ${quoted(shorten(value))}` },
      { expected: expectedOf('yaml-starts-with-special', 'quoted', {}), found: foundOf('yaml-starts-with-special', 'start', { char: first }), ...quoteFix },
    );
  const second = secondEntry(value, name, lead.length, n, src);
  if (second) {
    const cut = column + second.index;
    const keyColumn = lead.length;
    return at(
      'yaml-two-entries-on-one-line',
      n,
      cut + second.gap,
      { key: name, other: second.key },
      {
        endLine: n,
        endColumn: cut + second.gap + second.key.length + 1,
        expected: expectedOf('yaml-two-entries-on-one-line', 'ownLine', { other: second.key }),
        found: foundOf('yaml-two-entries-on-one-line', 'sameLine', { key: name, other: second.key }),
        fix: fix(n, cut, cut + second.gap, `\n${' '.repeat(keyColumn)}`),
      },
    );
  }
  if (/:(\s|$)/.test(value))
    return at(
      'yaml-colon-in-text',
      n,
      column,
      { key: name, fixed: `${name}: ${quoted(shorten(value))}` },
      { expected: expectedOf('yaml-colon-in-text', 'quoted', {}), found: foundOf('yaml-colon-in-text', 'colon', {}), ...quoteFix },
    );
  return undefined;
}

/**
 * " en: Choir" inside the text of "ru:": another key of the same mapping (a language beside a language, or a
 * key written at this key's column on the lines around), so the line break between two entries was lost.
 */
function secondEntry(value: string, key: string, keyColumn: number, n: number, src: string[]): { index: number; gap: number; key: string } | undefined {
  const found = /( +)([A-Za-z][\w-]*):( |$)/.exec(value);
  if (!found) return undefined;
  const other = found[2]!;
  const siblings = LANGUAGE_KEYS.has(key) ? LANGUAGE_KEYS : keysAround(n, keyColumn, src);
  if (!siblings.has(other) || other === key) return undefined;
  return { index: found.index, gap: found[1]!.length, key: other };
}

/** The keys written at `column` in the mapping line `n` is in (the lines above and below it, up to one less indented). */
function keysAround(n: number, column: number, src: string[]): Set<string> {
  const keys = new Set<string>();
  for (const step of [-1, 1])
    for (let k = n + step; k >= 1 && k <= src.length; k += step) {
      const l = src[k - 1]!;
      if (blank(l)) continue;
      const i = indentOf(l);
      const m = /^( *(?:- +)?)([A-Za-z][\w-]*):( |$)/.exec(l);
      if (m && m[1]!.length === column) keys.add(m[2]!);
      if (i < column || (i === column && l[i] === '-')) break;
    }
  return keys;
}

/**
 * A text in quotes with the same quote inside it ('It's', "Курс "Вокал""): YAML ends the text at the inner
 * quote. The fix doubles an apostrophe inside single quotes and escapes a quote inside double ones.
 */
function quoteInQuotes(value: string, key: string, n: number, column: number, at: At): Problem | undefined {
  const q = value[0]!;
  const body = value.slice(1);
  // Where YAML ends the text, and where the editor did: the last quote of the line, before a comment.
  const close = q === "'" ? /^(?:[^']|'')*'/.exec(body) : /^(?:[^"\\]|\\.)*"/.exec(body);
  if (!close) return undefined;
  const after = body.slice(close[0].length);
  if (/^\s*(#.*)?$/.test(after)) return undefined;
  const last = body.replace(/\s+#[^'"]*$/, '').trimEnd();
  if (!last.endsWith(q)) return undefined;
  const inner = last.slice(0, -1);
  const fixedInner = q === "'" ? inner.replace(/''|'/g, "''") : inner.replace(/\\.|"/g, (s) => (s === '"' ? '\\"' : s));
  const word = /[^\s'"]*$/.exec(close[0].slice(0, -1))![0] + q + /^[^\s'"]*/.exec(after)![0];
  const kind = q === "'" ? 'apostrophe' : 'quote';
  const fixed = `${key}: ${q}${shorten(fixedInner)}${q}`;
  return at(
    'yaml-quote-in-quoted-text',
    n,
    column + 1 + close[0].length - 1,
    { found: word, fixed },
    {
      variant: kind === 'apostrophe' ? 'apostrophe' : undefined,
      endLine: n,
      endColumn: column + 1 + close[0].length,
      expected: expectedOf('yaml-quote-in-quoted-text', kind, {}),
      found: `"${word}"`,
      ...(kind === 'apostrophe' && { hint: hintOf('yaml-quote-in-quoted-text', { fixed }, 'apostrophe') }),
      fix: fix(n, column + 1, column + 1 + inner.length, fixedInner),
    },
  );
}

/**
 * A line of several words, without a colon, at or left of the key of the plain text on the line above:
 * the text went on to a new line pasted at the margin, which YAML reads as a new key. The fix indents it
 * under the text it continues (the text then reads as one, with a space where the line break was).
 */
export function continuedAtMargin(n: number, src: string[], at: At): Problem | undefined {
  const l = src[n - 1]!;
  const indent = indentOf(l);
  const words = l.trim();
  if (!words || /^[-#'"[{|>?]/.test(words) || /:(\s|$)/.test(words) || !/\s/.test(words)) return undefined;
  let p = n - 1;
  while (p > 0 && src[p - 1]!.trim() === '') p--;
  const prev = KEY_VALUE.exec(src[p - 1] ?? '');
  if (!prev) return undefined;
  const [, lead, key, gap, rest] = prev as unknown as [string, string, string, string, string];
  const keyColumn = lead.length;
  if (indent > keyColumn || /^["'[{|>&*!%@`]/.test(rest) || /\s#/.test(rest)) return undefined;
  // "en Singing lessons": a key of this mapping without its colon, not a continued text.
  const firstWord = words.split(/\s/)[0]!;
  if ((LANGUAGE_KEYS.has(key.trim()) && LANGUAGE_KEYS.has(firstWord)) || keysAround(p, keyColumn, src).has(firstWord)) return undefined;
  const valueColumn = lead.length + key.length + 1 + gap.length;
  return at(
    'yaml-text-continued-at-margin',
    n,
    indent + 1,
    { key: key.trim(), line: p },
    {
      endLine: n,
      endColumn: l.length + 1,
      expected: expectedOf('yaml-text-continued-at-margin', 'indented', { column: valueColumn + 1 }),
      found: foundOf('yaml-text-continued-at-margin', 'column', { column: indent + 1 }),
      fix: fix(n, 1, indent + 1, ' '.repeat(valueColumn)),
    },
  );
}
