/** A few lines of source around a position, with a caret under the problem (1-based line and column). */
export function codeFrame(text: string, line: number, column: number, endColumn?: number, color = (s: string) => s): string {
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const marker = n === line ? '>' : ' ';
    const src = (lines[n - 1] ?? '').replaceAll('\t', '→');
    out.push(`${marker} ${String(n).padStart(width)} | ${src}`);
    if (n === line) {
      const length = Math.max(1, (endColumn && endColumn > column ? endColumn : column + 1) - column);
      const span = Math.min(length, Math.max(1, src.length - column + 1));
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}${color('^'.repeat(span))}`);
    }
  }
  return out.join('\n');
}
