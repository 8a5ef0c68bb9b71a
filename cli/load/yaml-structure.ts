import { expectedOf, type Fix, foundOf, type Problem } from '../report/problem.ts';
import { type At, continuedAtMargin, plainValue, textMistake } from './yaml-text-mistakes.ts';

export type { At };

/**
 * Our own reading of a file the parser refused, for the ways people break YAML: a colon inside a
 * text, a dash or bullet pasted from Word, a bracket left open, a block pasted too deep, spaces
 * that are not spaces, a text that starts with "**". The parser's own diagnosis of these names
 * the wrong line or the wrong fix. The parser stays the judge of whether the file is valid: this
 * runs only when it reported an error, and only says where and what the editor's mistake is.
 */

/** Characters that look like a space, or like nothing, and are not YAML's space. */
const ODD_SPACE = /[\u00a0\u1680\u2000-\u200b\u202f\u205f\u2060\u3000\ufeff]/;
const SPACE_NAMES: Record<string, string> = {
  '\u00a0': 'non-breaking space',
  '\u202f': 'narrow non-breaking space',
  '\u2007': 'figure space',
  '\u200b': 'zero-width space',
  '\u2060': 'word joiner (invisible)',
  '\ufeff': 'byte-order mark (invisible)',
  '\u3000': 'ideographic space',
};
export const spaceName = (c: string) => SPACE_NAMES[c] ?? 'special space';
const hex = (c: string) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/** Dashes and bullets word processors put where YAML wants "- ". */
const BULLETS: Record<string, string> = {
  '–': 'an en dash',
  '—': 'an em dash',
  '‒': 'a figure dash',
  '−': 'a minus sign',
  '‐': 'a hyphen (U+2010)',
  '•': 'a bullet',
  '·': 'a middle dot',
  '▪': 'a square bullet',
  '●': 'a round bullet',
  '◦': 'a white bullet',
};
export const bulletName = (c: string) => BULLETS[c];
const BULLET_LINE = /^( *)([–—‒−‐•·▪●◦])(\s+)/;

const BLOCK_START = /:\s*[|>][-+0-9]*\s*(#.*)?$/;
const indentOf = (l: string) => /^ */.exec(l)![0].length;
const blank = (l: string | undefined) => l === undefined || /^\s*(#.*)?$/.test(l);
const spaces = (n: number) => `${n} space${n === 1 ? '' : 's'}`;

/**
 * The editor's typical mistakes on lines 1 to `upTo`, in the order of the file (all readings of each line). These are
 * guesses: yaml-problems.ts reports one only where it is the cause of the parser's error (its fix, applied,
 * takes that error away, or it stands on the parser's line and that line cannot be read on its own).
 */
export function* structuralMistakes(src: string[], upTo: number, at: At): Generator<Problem> {
  let blockIndent = -1;
  for (let n = 1; n <= Math.min(upTo, src.length); n++) {
    const l = src[n - 1]!;
    // Lines of a "|" or ">" block are text, whatever they look like.
    if (blockIndent >= 0) {
      if (blank(l) || indentOf(l) > blockIndent) continue;
      blockIndent = -1;
    }
    if (BLOCK_START.test(l) && !/["']/.test(l.slice(0, l.indexOf(':')))) blockIndent = indentOf(l);
    if (/^\s*#/.test(l)) continue;
    // Every reading of the line: the first that proves to be the cause is the one reported.
    for (const guess of [
      oddSpace(l, n, at),
      continuedAtMargin(n, src, at),
      badDash(l, n, at),
      unclosedBracket(l, n, at),
      textMistake(l, n, src, at),
      dashWithoutSpace(l, n, src, at),
      pastedTooDeep(n, src, at),
    ])
      if (guess) yield guess;
  }
}

export const fix = (line: number, column: number, endColumn: number, text: string): Fix[] => [{ line, column, endColumn, text }];

function oddSpace(l: string, n: number, at: At): Problem | undefined {
  const lead = /^[ \u00a0\u1680\u2000-\u200b\u202f\u205f\u2060\u3000\ufeff]*/.exec(l)![0];
  let index = lead.search(ODD_SPACE);
  if (index < 0) {
    // Right after a key's colon or a list dash, or inside the key.
    const m = /^( *(?:-[ \u00a0]+)?)([^:#'"]*?):(.?)/.exec(l);
    const key = m?.[2] ?? '';
    const inKey = key.search(ODD_SPACE);
    if (m && inKey >= 0) index = m[1]!.length + inKey;
    else if (m?.[3] && ODD_SPACE.test(m[3])) index = m[0].length - 1;
    else {
      const dash = /^ *-([\u00a0\u202f\u2007])/.exec(l);
      if (dash) index = dash[0].length - 1;
    }
  }
  if (index < 0) return undefined;
  const c = l[index]!;
  const invisible = /[\u200b\u2060\ufeff]/.test(c);
  // In the indentation, all of it becomes spaces; elsewhere the one character.
  const end = invisible ? index + 1 : lead.length > index ? lead.length : index + 1;
  const replacement = invisible ? '' : ' '.repeat(end - index);
  return at(
    'yaml-invisible-character',
    n,
    index + 1,
    { column: index + 1, name: spaceName(c), code: hex(c) },
    {
      endLine: n,
      endColumn: index + 2,
      expected: expectedOf('yaml-invisible-character', invisible ? 'nothing' : 'spaces', {}),
      found: foundOf('yaml-invisible-character', 'char', { name: spaceName(c), code: hex(c) }),
      fix: fix(n, index + 1, end + 1, replacement),
    },
  );
}

function badDash(l: string, n: number, at: At): Problem | undefined {
  const m = BULLET_LINE.exec(l);
  if (!m) return undefined;
  const column = m[1]!.length + 1;
  const fixed = `${m[1]}-${l.slice(column)}`.trim();
  return at(
    'yaml-bad-dash',
    n,
    column,
    { char: m[2]!, name: BULLETS[m[2]!]!, fixed },
    {
      endLine: n,
      endColumn: column + 1,
      expected: expectedOf('yaml-bad-dash', 'dash', {}),
      found: foundOf('yaml-bad-dash', 'char', { char: m[2]!, name: BULLETS[m[2]!]! }),
      fix: fix(n, column, column + 1, '-'),
    },
  );
}

/** "[ru, uk" or "{a: b": more opened than closed, outside quotes. */
function unclosedBracket(l: string, n: number, at: At): Problem | undefined {
  const m = /^( *(?:- +)?(?:[^\s#'"[\]{}][^:#]*?: +)?)([[{])(.*)$/.exec(l);
  if (!m) return undefined;
  const open = m[2]!;
  const close = open === '[' ? ']' : '}';
  const body = plainValue(`${open}${m[3]}`).replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '');
  let depth = 0;
  for (const c of body) depth += c === open ? 1 : c === close ? -1 : 0;
  if (depth <= 0) return undefined;
  const column = m[1]!.length + 1;
  const valueEnd = m[1]!.length + plainValue(`${open}${m[3]}`).length;
  const fixed = `${l.slice(0, valueEnd).trim()}${close.repeat(depth)}`;
  return at(
    'yaml-unclosed-bracket',
    n,
    column,
    { open, close, fixed },
    {
      endLine: n,
      endColumn: column + 1,
      expected: expectedOf('yaml-unclosed-bracket', 'close', { close }),
      found: foundOf('yaml-unclosed-bracket', 'open', {}),
      fix: fix(n, valueEnd + 1, valueEnd + 1, close.repeat(depth)),
    },
  );
}

/** "-vocal-coach" where a list item starts: the dash without its space. */
function dashWithoutSpace(l: string, n: number, src: string[], at: At): Problem | undefined {
  const m = /^( *)-([^\s-].*)$/.exec(l);
  if (!m) return undefined;
  const indent = m[1]!.length;
  let p = n - 1;
  while (p > 0 && blank(src[p - 1])) p--;
  const prev = src[p - 1] ?? '';
  const opensList = /^ *[^\s#-][^#]*:\s*(#.*)?$/.test(prev) && indentOf(prev) <= indent;
  const sibling =
    new RegExp(`^ {${indent}}- `).test(prev) ||
    (indentOf(prev) > indent &&
      /^ *- /.test(
        src
          .slice(0, n - 1)
          .reverse()
          .find((x) => !blank(x) && indentOf(x) <= indent) ?? '',
      ));
  if (!opensList && !sibling) return undefined;
  const fixed = `- ${m[2]!.trim()}`;
  return at(
    'yaml-dash-without-space',
    n,
    indent + 1,
    { found: `-${m[2]!.trim()}`, fixed },
    {
      endLine: n,
      endColumn: indent + 2,
      expected: expectedOf('yaml-dash-without-space', 'dash', {}),
      found: `"-${m[2]!.trim()}"`,
      fix: fix(n, indent + 2, indent + 2, ' '),
    },
  );
}

/**
 * A list item indented deeper than the items of its list, right after the last line of the item
 * before it: the block was pasted with too much indentation. Points at its first line.
 */
function pastedTooDeep(n: number, src: string[], at: At): Problem | undefined {
  const l = src[n - 1]!;
  if (!/^ *- /.test(l)) return undefined;
  const indent = indentOf(l);
  let p = n - 1;
  while (p > 0 && blank(src[p - 1])) p--;
  const prev = src[p - 1];
  // After "key:" a deeper list is a nested list: correct.
  if (prev === undefined || /:\s*(#.*)?$/.test(prev) || /^ *- /.test(prev) || indentOf(prev) < indent) return undefined;
  const first = firstItemTooDeep(n, indent, src, at);
  if (first) return first;
  for (let s = p; s >= 1; s--) {
    const above = src[s - 1]!;
    if (blank(above)) continue;
    const i = indentOf(above);
    // An item before it in the same column, or the key of its list there ("answer:" with "- " under it): in place.
    if (i === indent && (/^ *- /.test(above) || /:\s*(#.*)?$/.test(above))) return undefined;
    if (i < indent && /^ *- /.test(above)) {
      const more = indent - i;
      const edits: Fix[] = [];
      for (let k = n; k <= src.length; k++) {
        const line = src[k - 1]!;
        if (k > n && (blank(line) || indentOf(line) <= indent)) break;
        edits.push({ line: k, column: 1, endColumn: more + 1, text: '' });
      }
      return at(
        'yaml-pasted-too-deep',
        n,
        indent + 1,
        { more: spaces(more), sibling: s, column: i + 1 },
        {
          expected: expectedOf('yaml-pasted-too-deep', 'column', { column: i + 1 }),
          found: foundOf('yaml-pasted-too-deep', 'column', { column: indent + 1 }),
          fix: edits,
        },
      );
    }
    if (i < indent) return undefined;
  }
  return undefined;
}

/**
 * The first item(s) of a list, right under its "key:", indented deeper than the item on line `n` that follows
 * them: the block was pasted with too much indentation at the top of the list. Points at its first line.
 */
function firstItemTooDeep(n: number, indent: number, src: string[], at: At): Problem | undefined {
  let deeper = -1;
  for (let s = n - 1; s >= 1; s--) {
    const above = src[s - 1]!;
    if (blank(above)) continue;
    const i = indentOf(above);
    if (i <= indent) {
      // The key the deeper items were pasted under (its items may stand in its own column); not an item's key.
      if (deeper < 0 || !/:\s*(#.*)?$/.test(above) || /^ *- /.test(above)) return undefined;
      const first = src.findIndex((l, k) => k >= s && !blank(l)) + 1;
      const more = deeper - indent;
      const edits: Fix[] = [];
      for (let k = first; k < n; k++) if (!blank(src[k - 1])) edits.push({ line: k, column: 1, endColumn: more + 1, text: '' });
      return at(
        'yaml-pasted-too-deep',
        first,
        deeper + 1,
        { more: spaces(more), sibling: n, column: indent + 1 },
        {
          variant: 'below',
          expected: expectedOf('yaml-pasted-too-deep', 'column', { column: indent + 1 }),
          found: foundOf('yaml-pasted-too-deep', 'column', { column: deeper + 1 }),
          fix: edits,
        },
      );
    }
    if (/^ *- /.test(above)) {
      if (deeper >= 0 && i !== deeper) return undefined;
      deeper = i;
    } else if (deeper >= 0 && i <= deeper) return undefined;
  }
  return undefined;
}
