import type { Position } from '../report/problem.ts';
import { MAX_DEPTH } from './yaml-limits.ts';
import { resolvePlainScalar } from './yaml-scalars.ts';

/**
 * Where each node of a file read by `readPlainYaml` is, in document order, WIDTH numbers a node:
 * the line and column where its value starts and ends (0 for a list or mapping, but for an empty
 * one written [] or {}: those are located by the full parser), the line and column of its key when
 * it is the value of a mapping (0 when not), and how many nodes its subtree has (itself included),
 * to skip over it. 1-based, as shown; the key's column is negative when the key is in quotes.
 */
export type Outline = Int32Array;
const WIDTH = 7;
const [LINE, COLUMN, END_LINE, END_COLUMN, KEY_LINE, KEY_COLUMN, SIZE] = [0, 1, 2, 3, 4, 5, 6];

/** Keys the core schema reads as something other than their text. */
const SPECIAL_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** What may follow a quoted text on its line: spaces, then a comment, then the line's end. */
const REST = / *(?: #[^\n]*)?(?:\n|$)/y;
/** Characters this reader leaves to `yaml`: tabs, CR, control characters, BOM, non-characters, U+2028/9. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const NOT_PLAIN = /[\t\r\x00-\x08\x0B-\x1F\x7F-\x9F\uFEFF\uFFFE\uFFFF\u2028\u2029]/;
/** Characters that start something other than a plain text (flow collection, anchor, tag, alias, block scalar, directive…). */
const INDICATORS = ',[]{}#&*!|>\'"%@`';
/** Whether the character code `c` is one of INDICATORS (by code: `line[i]` of a non-Latin-1 text would be a new string each time). */
const isIndicator = (c: number) => c < 128 && INDICATORS.includes(String.fromCharCode(c));
const GIVE_UP = new Error('not plain YAML');
/** The outline being written (grown as needed, reused: a file's own is a copy of its part). */
let scratch = new Int32Array(WIDTH * 256);
/**
 * Where outlines are kept: a view into a shared block each, not a buffer each (thousands of small
 * buffers cost the garbage collector more than their size). A block goes when its files do.
 */
let block = new Int32Array(0);
let used = 0;
function keep(outline: Int32Array): Outline {
  if (used + outline.length > block.length) {
    block = new Int32Array(Math.max(256 * 1024, outline.length));
    used = 0;
  }
  const kept = block.subarray(used, used + outline.length);
  kept.set(outline);
  used += outline.length;
  return kept;
}

/**
 * Reads content YAML as people and `yaml.stringify` write it: block mappings with plain keys, block
 * lists, and texts on the line of their key or dash, plain (continued on more-indented lines) or
 * quoted on that line, or [] and {}. Anything else (other flow collections, block scalars, anchors,
 * tags, escapes, empty values, comments inside a text, duplicate keys) gives undefined, and the file
 * goes to `yaml`. What it accepts it reads exactly as `yaml` does
 * (tests/validate/yaml-plain.test.ts holds it to that on the content, the fixtures and thousands of
 * mutated files), and it keeps where every text and key is, so a clean file is read and its problems
 * located without loading `yaml` at all (CPU time measured against `yaml` alone: 0.32 for `validate`
 * on the shipped content, 0.57 for a cold build of 3,000 pages).
 */
export function readPlainYaml(text: string): { data: Record<string, unknown>; outline: Outline } | undefined {
  if (NOT_PLAIN.test(text)) return undefined;
  try {
    return new PlainReader(text).document();
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

/** Whether line `line` (its text from `s`, `len` long) has a dash and then a space or its end at column `at`. */
const isDash = (text: string, s: number, len: number, at: number) => text.charCodeAt(s + at) === 45 && (len === at + 1 || text.charCodeAt(s + at + 1) === 32);

/** ".", "/", "#", "[", "]", "=" and "*": inside a key (never first), read as themselves. */
const KEY_MARKS = new Set([46, 47, 35, 91, 93, 61, 42]);

/** A hash of the characters of the key `keyEnd` found last, for `keyName`. */
let keyHash = 0;

/**
 * Where the colon of a plain key at `column` of the line at `s` (`len` long) is, as a column (a
 * letter or digit, then letters, digits, "_", "-", and the ".", "/", "#", "[", "]", "=" and "*" of the text
 * names translations.yaml confirms (`courses/vocal.yaml#features[2]`, `banners.yaml#banners[id=x].pill`,
 * `courses/afc.yaml#features[*]`), then ":" and a space or the end of the line), or -1. In a block key
 * these are plain characters (no space before the "#"). A key in double quotes on its line, without
 * a backslash (the hashes translations.yaml writes quoted: `"1350182284":`), is read too.
 */
function keyEnd(text: string, s: number, len: number, column: number): number {
  if (column >= len) return -1;
  let c = text.charCodeAt(s + column);
  if (c === 34) return quotedKeyEnd(text, s, len, column);
  if (((c | 32) < 97 || (c | 32) > 122) && (c < 48 || c > 57)) return -1;
  let hash = c;
  for (let i = column + 1; i < len; i++) {
    c = text.charCodeAt(s + i);
    if (c === 58) {
      keyHash = hash;
      return i + 1 === len || text.charCodeAt(s + i + 1) === 32 ? i : -1;
    }
    if (!((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95 || c === 45 || KEY_MARKS.has(c))) return -1;
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  return -1;
}

/** `keyEnd` for a key in double quotes at `column`: the column of the colon right after the closing quote, or -1. */
function quotedKeyEnd(text: string, s: number, len: number, column: number): number {
  let hash = 34;
  for (let i = column + 1; i < len; i++) {
    const c = text.charCodeAt(s + i);
    if (c === 92) return -1; // an escape: left to yaml
    if (c === 34) {
      keyHash = hash;
      return text.charCodeAt(s + i + 1) === 58 && (i + 2 === len || text.charCodeAt(s + i + 2) === 32) ? i + 1 : -1;
    }
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  return -1;
}

/**
 * Key names met before, by the hash of their characters. Files of one type use the same few keys:
 * a key met again is the string kept here, already a property name, not a new slice of its line
 * that V8 must look up in its string table before it can be one (a third of the reader's time).
 */
const knownKeys: string[] = new Array(1024).fill('');

/** The name of the key from `from` to the colon at `colon` (offsets in `text`; just found by `keyEnd`), inside its quotes if it has them. */
function keyName(text: string, from: number, colon: number): string {
  // A quoted key is its text as it is, so it is not kept: a plain key of the same letters may read otherwise ("1e5").
  if (text.charCodeAt(from) === 34) {
    const quoted = text.slice(from + 1, colon - 1);
    // An assignment to "__proto__" sets no property: yaml's reading keeps it as a key.
    if (quoted === '__proto__') throw GIVE_UP;
    return Object.keys({ [quoted]: 0 })[0]!;
  }
  const slot = keyHash & (knownKeys.length - 1);
  const known = knownKeys[slot]!;
  if (known.length === colon - from && text.startsWith(known, from)) return known;
  const name = text.slice(from, colon);
  if (SPECIAL_KEYS.has(name)) throw GIVE_UP;
  // A plain key that starts with a digit is a number unless the core schema reads it as a text (the hash `8d962d5479`).
  if (name.charCodeAt(0) <= 57 && typeof resolvePlainScalar(name) !== 'string') throw GIVE_UP;
  // A property name of its own (Object.keys gives them so), not the slice.
  knownKeys[slot] = Object.keys({ [name]: 0 })[0]!;
  return knownKeys[slot];
}

/** Where each line of the file being read starts (grown as needed, reused: no file keeps it). */
let lineStarts = new Int32Array(1024);

/**
 * Reads the text in place: a line is where it starts in the text and how long it is (columns are
 * counted from its start), not a string of its own, so a file costs no array of lines.
 */
class PlainReader {
  private readonly text: string;
  /** Where each line starts in the text (the lines `text.split('\n')` would give), and how many there are. */
  private readonly starts: Int32Array;
  private readonly lines: number;
  /** The current line, and its indentation once `skip` has found it. */
  private at = 0;
  private indent = 0;
  private nodes = 0;
  /** Where the first " #" at or after some offset asked for before is (the text's length when none is). */
  private comment = -1;

  constructor(text: string) {
    this.text = text;
    let lines = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (lines === lineStarts.length) {
        const grown = new Int32Array(lines * 2);
        grown.set(lineStarts);
        lineStarts = grown;
      }
      lineStarts[lines++] = i + 1;
    }
    this.starts = lineStarts;
    this.lines = lines;
  }

  /** How long line `at` is, without its line end. */
  private length(at: number): number {
    return (at + 1 < this.lines ? this.starts[at + 1]! - 1 : this.text.length) - this.starts[at]!;
  }

  /** Whether the line at `s`, `len` long, has " #" (a comment, or a text the plain reader leaves) at or after offset `from`. */
  private hasComment(from: number, s: number, len: number): boolean {
    if (this.comment < from) this.comment = commentAt(this.text, from);
    return this.comment < s + len - 1;
  }

  document(): { data: Record<string, unknown>; outline: Outline } {
    this.skip();
    if (this.at >= this.lines || this.indent !== 0 || keyEnd(this.text, this.starts[this.at]!, this.length(this.at), 0) < 0) throw GIVE_UP;
    const data = this.map(0, 1, 0, 0);
    this.skip();
    if (this.at < this.lines) throw GIVE_UP;
    return { data, outline: keep(scratch.subarray(0, this.nodes * WIDTH)) };
  }

  /** Moves to the next line with content (past blank and comment lines) and measures its indentation. */
  private skip(): void {
    const text = this.text;
    for (; this.at < this.lines; this.at++) {
      const s = this.starts[this.at]!;
      const len = this.length(this.at);
      let i = 0;
      while (i < len && text.charCodeAt(s + i) === 32) i++;
      if (i < len && text.charCodeAt(s + i) !== 35) {
        this.indent = i;
        return;
      }
    }
  }

  /** Reserves the next node, the value of the key at line `keyLine` and column `keyColumn` (1-based; 0 for none). */
  private node(keyLine: number, keyColumn: number): number {
    const o = this.nodes++ * WIDTH;
    if (scratch.length < o + WIDTH) {
      const grown = new Int32Array(scratch.length * 2);
      grown.set(scratch);
      scratch = grown;
    }
    scratch[o + LINE] = 0;
    scratch[o + KEY_LINE] = keyLine;
    scratch[o + KEY_COLUMN] = keyColumn;
    return o;
  }

  /** The list or mapping that starts on the current line at column `indent`. */
  private block(indent: number, depth: number, keyLine: number, keyColumn: number): unknown {
    const s = this.starts[this.at]!;
    const len = this.length(this.at);
    if (isDash(this.text, s, len, indent)) return this.list(indent, depth, keyLine, keyColumn);
    if (keyEnd(this.text, s, len, indent) >= 0) return this.map(indent, depth, keyLine, keyColumn);
    throw GIVE_UP;
  }

  /** A mapping whose first key is at `column` of the current line. */
  private map(column: number, depth: number, keyLine: number, keyColumn: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const text = this.text;
    const first = this.nodes;
    const o = this.node(keyLine, keyColumn);
    const map: Record<string, unknown> = {};
    for (;;) {
      const s = this.starts[this.at]!;
      const len = this.length(this.at);
      const colon = keyEnd(text, s, len, column);
      if (colon < 0 || colon - column > 1000) throw GIVE_UP;
      const name = keyName(text, s + column, s + colon);
      if (Object.hasOwn(map, name)) throw GIVE_UP;
      let after = colon + 1;
      while (after < len && text.charCodeAt(s + after) === 32) after++;
      // A quoted key's column is kept negative: its end is two columns further than its name's length says.
      const at = text.charCodeAt(s + column) === 34 ? -(column + 1) : column + 1;
      map[name] = after < len && text.charCodeAt(s + after) !== 35 ? this.scalar(after, column, this.at + 1, at) : this.below(column, depth, this.at + 1, at);
      this.skip();
      if (this.at >= this.lines || this.indent < column) break;
      if (this.indent > column) throw GIVE_UP;
      if (keyEnd(text, this.starts[this.at]!, this.length(this.at), column) < 0) break; // a dash: the list this mapping is an item of goes on
    }
    scratch[o + SIZE] = this.nodes - first;
    return map;
  }

  /** The value of a key with nothing after its colon: the block below it, or a list at the key's own indentation. */
  private below(indent: number, depth: number, keyLine: number, keyColumn: number): unknown {
    this.at++;
    this.skip();
    if (this.at >= this.lines) throw GIVE_UP;
    if (this.indent > indent) return this.block(this.indent, depth + 1, keyLine, keyColumn);
    if (this.indent === indent && isDash(this.text, this.starts[this.at]!, this.length(this.at), indent))
      return this.list(indent, depth + 1, keyLine, keyColumn);
    throw GIVE_UP; // an empty value
  }

  /** A list whose dashes are at `indent`, the first on the current line. */
  private list(indent: number, depth: number, keyLine: number, keyColumn: number): unknown[] {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const text = this.text;
    const first = this.nodes;
    const o = this.node(keyLine, keyColumn);
    const list: unknown[] = [];
    for (;;) {
      const s = this.starts[this.at]!;
      const len = this.length(this.at);
      let column = indent + 1;
      while (column < len && text.charCodeAt(s + column) === 32) column++;
      if (column >= len || text.charCodeAt(s + column) === 35) {
        // Nothing after the dash: the item is the block below it.
        this.at++;
        this.skip();
        if (this.at >= this.lines || this.indent <= indent) throw GIVE_UP;
        list.push(this.block(this.indent, depth + 1, 0, 0));
      } else if (keyEnd(text, s, len, column) >= 0) list.push(this.map(column, depth + 1, 0, 0));
      else if (isDash(text, s, len, column))
        throw GIVE_UP; // a list in a list on one line
      else list.push(this.scalar(column, indent, 0, 0));
      this.skip();
      if (this.at >= this.lines || this.indent !== indent || !isDash(text, this.starts[this.at]!, this.length(this.at), indent)) break;
    }
    scratch[o + SIZE] = this.nodes - first;
    return list;
  }

  /**
   * The text at `column` of the current line, the value of a key or an item of a list whose key or
   * dash is at column `parent`: a plain text goes on over the following lines indented further.
   */
  private scalar(column: number, parent: number, keyLine: number, keyColumn: number): unknown {
    const text = this.text;
    const s = this.starts[this.at]!;
    const len = this.length(this.at);
    const o = this.node(keyLine, keyColumn);
    scratch[o + LINE] = scratch[o + END_LINE] = this.at + 1;
    scratch[o + COLUMN] = column + 1;
    scratch[o + SIZE] = 1;
    this.at++;
    const c = text.charCodeAt(s + column);
    if (c === 34 || c === 39) return this.quoted(c, s, len, column, o);
    if ((c === 91 || c === 123) && text.charCodeAt(s + column + 1) === c + 2) {
      // An empty list or mapping written [] or {} (what yaml.stringify writes for one).
      REST.lastIndex = s + column + 2;
      if (!REST.test(text)) throw GIVE_UP;
      scratch[o + END_COLUMN] = column + 3;
      return c === 91 ? [] : {};
    }
    if (isIndicator(c) || ((c === 45 || c === 63 || c === 58) && (column + 1 === len || text.charCodeAt(s + column + 1) === 32))) throw GIVE_UP;
    const comment = this.hasComment(s + column, s, len);
    let value = plainPart(text, s + column, comment ? this.comment : s + len);
    scratch[o + END_COLUMN] = column + value.length + 1;
    // A comment ends the text; so does a line indented no further than its key or dash.
    let blank = 0;
    for (let next = this.at; !comment && next < this.lines; next++) {
      const ms = this.starts[next]!;
      const mlen = this.length(next);
      let i = 0;
      while (i < mlen && text.charCodeAt(ms + i) === 32) i++;
      if (i === mlen) {
        blank++;
        continue;
      }
      const first = text.charCodeAt(ms + i);
      if (i <= parent || first === 35) break;
      if (first === 45 || first === 63 || first === 58 || this.hasComment(ms + i, ms, mlen)) throw GIVE_UP; // - ? : or a comment
      const part = plainPart(text, ms + i, ms + mlen);
      value += blank ? '\n'.repeat(blank) + part : ` ${part}`;
      blank = 0;
      scratch[o + END_LINE] = next + 1;
      scratch[o + END_COLUMN] = i + part.length + 1;
      this.at = next + 1;
    }
    return resolvePlainScalar(value);
  }

  /** A text in quotes `c` (" or ') at `column` of the line at `s`, `len` long: all of it on that line, and nothing but a comment after it. */
  private quoted(c: number, s: number, len: number, column: number, o: number): string {
    const text = this.text;
    let close = c === 34 ? text.indexOf('"', s + column + 1) : closingSingleQuote(text, s + column + 1);
    if (close >= s + len) close = -1;
    const inner = close < 0 ? '' : text.slice(s + column + 1, close);
    if (close < 0 || (c === 34 && inner.includes('\\'))) throw GIVE_UP;
    REST.lastIndex = close + 1;
    if (!REST.test(text)) throw GIVE_UP;
    scratch[o + END_COLUMN] = close - s + 2;
    return c === 34 ? inner : inner.replaceAll("''", "'");
  }
}

/**
 * Where the first " #" at or after offset `from` is (the text's length when there is none). Found
 * by its "#", then the space before it: V8's search for " #" stops at every space (and, in a text
 * of two bytes a character, at every character with a byte 0x20, like "Р" or "—") to compare the
 * next one, several times slower than a search for the rare "#".
 */
function commentAt(text: string, from: number): number {
  for (let i = text.indexOf('#', from + 1); i >= 0; i = text.indexOf('#', i + 1)) if (text.charCodeAt(i - 1) === 32) return i - 1;
  return text.length;
}

/** Where a single-quoted text opened before `from` closes ('' is a quote inside it), or -1. */
function closingSingleQuote(text: string, from: number): number {
  for (let i = text.indexOf("'", from); i >= 0; i = text.indexOf("'", i + 2)) if (text.charCodeAt(i + 1) !== 39) return i;
  return -1;
}

/** The plain text from offset `from` up to `end` (on one line), without trailing spaces. */
function plainPart(text: string, from: number, end: number): string {
  while (end > from && text.charCodeAt(end - 1) === 32) end--;
  const part = text.slice(from, end);
  if (part.includes(': ') || part.endsWith(':')) throw GIVE_UP; // a mapping where a text was expected: an error for the full parser
  return part;
}

/** A key JavaScript orders before all others, whatever its place in the file (only a quoted key can be one). */
const isArrayIndex = (key: string) => key.charCodeAt(0) <= 57 && /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * Where `key` is among the keys of `map`, in their order (that of the file), or -1; null when the
 * map's key order is not the file's (a key such as "1350182284" comes first in JavaScript).
 */
function keyIndex(map: object, key: string): number | null {
  let index = 0;
  for (const k in map) {
    if (index === 0 && isArrayIndex(k)) return null; // such keys come first
    if (k === key) return index;
    index++;
  }
  return -1;
}

/**
 * The position of the node at `path` in a file read by `readPlainYaml`, as `yaml` gives it (with `key`,
 * the position of its key; when the path goes further than the data, the nearest node on it), or
 * undefined where the outline has no position (a list or mapping): then the full parser is asked.
 */
export function locatePlain(outline: Outline, data: unknown, path: readonly (string | number)[], key: boolean): Position | undefined {
  let node = 0;
  let value = data;
  let named = ''; // the key of the mapping value reached last, '' if it was a list item
  let depth = 0;
  for (const part of path) {
    let index: number | null;
    if (Array.isArray(value)) {
      if (typeof part !== 'number' || !Number.isInteger(part) || part < 0 || part >= value.length) break;
      index = part;
      named = '';
    } else if (value !== null && typeof value === 'object') {
      index = keyIndex(value, String(part));
      if (index === null) return undefined; // the full parser locates it
      if (index < 0) break;
      named = String(part);
    } else break;
    let child = node + 1;
    for (let i = 0; i < index; i++) child += outline[child * WIDTH + SIZE]!;
    node = child;
    value = (value as Record<string | number, unknown>)[part];
    depth++;
  }
  const o = node * WIDTH;
  const complete = depth === path.length;
  if (named && (!complete || key)) {
    const line = outline[o + KEY_LINE]!;
    const column = outline[o + KEY_COLUMN]!;
    if (column < 0) return { line, column: -column, endLine: line, endColumn: -column + named.length + 2 };
    return { line, column, endLine: line, endColumn: column + named.length };
  }
  if (outline[o + LINE] === 0) return undefined;
  return { line: outline[o + LINE]!, column: outline[o + COLUMN]!, endLine: outline[o + END_LINE]!, endColumn: outline[o + END_COLUMN]! };
}
