/** How many characters of a source line a frame shows: a longer line is cut to a window around the column. */
const WIDTH = 100;
/** How many characters of the window lie before the column, when the line is cut. */
const BEFORE = 30;

/**
 * A character a terminal would obey rather than show (an escape sequence's start, a bell, a
 * carriage return, a right-to-left override that reorders what follows), shown as one visible
 * character instead, so a file cannot paint over the report and the caret stays under its column:
 * C0 controls as their Control Pictures (␛ for ESC), DEL as ␡, C1 controls and bidirectional
 * overrides and isolates as �. A tab is shown as →.
 */
function visible(line: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\t') return '→';
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? '␡' : '\ufffd';
  });
}

/** The first index of the window shown of lines up to `longest` characters, so that `column` is in it. */
function windowStart(longest: number, column: number): number {
  if (longest <= WIDTH) return 0;
  return Math.max(0, Math.min(column - 1 - BEFORE, longest - WIDTH));
}

/** `src` cut to [start, start + WIDTH), with "…" where something was left out (never half of a surrogate pair). */
function cut(src: string, start: number): string {
  if (start === 0 && src.length <= WIDTH) return src;
  let from = Math.min(start, src.length);
  if (/[\udc00-\udfff]/.test(src[from] ?? '')) from++;
  let to = Math.min(src.length, start + WIDTH);
  if (to < src.length && /[\ud800-\udbff]/.test(src[to - 1] ?? '')) to--;
  return `${start > 0 ? '…' : ''}${src.slice(from, to)}${to < src.length ? '…' : ''}`;
}

/**
 * A few lines of source around a position, with a caret under the problem (1-based line and
 * column, in UTF-16 code units as the yaml parser counts). A line longer than 100 characters is
 * shown as a window around the column (a 60,000-character title is not printed whole), and
 * control characters as visible ones.
 */
export function codeFrame(text: string, line: number, column: number, endColumn?: number, color = (s: string) => s): string {
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const shown = lines.slice(first - 1, last).map(visible);
  const start = windowStart(Math.max(...shown.map((s) => s.length)), column);
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const marker = n === line ? '>' : ' ';
    const src = shown[n - first] ?? '';
    out.push(`${marker} ${String(n).padStart(width)} | ${cut(src, start)}`);
    if (n === line) {
      const length = Math.max(1, (endColumn && endColumn > column ? endColumn : column + 1) - column);
      const span = Math.min(length, Math.max(1, src.length - column + 1), start + WIDTH - column + 1);
      const at = column - 1 - start + (start > 0 ? 1 : 0);
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, at))}${color('^'.repeat(Math.max(1, span)))}`);
    }
  }
  return out.join('\n');
}
