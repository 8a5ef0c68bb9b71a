import { isUtf8 } from 'node:buffer';
import jsyaml from 'js-yaml';
import { type Document, isMap, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument } from 'yaml';
import { type CachedParse, contentHash, type ParseCache } from './parse-cache.ts';
import { formatPath, type Problem } from './problem.ts';
import { aliasOverflow, deeperThanAllowed, firstTooDeep, firstTooDeepOffset, MAX_ALIAS_COPIES, MAX_DEPTH, mayBeTooDeep, positionOf } from './yaml-limits.ts';

export type PathPart = string | number;

/** One parsed content file, kept with its text and node ranges so any path can be located. */
export interface SourceFile {
  /** Relative to the content directory, forward slashes: `courses/vocal.yaml`. */
  file: string;
  text: string;
  /** The YAML document with node ranges; parsed on first use when the data came from the cache. */
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  /** The plain data, or undefined when the file could not be parsed. */
  data: unknown;
  /** Positions located so far, by path (kept in the parse cache, so a warm run needs no YAML parse). */
  positions: Map<string, Position>;
  /** This text's entry in the parse cache, when there is one. */
  cached?: CachedParse;
}

export interface Position {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Decodes and parses one file. Returns the parsed file (possibly with problems) or, when
 * nothing usable came out, only problems.
 */
export function parseSource(file: string, bytes: Uint8Array, cache?: ParseCache): { source?: SourceFile; problems: Problem[] } {
  const at = (line: number, column: number) => ({ file, line, column });
  if (bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b)) {
    return {
      problems: [
        {
          code: 'byte-order-mark',
          severity: 'error',
          message: 'The file starts with a byte-order mark (BOM).',
          ...at(1, 1),
          expected: 'UTF-8 without BOM',
          found: 'the bytes EF BB BF before the first character',
          hint: 'Save the file as "UTF-8" (not "UTF-8 with BOM") in your editor.',
        },
      ],
    };
  }
  let text: string;
  if (isUtf8(bytes)) text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  else {
    const offset = firstInvalidUtf8(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
    const lines = before.split('\n');
    return {
      problems: [
        {
          code: 'invalid-utf8',
          severity: 'error',
          message: 'The file is not valid UTF-8 text.',
          ...at(lines.length, lines.at(-1)!.length + 1),
          expected: 'UTF-8 text',
          found: `the byte 0x${bytes[offset]!.toString(16).toUpperCase().padStart(2, '0')} at byte offset ${offset}`,
          hint: 'The file was probably saved in another encoding (e.g. Windows-1251 or Latin-1). Save it as UTF-8.',
        },
      ],
    };
  }
  if (text.trim() === '' || /^(\s*#[^\n]*\n?)*\s*$/.test(text)) {
    return {
      problems: [
        {
          code: 'empty-file',
          severity: 'error',
          message: 'The file is empty.',
          ...at(1, 1),
          expected: 'content for this file',
          found: 'nothing (or only comments)',
          hint: 'Restore the file from version control, or delete it if it was created by mistake.',
        },
      ],
    };
  }
  const hash = cache ? contentHash(bytes) : undefined;
  const cached = hash ? cache!.get(hash) : undefined;
  if (cached) return { source: lazySource(file, text, cached, true), problems: [] };
  // Nesting deep enough to exhaust a parser's stack is found on the syntax tree, before any parser recurses into it.
  if (mayBeTooDeep(text)) {
    const deep = firstTooDeepOffset(text);
    if (deep !== undefined) return { problems: [tooDeep(file, positionOf(text, deep))] };
  }
  const quick = quickParse(text);
  // Data nested too deep goes to the full parser, which says where.
  if (quick && !deeperThanAllowed(quick.data)) {
    const entry: CachedParse = { data: quick.data, positions: new Map() };
    if (hash) cache!.set(hash, entry);
    return { source: lazySource(file, text, entry, Boolean(hash)), problems: [] };
  }
  const { doc, lines } = parseYaml(text);
  const problems: Problem[] = [];
  for (const error of doc.errors) {
    const [start, end] = error.pos;
    if (error.code === 'RESOURCE_EXHAUSTION') {
      // The parser ran out of stack: one problem says it, the follow-up errors say nothing more.
      if (!problems.some((p) => p.code === 'too-deep')) problems.push(tooDeep(file, lines.linePos(firstTooDeepOffset(text) ?? start)));
      continue;
    }
    const a = lines.linePos(start);
    const b = lines.linePos(Math.max(start, end));
    problems.push({
      code: `yaml-${error.code.toLowerCase().replaceAll('_', '-')}`,
      severity: 'error',
      message: yamlMessage(error.code, error.message),
      file,
      line: a.line,
      column: a.col,
      endLine: b.line,
      endColumn: b.col,
      hint: YAML_HINTS[error.code] ?? 'Check the indentation and punctuation on this line and the one before it.',
    });
  }
  explainIndentation(problems, text);
  for (const warning of doc.warnings) {
    const a = lines.linePos(warning.pos[0]);
    problems.push({
      code: `yaml-${warning.code.toLowerCase().replaceAll('_', '-')}`,
      severity: 'warning',
      message: yamlMessage(warning.code, warning.message),
      file,
      line: a.line,
      column: a.col,
    });
  }
  const limit = problems.some((p) => p.severity === 'error') ? undefined : exceedsLimits(file, doc, lines);
  if (limit) problems.push(limit);
  const hasErrors = problems.some((p) => p.severity === 'error');
  let data: unknown;
  if (!hasErrors)
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COPIES });
    } catch (error) {
      // The limits above are checked first; should yaml still give up (it throws ReferenceError
      // for aliases, RangeError for stack), that is the content's size, not our bug.
      if (!(error instanceof ReferenceError || error instanceof RangeError)) throw error;
      problems.push(error instanceof ReferenceError ? tooManyAliases(file, { line: 1, col: 1 }) : tooDeep(file, { line: 1, col: 1 }));
    }
  const entry: CachedParse = { data, positions: new Map() };
  // Only a file that parsed cleanly is cached: one with problems is parsed again every time.
  const cacheable = hash !== undefined && !problems.length;
  if (cacheable) cache!.set(hash, entry);
  return { source: { file, text, doc, lines, data, positions: entry.positions, cached: cacheable ? entry : undefined }, problems };
}

const tooDeep = (file: string, at: { line: number; col: number }): Problem => ({
  code: 'too-deep',
  severity: 'error',
  message: `Lists and mappings are nested more than ${MAX_DEPTH} levels deep here.`,
  file,
  line: at.line,
  column: at.col,
  expected: `at most ${MAX_DEPTH} levels of nesting (content needs fewer than 10)`,
  found: `more than ${MAX_DEPTH} levels`,
  hint: 'Check the indentation (each level is indented two spaces more) and that every [ and { is closed on this line.',
});

const tooManyAliases = (file: string, at: { line: number; col: number }): Problem => ({
  code: 'too-many-aliases',
  severity: 'error',
  message: `The aliases (*name) up to here expand to more than ${MAX_ALIAS_COPIES} copies of anchored values.`,
  file,
  line: at.line,
  column: at.col,
  expected: `at most ${MAX_ALIAS_COPIES} copies made through &anchors and *aliases`,
  found: 'more (each alias of a value that itself holds aliases multiplies them)',
  hint: 'Write the repeated text out where it is needed instead of copying it with &anchor and *alias.',
});

/** A document nested too deep, or one whose aliases would expand it without end: the first place either starts. */
function exceedsLimits(file: string, doc: Document.Parsed, lines: LineCounter): Problem | undefined {
  const deep = firstTooDeep(doc);
  if (deep) return tooDeep(file, lines.linePos(deep.range?.[0] ?? 0));
  const alias = aliasOverflow(doc);
  return alias ? tooManyAliases(file, lines.linePos(alias.range?.[0] ?? 0)) : undefined;
}

const IMPLICIT_KEY = new Set(['yaml-block-as-implicit-key', 'yaml-multiline-implicit-key']);
const KEY_LINE = /^( *)([^\s#][^:#]*?):(?:\s+(\S.*))?$/;

/**
 * A line indented deeper than the \`key: value\` line above it is read as more of that value,
 * and \`yaml\` then reports a key "missing its colon" on the line above, twice. Say what
 * happened, on the line that is wrong.
 */
function explainIndentation(problems: Problem[], text: string): void {
  const textLines = text.split(/\r?\n/);
  for (let i = 0; i < problems.length; i++) {
    const p = problems[i]!;
    if (!IMPLICIT_KEY.has(p.code) || p.line === undefined) continue;
    const above = KEY_LINE.exec(textLines[p.line - 1] ?? '');
    let next = p.line; // 0-based index of the line after
    while (next < textLines.length && /^\s*(#.*)?$/.test(textLines[next]!)) next++;
    const deeper = KEY_LINE.exec(textLines[next] ?? '');
    if (!above?.[3] || !deeper || deeper[1]!.length <= above[1]!.length) continue;
    const [, indent, key] = deeper;
    const same = problems.filter((q) => IMPLICIT_KEY.has(q.code) && q.line === p.line);
    if (problems.some((q) => q.code === 'yaml-bad-indent' && q.line === p.line)) {
      // The line above is the misindented one (already reported); this follows from it.
      for (const q of same) problems.splice(problems.indexOf(q), 1);
      i--;
      continue;
    }
    const spaces = (n: number) => `${n} space${n === 1 ? '' : 's'}`;
    problems.splice(i, 1, {
      code: 'yaml-bad-indent',
      severity: 'error',
      message: `"${key}:" is indented deeper than "${above[2]}:" on the line above, so it is read as more of that line's text.`,
      file: p.file,
      line: next + 1,
      column: indent!.length + 1,
      expected: `${spaces(above[1]!.length)} before "${key}:", as before "${above[2]}:" (or "${above[2]}:" with nothing after the colon, if "${key}:" belongs under it)`,
      found: spaces(indent!.length),
      hint: 'Entries of one mapping start in the same column; an entry nested under a key is indented two spaces more than that key.',
    });
    for (const q of same.slice(1)) problems.splice(problems.indexOf(q), 1);
  }
  // Both of yaml's messages for one spot say the same: keep the clearer one.
  for (const p of [...problems])
    if (p.code === 'yaml-multiline-implicit-key' && problems.some((q) => q.code === 'yaml-block-as-implicit-key' && q.line === p.line && q.column === p.column))
      problems.splice(problems.indexOf(p), 1);
}

/**
 * Plain YAML, the way content files are written, does not need the full parser to get its
 * data: js-yaml reads it about five times faster, with the same YAML 1.2 core schema. Anything
 * it refuses, and anything less plain (anchors, aliases, tags, explicit keys, directives, more
 * than one document), goes to \`yaml\`, which also gives every problem and every position; a
 * file read this way is parsed by \`yaml\` only if a position in it is asked for.
 */
// YAML 1.2's core schema as \`yaml\` resolves it (js-yaml's own differs in corners like 1_000).
const scalar = (tag: string, test: RegExp, construct: (s: string) => unknown) =>
  new jsyaml.Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve: (s: string | null) => s !== null && test.test(s), construct });
const CORE = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    new jsyaml.Type('tag:yaml.org,2002:null', {
      kind: 'scalar',
      resolve: (s: string | null) => s === null || /^(?:~|null|Null|NULL)?$/.test(s),
      construct: () => null,
    }),
    scalar('bool', /^(?:true|True|TRUE|false|False|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T'),
    scalar('int', /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/, (s) =>
      s.startsWith('0o') ? Number.parseInt(s.slice(2), 8) : s.startsWith('0x') ? Number.parseInt(s.slice(2), 16) : Number.parseInt(s, 10),
    ),
    scalar('float', /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/, (s) =>
      /inf$/i.test(s) ? (s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY) : /nan$/i.test(s) ? Number.NaN : Number.parseFloat(s),
    ),
  ],
});
const NOT_PLAIN = /(^|[\s,[{:-])[&*!][^\s,\]}]|^[ \t]*(\?|%|---|\.\.\.)(\s|$)|\t/m;
export function quickParse(text: string): { data: unknown } | undefined {
  if (NOT_PLAIN.test(text)) return undefined;
  try {
    const data = jsyaml.load(text, { schema: CORE, json: false });
    return data !== null && typeof data === 'object' ? { data } : undefined;
  } catch {
    return undefined;
  }
}

function parseYaml(text: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  return { doc, lines };
}

/** A source whose data came from the parse cache or the quick parse; the YAML document is parsed only if a position is asked for that the cache does not have. */
function lazySource(file: string, text: string, entry: CachedParse, inCache: boolean): SourceFile {
  const { data, positions } = entry;
  let parsed: { doc: Document.Parsed; lines: LineCounter } | undefined;
  const yaml = () => (parsed ??= parseYaml(text));
  return {
    file,
    text,
    data,
    positions,
    cached: inCache ? entry : undefined,
    get doc() {
      return yaml().doc;
    },
    get lines() {
      return yaml().lines;
    },
  };
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Binary search for the shortest prefix that fails to decode.
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid + 1), { stream: true });
      decoder.decode();
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return Math.min(lo, bytes.length - 1);
}

/** The yaml package's messages end with a position and a code frame; we print our own. */
function yamlMessage(code: string, message: string): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return MESSAGES[code] ?? `YAML syntax: ${first.charAt(0).toLowerCase()}${first.slice(1)}`;
}

const MESSAGES: Record<string, string> = {
  DUPLICATE_KEY: 'The same key appears twice in one mapping.',
  TAB_AS_INDENT: 'A tab character is used for indentation.',
  BAD_INDENT: 'The indentation of this line does not fit the lines around it.',
  MISSING_CHAR: 'A closing quote or bracket is missing.',
  BLOCK_AS_IMPLICIT_KEY: 'A key is missing its colon, or a text spans lines without quotes.',
  MULTIPLE_DOCS: 'The file contains more than one YAML document (a line with only "---").',
};

const YAML_HINTS: Record<string, string> = {
  DUPLICATE_KEY: 'Keep one of the two entries and delete the other; YAML would silently use only the last one.',
  TAB_AS_INDENT: 'YAML indentation must use spaces. Replace the tab with two spaces.',
  BAD_INDENT: 'Indent nested entries by two spaces more than their parent, and entries of one list or map equally.',
  MISSING_CHAR: 'Close every quote you open; a text with a colon or # in it needs quotes around it.',
  BLOCK_AS_IMPLICIT_KEY: 'Write "key: value". Quote a text that contains ": " or starts with a special character.',
  MULTIPLE_DOCS: 'Each content file holds one document: remove the "---" line.',
  BLOCK_IN_FLOW: 'Inside [ ] or { } write everything on one line, or use the indented form instead.',
  UNEXPECTED_TOKEN: 'Quote a text that contains ": ", starts with *, &, !, @, ` or a quote.',
};

/** The node at a path, and the pair whose value it is (for pointing at the key). */
function nodeAt(doc: Document.Parsed, path: readonly PathPart[]): { node?: Node; pair?: Pair; depth: number } {
  let node: Node | null | undefined = doc.contents;
  let pair: Pair | undefined;
  let depth = 0;
  for (const part of path) {
    if (isMap(node)) {
      const found = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(part));
      if (!found) break;
      pair = found as Pair;
      node = found.value as Node | null;
    } else if (isSeq(node) && typeof part === 'number') {
      const item = node.items[part] as Node | undefined;
      if (!item) break;
      pair = undefined;
      node = item;
    } else break;
    depth++;
    if (!node) break;
  }
  return { node: node ?? undefined, pair, depth };
}

/**
 * The position of the node at `path`; with `key: true` the position of its key instead
 * (for unknown or misplaced keys). Falls back to the nearest ancestor that exists.
 */
export function locate(source: SourceFile, path: readonly PathPart[], options: { key?: boolean } = {}): Position {
  const id = `${options.key ? 'k' : 'v'}${JSON.stringify(path)}`;
  const known = source.positions.get(id);
  if (known) return known;
  const position = locateInDocument(source, path, options);
  source.positions.set(id, position);
  return position;
}

function locateInDocument(source: SourceFile, path: readonly PathPart[], options: { key?: boolean }): Position {
  const { node, pair, depth } = nodeAt(source.doc, path);
  const complete = depth === path.length;
  const target = complete && options.key && pair?.key ? (pair.key as Node) : complete ? (node ?? pair?.key) : (pair?.key ?? node);
  const range = (target as Node | undefined)?.range ?? [0, 0, 0];
  const a = source.lines.linePos(range[0]);
  const b = source.lines.linePos(Math.max(range[0], range[1]));
  return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
}

/** A problem at a path of a source file, with its position filled in. */
export function problemAt(
  source: SourceFile,
  path: readonly PathPart[],
  problem: Omit<Problem, 'file' | 'line' | 'column' | 'path'>,
  options: { key?: boolean } = {},
): Problem {
  return { ...problem, file: source.file, path: formatPath(path) || undefined, ...locate(source, path, options) };
}
