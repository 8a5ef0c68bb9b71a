import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBLEMS, type ProblemDefinition, SERVER_CODES } from '../../cli/report/problems.ts';
import { ROOT } from '../helpers/cli.ts';

describe('the problem catalogue', () => {
  it.each(Object.entries(PROBLEMS))('%s: a title, and a message and hint that read as sentences', (_, def) => {
    expect(def.title).toMatch(/^[A-Z]/);
    // A sentence: starts with a capital, a quote or a {value}; ends with a full stop (or the value that ends it).
    for (const text of [def.message, def.hint]) {
      expect(text).toMatch(/^([A-Z"{]|\{\{)/);
      expect(text).toMatch(/(\.|\{\w+\}|\?)$/);
      expect(text).not.toMatch(/the text "[^"]*" is not allowed|The value the/);
    }
  });

  it("is the only place a problem's message is written (the code that reports one fills in the catalogue's words)", () => {
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
    const files = [...sources('cli/validate'), ...sources('cli/i18n'), ...sources('cli/report'), 'cli/commands/validate.ts', 'cli/commands/i18n.ts'];
    const written: string[] = [];
    for (const file of files.filter((f) => f !== 'cli/report/problems.ts')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\bmessage:\s*(['"`])/g)) written.push(`${file}:${text.slice(0, m.index).split('\n').length}`);
      // A hint is taken from the catalogue too (hintOf, or a "did you mean" from SUGGESTIONS); only a
      // hint made from parts (`${…}`) is put together where the parts are known.
      for (const m of text.matchAll(/\bhint:\s*(['"]|`[^$])/g)) written.push(`${file}:${text.slice(0, m.index).split('\n').length} (hint)`);
    }
    expect(written).toEqual([]);
  });

  it('is the only place the words of "expected" and "found" lines and of hints are written (nothing put together elsewhere)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
    const files = [...sources('cli/validate'), ...sources('cli/i18n'), ...sources('cli/report'), 'cli/commands/validate.ts', 'cli/commands/i18n.ts'];
    const written: string[] = [];
    for (const file of files.filter((f) => f !== 'cli/report/problems.ts')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const at = (index: number, what: string) => written.push(`${file}:${text.slice(0, index).split('\n').length} (${what})`);
      // A key of an object (not a label inside a text, as the formatter writes "expected: …").
      for (const m of text.matchAll(/(?<![`'"\w])\b(expected|found|hint):\s*|\.message\s*=\s*/g)) {
        const value = valueAt(text, m.index + m[0].length);
        // Words: a quoted text with a letter in it, or a template with a letter outside its ${…}.
        if (literalWords(value)) at(m.index, `${m[1] ?? 'message'}: ${value.trim().slice(0, 60)}`);
        // A hint (or message) put together from parts: a template or "+" around catalogue words.
        else if ((m[1] === 'hint' || !m[1]) && putTogether(value)) at(m.index, `${m[1] ?? 'message'} put together: ${value.trim().slice(0, 60)}`);
      }
      // The placeholder note is added by the catalogue's withPlaceholderNote, not by hand.
      for (const m of text.matchAll(/\bPLACEHOLDER_NOTE\b/g)) if (!file.startsWith('cli/schema/')) at(m.index, 'PLACEHOLDER_NOTE');
    }
    expect(written).toEqual([]);
  });

  it('catches words written outside the catalogue (the scan above works)', () => {
    // Source as it would be written; "%{" stands for the "$" and "{" that open a template's expression.
    const source = (text: string, start = 0) => valueAt(text.replaceAll('%{', '$' + '{'), start);
    expect(literalWords(source("'nothing here', x"))).toBe(true);
    expect(literalWords(source('`a closing %{quote}`,'))).toBe(true);
    expect(literalWords(source("own ?? 'no route' }"))).toBe(true);
    expect(literalWords(source('`"%{name}"`, next'))).toBe(false);
    expect(literalWords(source('describeValue(e.data) }'))).toBe(false);
    expect(literalWords(source("type === 'integer' ? hintOf('wrong-type', { v: f(g(1)) }, 'whole') : x }"))).toBe(false);
    expect(putTogether(source("hintOf('empty-text', {}) + placeholderNote }"))).toBe(true);
    expect(putTogether(source('`%{format.hint}%{note}` }'))).toBe(true);
    expect(putTogether(valueAt('suggestion?.hint ?? reference.hint }', 0))).toBe(false);
  });

  it('has variants that read as sentences too', () => {
    for (const [code, def] of Object.entries(PROBLEMS) as [string, ProblemDefinition][])
      for (const text of [...Object.values(def.variants ?? {}), ...Object.values(def.hints ?? {})]) {
        expect(text, code).toMatch(/^([A-Z"{]|\{\{)/);
        expect(text, code).toMatch(/(\.|\{\w+\}|\?)$/);
      }
  });

  it('is where every code the compiler reports comes from (no code written elsewhere)', () => {
    const codes = new Set([...Object.keys(PROBLEMS), ...Object.keys(SERVER_CODES)]);
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
    for (const file of sources('cli')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, code] of text.matchAll(/\bcode: '([a-z0-9-]+)'/g)) expect(codes.has(code!), `${file}: ${code}`).toBe(true);
    }
  });
});

/** The expression of a property value starting at `start`: up to the first "," or ";" or closing bracket outside brackets, quotes and templates. */
function valueAt(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') i = skipString(text, i);
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth-- === 0) return text.slice(start, i);
    } else if ((c === ',' || c === ';') && depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** The index of the quote that closes the string (or template, with its ${…}) opened at `i`. */
function skipString(text: string, i: number): number {
  const quote = text[i]!;
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
    else if (quote === '`' && text[i] === '$' && text[i + 1] === '{') i = skipTo(text, i + 1);
  }
  return i;
}

/** The index of the bracket that closes the one at `i`, past strings. */
function skipTo(text: string, i: number): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') i = skipString(text, i);
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && --depth === 0) return i;
  }
  return i;
}

/** The catalogue's functions, whose arguments are codes and names (not words): they take words from it. */
const FROM_CATALOGUE = /\b(hintOf|expectedOf|foundOf|messageOf|catalogued|withPlaceholderNote|fill|suggestionText|editorMessage)\(/g;

/** An expression without the calls of the catalogue's functions and without comparisons with a string ('string', 'integer'). */
function outsideCatalogue(expression: string): string {
  let out = '';
  let last = 0;
  for (const m of expression.matchAll(FROM_CATALOGUE)) {
    if (m.index < last) continue;
    out += expression.slice(last, m.index);
    last = skipTo(expression, m.index + m[0].length - 1) + 1;
  }
  return (out + expression.slice(last)).replace(/[=!]==?\s*(['"])[^'"]*\1|(['"])[^'"]*\2\s*[=!]==?/g, '');
}

/** Whether an expression holds words: a quoted text with two letters in a row, or a template with them outside its ${…}. */
function literalWords(expression: string): boolean {
  const text = outsideCatalogue(expression);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "'" && c !== '"' && c !== '`') continue;
    const end = skipString(text, i);
    let words = text.slice(i + 1, end);
    // In a template, only the text outside its ${…}; the expressions inside are checked as expressions.
    if (c === '`') {
      let outside = '';
      for (let j = 0; j < words.length; j++) {
        if (words[j] === '$' && words[j + 1] === '{') {
          const close = skipTo(words, j + 1);
          if (literalWords(words.slice(j + 2, close))) return true;
          j = close;
        } else outside += words[j];
      }
      words = outside;
    }
    if (/[A-Za-z]{2}/.test(words)) return true;
    i = end;
  }
  return false;
}

/** Whether an expression puts a text together: a template, or "+" between parts. */
const putTogether = (expression: string) => /`|(^|[^+])\+(?!\+)/.test(outsideCatalogue(expression));
