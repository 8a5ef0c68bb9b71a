import { isUtf8 } from 'node:buffer';
import jsyaml from 'js-yaml';
import { type Document, isMap, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument } from 'yaml';
import { type CachedParse, contentHash, type ParseCache } from '../cache/parse-cache.ts';
import { formatPath, type Position, type Problem } from '../report/problem.ts';
import { aliasOverflow, deeperThanAllowed, firstTooDeep, firstTooDeepOffset, MAX_ALIAS_COPIES, MAX_DEPTH, mayBeTooDeep, positionOf } from './yaml-limits.ts';
import { hasOpenQuote, yamlProblems } from './yaml-problems.ts';

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
  const quick = hasOpenQuote(text) ? undefined : quickParse(text);
  // Data nested too deep goes to the full parser, which says where.
  if (quick && !deeperThanAllowed(quick.data)) {
    const entry: CachedParse = { data: quick.data, positions: new Map() };
    if (hash) cache!.set(hash, entry);
    return { source: lazySource(file, text, entry, Boolean(hash)), problems: [] };
  }
  const { doc, lines } = parseYaml(text);
  const exhausted = doc.errors.find((e) => e.code === 'RESOURCE_EXHAUSTION');
  // The parser ran out of stack: one problem says it, the follow-up errors say nothing more.
  const problems = exhausted ? [tooDeep(file, lines.linePos(firstTooDeepOffset(text) ?? exhausted.pos[0]))] : yamlProblems(file, text, doc, lines);
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
