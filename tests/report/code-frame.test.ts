import { describe, expect, it } from 'vitest';
import { isScalar, LineCounter, parseDocument } from 'yaml';
import { codeFrame } from '../../cli/report/code-frame.ts';

const TEXT = ['route: /vocal', 'order: 1', 'price:', '  amount: 40 €', '  per: month', 'audience: adults'].join('\n');

describe('codeFrame', () => {
  it('shows two lines before and one after, numbered, with a caret under the column', () => {
    expect(codeFrame(TEXT, 4, 11).split('\n')).toEqual(['  2 | order: 1', '  3 | price:', '> 4 |   amount: 40 €', '    |           ^', '  5 |   per: month']);
  });

  it('underlines up to the end column, and no further than the line', () => {
    expect(codeFrame(TEXT, 4, 11, 15).split('\n')[3]).toBe('    |           ^^^^');
    // An end past the line's end: the caret stops at its last character.
    expect(codeFrame(TEXT, 4, 11, 40).split('\n')[3]).toBe('    |           ^^^^');
    // An end at or before the column: one caret.
    expect(codeFrame(TEXT, 4, 11, 11).split('\n')[3]).toBe('    |           ^');
    expect(codeFrame(TEXT, 4, 11, 3).split('\n')[3]).toBe('    |           ^');
    // A column past the end of the line (a missing value): one caret there.
    expect(codeFrame(TEXT, 3, 8).split('\n')).toContain('    |        ^');
  });

  it('has no lines before the first line nor after the last', () => {
    expect(codeFrame(TEXT, 1, 1).split('\n')).toEqual(['> 1 | route: /vocal', '    | ^', '  2 | order: 1']);
    expect(codeFrame(TEXT, 6, 11).split('\n')).toEqual(['  4 |   amount: 40 €', '  5 |   per: month', '> 6 | audience: adults', '    |           ^']);
    expect(codeFrame('only: line', 1, 7, 11).split('\n')).toEqual(['> 1 | only: line', '    |       ^^^^']);
  });

  it('pads line numbers to the widest one shown', () => {
    const text = Array.from({ length: 12 }, (_, i) => `line${i + 1}: x`).join('\n');
    expect(codeFrame(text, 9, 8).split('\n')).toEqual(['   7 | line7: x', '   8 | line8: x', '>  9 | line9: x', '     |        ^', '  10 | line10: x']);
  });

  it('reads Windows line ends without showing the carriage return', () => {
    const frame = codeFrame(TEXT.replaceAll('\n', '\r\n'), 4, 11, 15);
    expect(frame).not.toContain('\r');
    expect(frame.split('\n')[2]).toBe('> 4 |   amount: 40 €');
  });

  it('shows a tab as one arrow, so the caret stays under the column counted in characters', () => {
    // YAML refuses tab indentation; the frame must show where the tab is.
    const frame = codeFrame('title:\n\tru: Вокал\n', 2, 1, 2).split('\n');
    expect(frame).toEqual(['  1 | title:', '> 2 | →ru: Вокал', '    | ^', '  3 | ']);
    // After a tab: the caret stays under the same character.
    const after = codeFrame('a:\t<b>', 1, 4, 7).split('\n');
    expect(after[0]).toBe('> 1 | a:→<b>');
    expect(after[1]).toBe('    |    ^^^');
    expect(after[0]!.indexOf('<')).toBe(after[1]!.indexOf('^'));
  });

  it('counts columns in UTF-16 code units, as the yaml parser does: the caret lands under the same character after Cyrillic or an emoji', () => {
    for (const line of ['title: Хор <b>для</b> взрослых', 'title: 🎵 Хор <b>для</b>']) {
      const lines = new LineCounter();
      const doc = parseDocument(line, { lineCounter: lines });
      const value = doc.get('title', true);
      if (!isScalar(value) || !value.range) throw new Error('no title');
      const tag = value.range[0] + String(value.value).indexOf('<');
      const { line: n, col } = lines.linePos(tag);
      const [src, caret] = codeFrame(line, n, col, col + 3).split('\n') as [string, string];
      expect(caret.indexOf('^')).toBe(src.indexOf('<b>'));
      expect(caret.slice(caret.indexOf('^'))).toBe('^^^');
    }
  });

  it('colours only the carets', () => {
    const frame = codeFrame(TEXT, 4, 11, 15, (s) => `[${s}]`);
    expect(frame.split('\n')[3]).toBe('    |           [^^^^]');
    expect(frame.match(/\[/g)).toHaveLength(1);
  });
  it('shows a window around the column of a line longer than 100 characters, marked with "…", not the whole line', () => {
    const word = 'Б'.repeat(60_000);
    const text = `route: /vocal\ntitle: ${word}x\norder: 1`;
    const frame = codeFrame(text, 2, 8 + 60_000, 8 + 60_001).split('\n');
    expect(frame.every((l) => l.length < 120)).toBe(true);
    expect(frame[1]).toMatch(/^> 2 \| …Б+x$/);
    // The caret stays under the character it names.
    expect(frame[2]!.indexOf('^')).toBe(frame[1]!.indexOf('x'));
    // The start of a long line: cut at its end only.
    const head = codeFrame(text, 2, 1).split('\n');
    expect(head[1]).toMatch(/^> 2 \| title: Б+…$/);
    expect(head[2]).toBe('    | ^');
    // A short line beside a long one is shown whole when the window starts at 0.
    expect(head[0]).toBe('  1 | route: /vocal');
  });

  it("never cuts an emoji in half at the window's edges", () => {
    const text = `title: ${'🎵'.repeat(200)}`;
    for (const column of [100, 101, 201, 202]) {
      const [src] = codeFrame(text, 1, column).split('\n') as [string];
      expect(src).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });

  it('shows control characters as visible ones: a file cannot send escape sequences to the terminal or reorder the line', () => {
    const frame = codeFrame('title: \u001b[2Jx\u0007y\u007f\u202ez\u0085', 1, 12);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be left
    expect(frame).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    const [src, caret] = frame.split('\n') as [string, string];
    expect(src).toBe('> 1 | title: ␛[2Jx␇y␡\ufffdz\ufffd');
    expect(src[caret.indexOf('^')]).toBe('x');
  });
});
