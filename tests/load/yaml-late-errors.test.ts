import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseSource } from '../../cli/load/source.ts';
import type { Fix, Problem } from '../../cli/report/problem.ts';
import { FIXTURE } from '../helpers/cli.ts';

/**
 * "Late" YAML mistakes in the long files (the FAQ, the price list): one line broken the way editors
 * break it, far below list items our own reading once took for the cause (issue 34: an intact answer
 * paragraph 20-40 lines above was blamed, and its fix damaged it). Each mistake is made on every line
 * it fits in the second half of the file: the one error stands on the broken line, at the column
 * where the editor must act, and its fix, applied, gives the texts the editor meant.
 */

/** A line "key: text" (or "- key: text") with a plain text of a language. */
const TEXT_LINE = /^( *(?:- )?)(ru|en|de): ([^'"|>&*!%@`[{#\s][^#]*)$/;

interface Mistake {
  name: string;
  /** The lines that replace line `n` (0-based index `i` of `lines`), and the lines the editor meant; undefined where it does not fit. */
  make: (lines: string[], i: number) => { broken: string[]; meant: string[]; line: number; column: number } | undefined;
  code: string;
}

const textLine = (l: string) => {
  const m = TEXT_LINE.exec(l);
  return m && !/:\s/.test(m[3]!) ? { lead: m[1]!, key: m[2]!, text: m[3]!, column: m[1]!.length + m[2]!.length + 3 } : undefined;
};

const MISTAKES: Mistake[] = [
  {
    name: 'a Telegram quote pasted with its "> "',
    code: 'yaml-block-sign',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      return t && { broken: [`${t.lead}${t.key}: > ${t.text}`], meant: [lines[i]!], line: i + 1, column: t.column };
    },
  },
  {
    name: 'a block sign "| " in front of a text',
    code: 'yaml-block-sign',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      return t && { broken: [`${t.lead}${t.key}: | ${t.text}`], meant: [lines[i]!], line: i + 1, column: t.column };
    },
  },
  {
    name: 'a non-breaking space after the colon',
    code: 'yaml-invisible-character',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      return t && { broken: [`${t.lead}${t.key}:\u00a0${t.text}`], meant: [lines[i]!], line: i + 1, column: t.column - 1 };
    },
  },
  {
    name: 'an apostrophe inside a text in single quotes',
    code: 'yaml-quote-in-quoted-text',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      if (!t || t.text.includes("'")) return undefined;
      return { broken: [`${t.lead}${t.key}: 'it's ${t.text}'`], meant: [`${t.lead}${t.key}: "it's ${t.text}"`], line: i + 1, column: t.column + 3 };
    },
  },
  {
    name: 'a colon inside a text without quotes',
    code: 'yaml-colon-in-text',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      return t && { broken: [`${t.lead}${t.key}: Note: ${t.text}`], meant: [`${t.lead}${t.key}: "Note: ${t.text}"`], line: i + 1, column: t.column };
    },
  },
  {
    name: 'two languages on one line (the line break lost)',
    code: 'yaml-two-entries-on-one-line',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      const next = textLine(lines[i + 1] ?? '');
      if (!t || !next || next.lead !== t.lead.replace('-', ' ')) return undefined;
      const joined = `${t.lead}${t.key}: ${t.text} ${next.key}: ${next.text}`;
      return { broken: [joined, '\u0000'], meant: [lines[i]!, lines[i + 1]!], line: i + 1, column: t.column + t.text.length + 1 };
    },
  },
  {
    name: "a text's second half pasted at the margin",
    code: 'yaml-text-continued-at-margin',
    make: (lines, i) => {
      const t = textLine(lines[i]!);
      const cut = t ? t.text.indexOf(' ', Math.floor(t.text.length / 2)) : -1;
      if (!t || cut < 0) return undefined;
      const rest = t.text.slice(cut + 1);
      if (/^[-#'"[{|>?*&!%@`]/.test(rest) || /^(ru|en|de)\s/.test(rest) || !rest.includes(' ')) return undefined;
      return { broken: [`${t.lead}${t.key}: ${t.text.slice(0, cut)}`, rest], meant: [lines[i]!], line: i + 2, column: 1 };
    },
  },
];

/** The edits of a fix applied as a tool reading `--format json` would (the same rule as tests/validate/fixtures.test.ts). */
function applyFix(text: string, fix: Fix[]): string {
  const lines = text.split('\n');
  for (const f of [...fix].sort((a, b) => b.line - a.line || b.column - a.column)) {
    const chars = [...lines[f.line - 1]!];
    chars.splice(f.column - 1, f.endColumn - f.column, f.text);
    lines[f.line - 1] = chars.join('');
  }
  return lines.join('\n');
}

const where = (p: Problem) => `${p.file} ${p.line}:${p.column} ${p.code}`;

// Every other line of the FAQ and every fourth of the price list: each kind of line is met many times over.
describe.each([
  ['faq.yaml', 60, 2],
  ['prices.yaml', 120, 4],
])('late mistakes in %s (lines after %i)', (file, from, stride) => {
  const text = readFileSync(join(FIXTURE, file), 'utf8');
  const lines = text.split('\n');
  it.each(MISTAKES)('$name: one error, on the broken line, and a fix that gives the meant texts', (mistake) => {
    let tried = 0;
    for (let i = from; i < lines.length; i += stride) {
      const made = mistake.make(lines, i);
      if (!made) continue;
      tried++;
      const removed = made.broken.filter((l) => l === '\u0000').length;
      const broken = [...lines.slice(0, i), ...made.broken.filter((l) => l !== '\u0000'), ...lines.slice(i + 1 + removed)].join('\n');
      const meant = [...lines.slice(0, i), ...made.meant, ...lines.slice(i + made.meant.length)].join('\n');
      const { problems } = parseSource(file, Buffer.from(broken));
      const context = `line ${i + 1}: ${made.broken.join(' / ')}`;
      expect(problems.map(where), context).toEqual([`${file} ${made.line}:${made.column} ${mistake.code}`]);
      const [p] = problems as [Problem];
      expect(p.hint, context).toMatch(/\w{3}/);
      expect(p.fix, `${context}: no fix`).toBeDefined();
      expect(parse(applyFix(broken, p.fix!)), context).toEqual(parse(meant));
    }
    expect(tried).toBeGreaterThan(5);
  });
});
