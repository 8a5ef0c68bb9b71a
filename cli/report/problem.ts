import { compareNames } from '../util/compare-names.ts';
import { PROBLEMS, type ProblemCode, type ProblemDefinition, type Severity } from './problems.ts';

export type { Severity };

/** Where a problem is in its file: 1-based lines, columns counted in characters. */
export interface Position {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A content problem is data: where it is, what was expected, what was found, what to do. */
export interface Problem {
  /** Stable identifier from the catalogue in `problems.ts`; never renamed. */
  code: ProblemCode;
  severity: Severity;
  message: string;
  /** Path relative to the content directory, with forward slashes. */
  file: string;
  /** 1-based. Absent when the problem concerns the whole file or directory. */
  line?: number;
  /** 1-based, counted in characters. */
  column?: number;
  endLine?: number;
  endColumn?: number;
  /** The content path inside the file: `price.amount`, `features[2].en`. */
  path?: string;
  expected?: string;
  found?: string;
  hint?: string;
  /** Translation problems: the locale concerned. */
  locale?: string;
  /** Translation problems: the Russian text visitors see instead. */
  fallback?: string;
  /** Placeholders: the pages where visitors read it; absent when no page shows it. */
  where?: string;
  /** The edits that make the fix the hint names, where it is certain: apply them all, in any order. */
  fix?: Fix[];
}

/** `text` in place of the characters from `column` up to (not including) `endColumn` on `line` (1-based, in characters). */
export interface Fix {
  line: number;
  column: number;
  endColumn: number;
  text: string;
}

/** Sorted by file, then line and column; errors before warnings at the same place. */
export function sortProblems(problems: Problem[]): Problem[] {
  const file = rankOf(problems.map((p) => p.file));
  const code = rankOf(problems.map((p) => p.code));
  return [...problems].sort(
    (a, b) =>
      file.get(a.file)! - file.get(b.file)! ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      code.get(a.code)! - code.get(b.code)!,
  );
}

/**
 * Each distinct name's place in `compareNames` order (names it finds equal share one): names are
 * compared once each, not once per problem (many share a file and a code).
 */
function rankOf(names: string[]): Map<string, number> {
  const distinct = [...new Set(names)].sort(compareNames);
  const rank = new Map<string, number>();
  for (let i = 0; i < distinct.length; i++) {
    const name = distinct[i]!;
    rank.set(name, i > 0 && compareNames(distinct[i - 1]!, name) === 0 ? rank.get(distinct[i - 1]!)! : i);
  }
  return rank;
}

export const countBySeverity = (problems: Problem[]) => ({
  errors: problems.filter((p) => p.severity === 'error').length,
  warnings: problems.filter((p) => p.severity === 'warning').length,
});

/** Formats a content path: ['features', 2, 'en'] → `features[2].en`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out;
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/**
 * A content path as an editor counts, from 1: `categories[1].items[14].price` → `categories › 2nd
 * item › items › 15th item › price`. (`path` itself stays as programs read it, counted from 0.)
 */
export const editorPath = (path: string): string => path.replace(/\[(\d+)\]/g, (_, i: string) => ` › ${ordinal(Number(i) + 1)} item`).replaceAll('.', ' › ');

/** A bug in the compiler itself, as opposed to a problem in the content (exit code 70). */
export class InternalError extends Error {
  override name = 'InternalError';
}

/** A wrong option, an unreadable directory, a missing browser: the user's environment (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

const fill = (template: string, vars: Record<string, string | number | undefined>) =>
  template.replace(/\{(\w+)\}/g, (all, name: string) => (vars[name] === undefined ? all : String(vars[name])));

/** The `{name}` slots of a template (not the `{{variables}}` of i18next it may mention). */
type Slots<S extends string> = S extends `${string}{${infer N}}${infer R}` ? (N extends `{${string}` ? Slots<R> : N | Slots<R>) : never;
type Def<C extends ProblemCode> = (typeof PROBLEMS)[C];
/** The variants of a code's message, by name. */
export type VariantOf<C extends ProblemCode> = Def<C> extends { variants: infer V } ? keyof V & string : never;
type Template<C extends ProblemCode, V> = V extends string ? (Def<C> extends { variants: Record<V, infer T extends string> } ? T : never) : Def<C>['message'];
/** The values a code's message (or its variant) and hint need: every slot, typed. */
export type VarsOf<C extends ProblemCode, V = undefined> = Record<Slots<Template<C, V>> | Slots<Def<C>['hint']>, string | number>;

/**
 * A problem from the catalogue: message (or the named variant of it) and hint filled from `vars`;
 * `extra` may add expected, found and a more specific hint (a "did you mean" goes first).
 */
export function catalogued<C extends ProblemCode, V extends VariantOf<C> | undefined = undefined>(
  code: C,
  vars: Partial<VarsOf<C, V>> = {},
  extra: Partial<Pick<Problem, 'expected' | 'found' | 'hint' | 'severity' | 'fix'>> & { variant?: V } = {},
): Omit<Problem, 'file' | 'line' | 'column' | 'path'> {
  const def: ProblemDefinition = PROBLEMS[code];
  const template = extra.variant ? def.variants![extra.variant]! : def.message;
  const values = vars as Record<string, string | number | undefined>;
  return {
    code,
    severity: extra.severity ?? def.severity,
    message: fill(template, values),
    ...(extra.expected !== undefined && { expected: extra.expected }),
    ...(extra.found !== undefined && { found: extra.found }),
    hint: extra.hint ?? fill(def.hint, values),
    ...(extra.fix !== undefined && { fix: extra.fix }),
  };
}

/** The message of a code (or of its named variant), filled from `vars`: for problems built field by field. */
export function messageOf<C extends ProblemCode, V extends VariantOf<C> | undefined = undefined>(code: C, vars: VarsOf<C, V>, variant?: V): string {
  const def: ProblemDefinition = PROBLEMS[code];
  return fill(variant ? def.variants![variant]! : def.message, vars as Record<string, string | number>);
}

/** The named hints of a code. */
export type HintOf<C extends ProblemCode> = Def<C> extends { hints: infer H } ? keyof H & string : never;
type HintTemplate<C extends ProblemCode, H> = H extends string ? (Def<C> extends { hints: Record<H, infer T extends string> } ? T : never) : Def<C>['hint'];

/** The hint of a code (or one of its named hints), filled from `vars`. */
export function hintOf<C extends ProblemCode, H extends HintOf<C> | undefined = undefined>(
  code: C,
  vars: Record<Slots<HintTemplate<C, H>>, string | number>,
  name?: H,
): string {
  const def: ProblemDefinition = PROBLEMS[code];
  return fill(name ? def.hints![name]! : def.hint, vars as Record<string, string | number>);
}

/** The named "expected" (or "found") wordings of a code. */
export type ExpectedOf<C extends ProblemCode> = Def<C> extends { expected: infer E } ? keyof E & string : never;
export type FoundOf<C extends ProblemCode> = Def<C> extends { found: infer F } ? keyof F & string : never;
type ExpectedTemplate<C extends ProblemCode, N> = Def<C> extends { expected: infer E } ? (E[N & keyof E] extends string ? E[N & keyof E] : never) : never;
type FoundTemplate<C extends ProblemCode, N> = Def<C> extends { found: infer F } ? (F[N & keyof F] extends string ? F[N & keyof F] : never) : never;

/** The words of a problem's "expected" line: the catalogue's wording `name` of `code`, filled from `vars`. */
export function expectedOf<C extends ProblemCode, const N extends ExpectedOf<C>>(
  code: C,
  name: N,
  vars: Record<Slots<ExpectedTemplate<C, N>>, string | number>,
): string {
  const def: ProblemDefinition = PROBLEMS[code];
  return fill(def.expected![name]!, vars as Record<string, string | number>);
}

/** The words of a problem's "found" line: the catalogue's wording `name` of `code`, filled from `vars`. */
export function foundOf<C extends ProblemCode, const N extends FoundOf<C>>(
  code: C,
  name: N,
  vars: Record<Slots<FoundTemplate<C, N>>, string | number>,
): string {
  const def: ProblemDefinition = PROBLEMS[code];
  return fill(def.found![name]!, vars as Record<string, string | number>);
}

/** A message template as a pattern: each `{name}` stands for any text. */
const templatePattern = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '[\\s\\S]+')}$`);

/** Whether a message is one the catalogue has for its code (its message or one of its variants, filled in). */
export function fromCatalogue(code: ProblemCode, message: string): boolean {
  const def: ProblemDefinition = PROBLEMS[code];
  return [def.message, ...Object.values(def.variants ?? {})].some((t) => templatePattern(t).test(message));
}

/** The yaml parser's error codes, as catalogue codes. */
export function yamlCode(parserCode: string, severity: Severity): ProblemCode {
  if (severity === 'warning') return 'yaml-note';
  switch (parserCode) {
    case 'TAB_AS_INDENT':
      return 'yaml-tab';
    case 'DUPLICATE_KEY':
      return 'yaml-duplicate-key';
    case 'BAD_INDENT':
      return 'yaml-bad-indent';
    case 'MISSING_CHAR':
      return 'yaml-unclosed';
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return 'yaml-missing-colon';
    case 'MULTIPLE_DOCS':
      return 'yaml-multiple-documents';
    default:
      return 'yaml-syntax';
  }
}
