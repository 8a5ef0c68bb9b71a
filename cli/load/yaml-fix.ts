import type { Fix } from '../report/problem.ts';
import { yamlPackage } from './yaml-lazy.ts';

/**
 * The edits of a fix applied to a text, as a tool applying `fix` from `--format json` does: each puts its
 * text in place of the columns of one line (1-based, in characters); a text with "\n" splits the line.
 * Line ends (LF or CRLF) are kept.
 */
export function applyFix(text: string, fix: readonly Fix[]): string {
  const lines = text.split('\n');
  const sorted = [...fix].sort((a, b) => b.line - a.line || b.column - a.column);
  for (const f of sorted) {
    const line = lines[f.line - 1];
    if (line === undefined) continue;
    const cr = line.endsWith('\r') ? '\r' : '';
    const chars = [...(cr ? line.slice(0, -1) : line)];
    chars.splice(f.column - 1, f.endColumn - f.column, f.text.replaceAll('\n', `${cr}\n`));
    lines[f.line - 1] = chars.join('') + cr;
  }
  return lines.join('\n');
}

/** The lines (1-based, in order) of the syntax errors the yaml parser finds in `text`, read as content is read. */
export function errorLines(text: string): number[] {
  const { LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  return doc.errors.map((e) => lines.linePos(e.pos[0]).line).sort((a, b) => a - b);
}

/** Whether `line` (a line of content YAML) cannot be read even on its own: its indentation and any list dash set aside. */
export function failsAlone(line: string): boolean {
  const alone = line.replace(/^\s*(?:-\s+)?/, '');
  return alone.trim() !== '' && errorLines(alone).length > 0;
}

/**
 * What a fix does to the parser's error on line `errorLine`: `cause` when it takes that error away
 * without an earlier one in its place (so the line it edits is the cause), `valid` when the text has no
 * syntax error left at all.
 */
export function tryFix(text: string, fix: readonly Fix[], errorLine: number): { cause: boolean; valid: boolean } {
  const added = fix.reduce((n, f) => n + f.text.split('\n').length - 1, 0);
  const errors = errorLines(applyFix(text, fix));
  return { cause: errors.length === 0 || errors[0]! > errorLine + added, valid: errors.length === 0 };
}
