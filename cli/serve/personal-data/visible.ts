/**
 * Characters a visitor can type that act on a terminal or hide what a text says: C0 and C1
 * controls (ESC starts CSI/OSC sequences, U+009B is a one-character CSI), DEL, bidi overrides
 * and isolates, zero-width and other format characters, line and paragraph separators.
 * ZWJ and ZWNJ are left alone: emoji and some scripts need them, and they do nothing to a terminal.
 */
const UNSAFE = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const code = (c: string) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Shows every unsafe character as `\uXXXX` text, so a terminal prints it instead of obeying it. Keeps line breaks when asked. */
export function escapeForTerminal(s: string, { keepNewlines = false } = {}): string {
  return s.replace(UNSAFE, (c) => (keepNewlines && c === '\n' ? c : code(c)));
}

/**
 * Indented JSON whose strings carry no raw unsafe character (JSON.stringify leaves DEL, C1 and
 * bidi characters raw); it parses to the same data. A raw line break can only be indentation.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE, (c) => (c === '\n' ? c : code(c)));
}

/**
 * A cell a spreadsheet will not evaluate: a leading ' before every line that a spreadsheet could
 * take for a formula (= + - @, also after spaces, NBSP or other blank or invisible characters),
 * and before a cell starting with a tab or carriage return.
 */
export function neutraliseFormula(s: string): string {
  return s.replace(/(^|\n)(?=[\s\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r])/gu, "$1'");
}
