import type { Document, LineCounter, Node, Pair } from 'yaml';
import { catalogued, expectedOf, foundOf, type Position, type Problem } from '../report/problem.ts';
import { yamlPackage } from './yaml-lazy.ts';
import { aliasOverflow, firstTooDeep, firstTooDeepOffset, MAX_ALIAS_COPIES, MAX_DEPTH, mayBeTooDeep, positionOf } from './yaml-limits.ts';
import { yamlProblems } from './yaml-problems.ts';

/** A YAML document with the range of every node, and the line counter to turn them into lines and columns. */
export interface FullParse {
  doc: Document.Parsed;
  lines: LineCounter;
}

export function parseYaml(text: string): FullParse {
  const { LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  return { doc, lines };
}

/** Nesting deep enough to exhaust a parser's stack, found on the syntax tree before any parser recurses into it. */
export function nestedTooDeep(file: string, text: string): Problem | undefined {
  if (!mayBeTooDeep(text)) return undefined;
  const deep = firstTooDeepOffset(text);
  return deep === undefined ? undefined : tooDeep(file, positionOf(text, deep));
}

/**
 * What the full parser makes of a file the plain reader left to it: every YAML problem in it, and
 * its data when it has no error.
 */
export function parseFully(file: string, text: string): FullParse & { data: unknown; problems: Problem[] } {
  const { doc, lines } = parseYaml(text);
  const exhausted = doc.errors.find((e) => e.code === 'RESOURCE_EXHAUSTION');
  // The parser ran out of stack: one problem says it, the follow-up errors say nothing more.
  const problems = exhausted ? [tooDeep(file, lines.linePos(firstTooDeepOffset(text) ?? exhausted.pos[0]))] : yamlProblems(file, text, doc, lines);
  const limit = problems.some((p) => p.severity === 'error') ? undefined : exceedsLimits(file, doc, lines);
  if (limit) problems.push(limit);
  let data: unknown;
  if (!problems.some((p) => p.severity === 'error'))
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COPIES });
    } catch (error) {
      // The limits above are checked first; should yaml still give up (it throws ReferenceError
      // for aliases, RangeError for stack), that is the content's size, not our bug.
      if (!(error instanceof ReferenceError || error instanceof RangeError)) throw error;
      problems.push(error instanceof ReferenceError ? tooManyAliases(file, { line: 1, col: 1 }) : tooDeep(file, { line: 1, col: 1 }));
    }
  return { doc, lines, data, problems };
}

const tooDeep = (file: string, at: { line: number; col: number }): Problem => ({
  ...catalogued('too-deep', { max: MAX_DEPTH }),
  file,
  line: at.line,
  column: at.col,
  expected: expectedOf('too-deep', 'depth', { max: MAX_DEPTH }),
  found: foundOf('too-deep', 'depth', { max: MAX_DEPTH }),
});

const tooManyAliases = (file: string, at: { line: number; col: number }): Problem => ({
  ...catalogued('too-many-aliases', { max: MAX_ALIAS_COPIES }),
  file,
  line: at.line,
  column: at.col,
  expected: expectedOf('too-many-aliases', 'copies', { max: MAX_ALIAS_COPIES }),
  found: foundOf('too-many-aliases', 'copies', {}),
});

/** A document nested too deep, or one whose aliases would expand it without end: the first place either starts. */
function exceedsLimits(file: string, doc: Document.Parsed, lines: LineCounter): Problem | undefined {
  const deep = firstTooDeep(doc);
  if (deep) return tooDeep(file, lines.linePos(deep.range?.[0] ?? 0));
  const alias = aliasOverflow(doc);
  return alias ? tooManyAliases(file, lines.linePos(alias.range?.[0] ?? 0)) : undefined;
}

/** The node at a path, and the pair whose value it is (for pointing at the key). */
function nodeAt(doc: Document.Parsed, path: readonly (string | number)[]): { node?: Node; pair?: Pair; depth: number } {
  const { isMap, isScalar, isSeq } = yamlPackage();
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
 * The position of the node at `path` (with `key`, of its key: for unknown or misplaced keys), from
 * the node ranges of the full parse. Falls back to the nearest ancestor that exists.
 */
export function locateInDocument({ doc, lines }: FullParse, path: readonly (string | number)[], key: boolean): Position {
  const { node, pair, depth } = nodeAt(doc, path);
  const complete = depth === path.length;
  const target = complete && key && pair?.key ? (pair.key as Node) : complete ? (node ?? pair?.key) : (pair?.key ?? node);
  const range = (target as Node | undefined)?.range ?? [0, 0, 0];
  const a = lines.linePos(range[0]);
  const b = lines.linePos(Math.max(range[0], range[1]));
  return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
}
