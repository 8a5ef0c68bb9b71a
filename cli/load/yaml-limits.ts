import type { CST, Document, Node } from 'yaml';
import { yamlPackage } from './yaml-lazy.ts';

/**
 * How far content may nest lists and mappings. The shipped content nests 7 deep; anything near
 * this limit is a mistake, and far beyond it parsers, validators and renderers run out of stack.
 */
export const MAX_DEPTH = 64;

/** Copies of anchored values (`&name` … `*name`) a file may expand to, as the `yaml` package counts them. */
export const MAX_ALIAS_COPIES = 100;

/** Child nodes in document order: a pair gives its key, then its value. */
const children = (node: Node): unknown[] => {
  const { isCollection, isPair } = yamlPackage();
  return isCollection(node) ? node.items.flatMap((i) => (isPair(i) ? [i.key, i.value] : [i])) : [];
};

/** The first collection, in document order, nested deeper than MAX_DEPTH. */
export function firstTooDeep(doc: Document.Parsed): Node | undefined {
  const { isCollection } = yamlPackage();
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isCollection(node)) continue;
    if (depth > MAX_DEPTH) return node;
    const items = children(node);
    for (let i = items.length - 1; i >= 0; i--) stack.push([items[i], depth + 1]);
  }
  return undefined;
}

/**
 * The alias at which expanding the document passes MAX_ALIAS_COPIES, counted the way the
 * `yaml` package's `toJS({ maxAliasCount })` counts (it throws there, without a position):
 * each use of an anchor multiplies by the copies inside the anchored value.
 * Call only on a document no deeper than MAX_DEPTH.
 */
export function aliasOverflow(doc: Document.Parsed): Node | undefined {
  const { isAlias, isCollection, isPair } = yamlPackage();
  const anchors = new Map<string, Node>();
  const counts = new Map<Node, { count: number; aliasCount: number }>();
  const copiesIn = (node: unknown): number => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const c = target && counts.get(target);
      return c ? c.count * c.aliasCount : 0;
    }
    if (isPair(node)) return Math.max(copiesIn(node.key), copiesIn(node.value));
    if (isCollection(node)) return Math.max(0, ...node.items.map(copiesIn));
    return 1;
  };
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target) continue; // an unknown alias is a parse error of its own
      const c = counts.get(target) ?? { count: 1, aliasCount: 0 };
      counts.set(target, c);
      c.count++;
      if (c.aliasCount === 0) c.aliasCount = copiesIn(target);
      if (c.count * c.aliasCount > MAX_ALIAS_COPIES) return node;
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node as Node);
    const items = isCollection(node) ? children(node) : [];
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
  }
  return undefined;
}

/**
 * Whether `text` could nest deeper than MAX_DEPTH at all, from one cheap pass: every level is
 * either a "[" or "{" or at most two per column of a line's indentation (with "- " and "? ").
 * Plain content never comes near; only then is the syntax tree built to find the place.
 */
export function mayBeTooDeep(text: string): boolean {
  let openers = 0;
  let lead = 0;
  let maxLead = 0;
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      atStart = true;
      lead = 0;
    } else if (atStart && (c === 32 || c === 45 || c === 63 || c === 9)) {
      if (++lead > maxLead) maxLead = lead;
    } else atStart = false;
    if (c === 91 || c === 123) openers++;
  }
  return openers + 2 * (maxLead + 1) > MAX_DEPTH;
}

/** 1-based line and column of an offset into `text`. */
export function positionOf(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * Where the first collection deeper than MAX_DEPTH starts (an offset into `text`), read from
 * the concrete syntax tree: for a document so deep that composing it ran out of stack, where
 * the `yaml` package reports only the place it gave up.
 */
export function firstTooDeepOffset(text: string): number | undefined {
  const stack: [CST.Token | undefined, number][] = [...new (yamlPackage().Parser)().parse(text)].reverse().map((t) => [t, 0] as [CST.Token, number]);
  while (stack.length) {
    const [token, outer] = stack.pop()!;
    if (!token) continue;
    const depth = COLLECTIONS.has(token.type) ? outer + 1 : outer;
    if (depth > MAX_DEPTH) return token.offset;
    const kids: (CST.Token | undefined)[] =
      token.type === 'document'
        ? [token.value]
        : token.type === 'block-map' || token.type === 'flow-collection'
          ? token.items.flatMap((i) => [i.key ?? undefined, i.value])
          : token.type === 'block-seq'
            ? token.items.map((i) => i.value)
            : [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth]);
  }
  return undefined;
}
