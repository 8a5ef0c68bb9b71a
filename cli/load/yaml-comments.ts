import { catalogued, expectedOf, formatPath, foundOf, hintOf, type Problem } from '../report/problem.ts';
import type { PathPart, SourceFile } from './source.ts';
import { quoted, shorten } from './yaml-text-mistakes.ts';

/**
 * A "#" after a space starts a comment in YAML, even in a text without quotes: "Поём вместе #вокал"
 * is read as "Поём вместе", and "en: #1 choir" as an empty value. The parser accepts both, so the
 * editor is told here, where the text lost its words. A note after a number (`order: 14  # after
 * choir`) or after a quoted text is a comment as meant, and is left alone.
 */

/** A space, then "#" and no space after it: a hashtag or "#1", not "# a note". */
const HASHTAG = /\S +#[^\s#]/;

/**
 * The problem of a text cut short by a comment: the texts of `source` written without quotes whose
 * line goes on after them with " #word" (a warning: a note may be meant, but visitors miss the words).
 */
export function textsCutByComment(source: SourceFile): Problem[] {
  const text = source.text;
  if (!HASHTAG.test(text)) return [];
  const lines = text.split(/\r?\n/);
  const problems: Problem[] = [];
  const path: PathPart[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      const cut = cutAt(source, lines, path, value);
      if (cut) problems.push(cut);
    } else if (Array.isArray(value))
      value.forEach((v, i) => {
        path.push(i);
        visit(v);
        path.pop();
      });
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        path.push(k);
        visit(v);
        path.pop();
      }
  };
  visit(source.data);
  return problems;
}

function cutAt(source: SourceFile, lines: string[], path: PathPart[], value: string): Problem | undefined {
  const at = source.find(path, false);
  const first = lines[at.line - 1] ?? '';
  const last = lines[at.endLine - 1] ?? '';
  if (`'"`.includes(first[at.column - 1] ?? '"')) return undefined;
  const m = /^( +)(#\S.*?)\s*$/.exec(last.slice(at.endColumn - 1));
  if (!m) return undefined;
  const comment = m[2]!;
  const whole = at.line === at.endLine ? `${value}${m[1]}${comment}` : undefined;
  const key = keyOf(path);
  return Object.assign(
    catalogued(
      'yaml-comment-in-text',
      { key, comment, shown: shorten(value), fixed: `${key}: ${quoted(shorten(whole ?? value))}` },
      {
        variant: 'cut',
        severity: 'warning',
        hint: hintOf('yaml-comment-in-text', { fixed: `${key}: ${quoted(shorten(whole ?? value))}` }, 'cut'),
        expected: expectedOf('yaml-comment-in-text', 'text', {}),
        found: foundOf('yaml-comment-in-text', 'comment', { comment }),
        // Only a text on one line is put in quotes whole: the fix is that line's columns.
        ...(whole !== undefined && { fix: [{ line: at.line, column: at.column, endColumn: last.trimEnd().length + 1, text: quoted(whole) }] }),
      },
    ),
    { file: source.file, path: formatPath(path), line: at.line, column: at.column, endLine: at.endLine, endColumn: last.trimEnd().length + 1 },
  );
}

/**
 * The problem of a value emptied by a comment: "key: #…" on `line`, for the schema's "empty value"
 * there. Undefined when the line is not written so.
 */
export function emptiedByComment(lineText: string, line: number): Omit<Problem, 'file' | 'path'> | undefined {
  const m = /^( *(?:- +)?)([^\s#'"][^:#]*?):( +)(#.*?)\s*$/.exec(lineText);
  if (!m) return undefined;
  const key = m[2]!.trim();
  const rest = m[4]!;
  const column = m[1]!.length + m[2]!.length + 1 + m[3]!.length + 1;
  return {
    ...catalogued(
      'yaml-comment-in-text',
      { key, fixed: `${key}: ${quoted(shorten(rest))}` },
      {
        expected: expectedOf('yaml-comment-in-text', 'text', {}),
        found: foundOf('yaml-comment-in-text', 'comment', { comment: shorten(rest) }),
        fix: [{ line, column, endColumn: column + rest.length, text: quoted(rest) }],
      },
    ),
    line,
    column,
    endLine: line,
    endColumn: column + rest.length,
  };
}

const keyOf = (path: PathPart[]) => String([...path].reverse().find((p) => typeof p === 'string') ?? '');
