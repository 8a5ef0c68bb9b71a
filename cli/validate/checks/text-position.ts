import { locate, type PathPart, problemAt, type SourceFile } from '../../load/source.ts';
import type { Problem } from '../../report/problem.ts';

/** Line `n` (1-based) of `text`, without its line break. */
export function lineOf(text: string, n: number): string {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
}

/** The text of the one-line scalar at `path` as the file has it (quotes included); undefined where it spans lines. */
export function writtenText(source: SourceFile, path: readonly PathPart[]): string | undefined {
  const at = locate(source, path);
  if (at.line !== at.endLine) return undefined;
  return lineOf(source.text, at.line).slice(at.column - 1, at.endColumn - 1);
}

/**
 * A problem at the text at `path`, narrowed to where `part` of it is written (the first time it
 * is, within the text's lines): the word or the braces an editor must change, not only the line.
 * Where the file writes it otherwise (an escape in quotes), the problem stays at the whole text.
 */
export function problemAtPart(
  source: SourceFile,
  path: readonly PathPart[],
  part: string,
  problem: Omit<Problem, 'file' | 'line' | 'column' | 'path'>,
): Problem {
  const whole = problemAt(source, path, problem);
  const { line, column, endColumn } = whole;
  if (!line || !column || part.includes('\n')) return whole;
  const endLine = whole.endLine ?? line;
  for (let n = line; n <= endLine; n++) {
    const text = lineOf(source.text, n);
    const from = n === line ? column - 1 : 0;
    const to = n === endLine && endColumn ? endColumn - 1 : text.length;
    const at = text.slice(0, to).indexOf(part, from);
    if (at >= 0) return { ...whole, line: n, column: at + 1, endLine: n, endColumn: at + 1 + part.length };
  }
  return whole;
}

/**
 * Where a line of the text at `path` ends with a backslash, as the file writes it (in a plain or
 * block text a line break is a space or a break, and the backslash before it stays in the text; in a
 * double-quoted one it is an escape that joins the lines, and leaves nothing).
 */
export function backslashAtLineEnd(source: SourceFile, path: readonly PathPart[]): { line: number; column: number } | undefined {
  const at = locate(source, path);
  for (let n = at.line; n <= at.endLine; n++) {
    let text = lineOf(source.text, n);
    if (n === at.endLine) text = text.slice(0, at.endColumn - 1);
    if (n === at.line && text.slice(at.column - 1).startsWith('"')) return undefined;
    const end = text.trimEnd();
    if (end.endsWith('\\') && (n > at.line || end.length >= at.column)) return { line: n, column: end.length };
  }
  return undefined;
}
