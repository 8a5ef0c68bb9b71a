import { isUtf8 } from 'node:buffer';
import { hash as hashOf } from 'node:crypto';
import { expectedOf, formatPath, foundOf, hintOf, messageOf, type Position, type Problem } from '../report/problem.ts';
import { type FullParse, locateInDocument, nestedTooDeep, parseFully, parseYaml } from './yaml-full.ts';
import { locatePlain, type Outline, readPlainYaml } from './yaml-plain.ts';

export type PathPart = string | number;

/** One parsed content file, kept with its text so any path in it can be located. */
export interface SourceFile {
  /** Relative to the content directory, forward slashes: `courses/vocal.yaml`. */
  file: string;
  text: string;
  /** The plain data, or undefined when the file could not be parsed. */
  data: unknown;
  /** The SHA-1 of the file's bytes (base64url): whether it changed, for the page cache. */
  hash: string;
  /** The position of the node at `path` (use `locate`). */
  find(path: readonly PathPart[], key: boolean): Position;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Decodes and parses one file. Returns the parsed file (possibly with problems) or, when
 * nothing usable came out, only problems. `yaml` (yaml-full.ts) is the reference: it reads every
 * file the plain reader (yaml-plain.ts, the one fast path) does not accept, gives every problem,
 * and locates paths in them; a file the plain reader accepts is read and located by it alone, with
 * the same data and positions (tests/validate/yaml-plain.test.ts). `reader: 'yaml'` skips it.
 */
export function parseSource(file: string, bytes: Uint8Array, reader: Reader = 'plain'): { source?: SourceFile; problems: Problem[] } {
  const text = decode(file, bytes);
  if (typeof text !== 'string') return { problems: [text] };
  const hash = contentHash(bytes);
  const plain = reader === 'plain' ? readPlainYaml(text) : undefined;
  if (plain) return { source: lazySource(file, () => text, plain.data, hash, plain.outline), problems: [] };
  const empty = emptyFile(file, text);
  if (empty) return { problems: [empty] };
  const deep = nestedTooDeep(file, text);
  if (deep) return { problems: [deep] };
  const full = parseFully(file, text);
  const source: SourceFile = { file, text, data: full.data, hash, find: (path, key) => locateInDocument(full, path, key) };
  return { source, problems: full.problems };
}

/** Which reader reads a file first: the plain reader (falling back to `yaml`), or `yaml` alone (the reference). */
export type Reader = 'plain' | 'yaml';

/**
 * The source of a clean file whose data and hash are known (what `parseSource` gave for the same
 * bytes before), without parsing it: its text is decoded, and read again for a position, only when
 * first asked for (a code frame, a problem's position).
 */
export function restoreSource(file: string, bytes: Uint8Array, data: unknown, hash: string): SourceFile {
  let text: string | undefined;
  const decoded = () => (text ??= utf8Text(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  return lazySource(file, decoded, data, hash);
}

const contentHash = (bytes: Uint8Array) => hashOf('sha1', bytes, 'base64url'); // one call: no Hash object per file

/** The text of a file, or the problem that keeps it from being one: a BOM, or bytes that are not UTF-8. */
function decode(file: string, bytes: Uint8Array): string | Problem {
  const at = (line: number, column: number) => ({ file, line, column });
  if (bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b))
    return {
      code: 'byte-order-mark',
      severity: 'error',
      message: messageOf('byte-order-mark', {}),
      ...at(1, 1),
      expected: expectedOf('byte-order-mark', 'encoding', {}),
      found: foundOf('byte-order-mark', 'bom', {}),
      hint: hintOf('byte-order-mark', {}),
      fix: [{ line: 1, column: 1, endColumn: 2, text: '' }],
    };
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    const lines = new TextDecoder('utf-8').decode(bytes.subarray(0, offset)).split('\n');
    return {
      code: 'invalid-utf8',
      severity: 'error',
      message: messageOf('invalid-utf8', {}),
      ...at(lines.length, lines.at(-1)!.length + 1),
      expected: expectedOf('invalid-utf8', 'encoding', {}),
      ...otherEncoding(bytes, offset, lines.length),
    };
  }
  return utf8Text(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * What a file that is not UTF-8 most likely is: Windows-1251 when its bytes read as Cyrillic
 * letters there (as the studio's Russian texts would), else another single-byte encoding.
 */
function otherEncoding(bytes: Uint8Array, offset: number, line: number): { found: string; hint: string } {
  const byte = `0x${bytes[offset]!.toString(16).toUpperCase().padStart(2, '0')}`;
  const start = bytes.lastIndexOf(0x0a, offset) + 1;
  const end = bytes.indexOf(0x0a, offset);
  const cyrillic = new TextDecoder('windows-1251').decode(bytes.subarray(start, end < 0 ? bytes.length : end)).trim();
  if (/[а-яё]{2}/i.test(cyrillic))
    return {
      found: foundOf('invalid-utf8', 'windows1251', { byte, line, text: cyrillic.length > 60 ? `${cyrillic.slice(0, 57)}…` : cyrillic }),
      hint: hintOf('invalid-utf8', {}, 'windows1251'),
    };
  return { found: foundOf('invalid-utf8', 'byte', { byte, offset }), hint: hintOf('invalid-utf8', {}, 'otherEncoding') };
}

/** The problem of a text with no content: nothing, or only comments. */
function emptyFile(file: string, text: string): Problem | undefined {
  if (text.trim() === '' || /^(\s*#[^\n]*\n?)*\s*$/.test(text))
    return {
      code: 'empty-file',
      severity: 'error',
      message: messageOf('empty-file', {}),
      file,
      line: 1,
      column: 1,
      expected: expectedOf('empty-file', 'content', {}),
      found: foundOf('empty-file', 'nothing', {}),
      hint: hintOf('empty-file', {}),
    };
  return undefined;
}

const utf8Text = (bytes: Buffer) => bytes.toString('utf8');

/**
 * A file read by the plain reader, or whose data is known from before. A position is found in
 * the plain reader's outline when it has one (`outline`; for a file known from before it is read
 * again on first need, null when the plain reader does not accept the file), else in the full
 * parse, made only then.
 */
function lazySource(file: string, text: () => string, data: unknown, hash: string, outline?: Outline | null): SourceFile {
  let full: FullParse | undefined;
  return {
    file,
    get text() {
      return text();
    },
    data,
    hash,
    find(path, key) {
      if (outline === undefined) outline = readPlainYaml(text())?.outline ?? null;
      const plain = outline && locatePlain(outline, data, path, key);
      if (plain) return plain;
      full ??= parseYaml(text());
      return locateInDocument(full, path, key);
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

/**
 * The position of the node at `path`; with `key: true` the position of its key instead
 * (for unknown or misplaced keys). Falls back to the nearest ancestor that exists.
 */
export const locate = (source: SourceFile, path: readonly PathPart[], options: { key?: boolean } = {}): Position => source.find(path, options.key === true);

/** A problem at a path of a source file, with its position filled in. */
export function problemAt(
  source: SourceFile,
  path: readonly PathPart[],
  problem: Omit<Problem, 'file' | 'line' | 'column' | 'path'>,
  options: { key?: boolean } = {},
): Problem {
  const at = locate(source, path, options);
  // Object.assign, not a spread: V8 (Node 20) takes a slow path for `{ ...problem, file, … }`, six
  // times slower, and a site of 10,000 courses has 30,000 placeholders.
  return Object.assign({}, problem, {
    file: source.file,
    path: formatPath(path) || undefined,
    line: at.line,
    column: at.column,
    endLine: at.endLine,
    endColumn: at.endColumn,
  });
}
