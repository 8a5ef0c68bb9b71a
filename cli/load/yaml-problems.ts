import type { Document, LineCounter, YAMLError } from 'yaml';
import type { Problem } from '../report/problem.ts';
import { catalogued, expectedOf, foundOf, hintOf, yamlCode } from '../report/problem.ts';
import { count } from '../report/problems.ts';
import { failsAlone, tryFix } from './yaml-fix.ts';
import { yamlPackage } from './yaml-lazy.ts';
import { type At, structuralMistakes } from './yaml-structure.ts';

/**
 * The yaml parser's errors, as an editor needs them: one error per mistake, on the line where the
 * editor must act. A tab, a forgotten colon, a lost list dash or an unclosed quote make the parser
 * stumble over every following line; those follow-up errors are dropped. Tabs are reported on every
 * line that has one; of the other syntax mistakes the first one in the file is reported (fixing it
 * usually makes the rest go away, and what follows it cannot be read reliably).
 */
export function yamlProblems(file: string, text: string, doc: Document.Parsed, lines: LineCounter): Problem[] {
  const { errors, warnings } = doc;
  const src = text.split(/\r?\n/);
  const problems: Problem[] = [];
  const at: At = (code, line, column, vars = {}, { variant, ...extra } = {}) => ({
    ...catalogued(code, vars, { variant: variant as never }),
    file,
    line,
    column,
    ...extra,
  });

  // Tabs: each line indented with one.
  src.forEach((l, i) => {
    const indent = /^[ \t]*/.exec(l)![0];
    if (indent.includes('\t') && l.trim() !== '' && !l.trim().startsWith('#'))
      problems.push(
        at(
          'yaml-tab',
          i + 1,
          indent.indexOf('\t') + 1,
          {},
          {
            endLine: i + 1,
            endColumn: indent.length + 1,
            found: foundOf('yaml-tab', 'tab', {}),
            fix: [{ line: i + 1, column: 1, endColumn: indent.length + 1, text: indent.replaceAll('\t', '  ') }],
          },
        ),
      );
  });
  if (problems.length === 0 && errors.length) {
    const first = [...errors].sort((a, b) => a.pos[0] - b.pos[0])[0]!;
    const a = lines.linePos(first.pos[0]);
    const b = lines.linePos(Math.max(first.pos[0], first.pos[1]));
    const parserSays = () => at('yaml-syntax', a.line, a.col, { detail: firstLine(first.message) }, { endLine: b.line, endColumn: b.col });
    problems.push(mergeConflict(src, at) ?? theMistake(text, src, a.line, () => diagnose(first, a.line, a.col, b, src, at), parserSays, at));
  }
  // A quote left open swallows the following lines up to the next quote of its kind: YAML reads that
  // as one text over several lines, which content never needs, so it is the mistake to point at.
  const { isScalar, visit } = yamlPackage();
  if (problems.length === 0 && errors.length === 0)
    visit(doc, {
      Scalar(_, node) {
        if (problems.length || !isScalar(node) || !node.range || (node.type !== 'QUOTE_DOUBLE' && node.type !== 'QUOTE_SINGLE')) return;
        const a = lines.linePos(node.range[0]);
        const b = lines.linePos(node.range[1]);
        if (a.line === b.line) return;
        // A double-quoted text whose every line but the last ends in a backslash goes on by the editor's own
        // choice: YAML's escaped line break, read as one line without the break.
        if (node.type === 'QUOTE_DOUBLE' && src.slice(a.line - 1, b.line - 1).every((l) => /(?<!\\)(?:\\\\)*\\$/.test(l))) return;
        const quote = node.type === 'QUOTE_DOUBLE' ? '"' : "'";
        problems.push(
          at(
            'yaml-unclosed',
            a.line,
            a.col,
            { quote, line: b.line },
            {
              variant: 'closedLater',
              expected: expectedOf('yaml-unclosed', 'onThisLine', { quote }),
            },
          ),
        );
      },
    });
  for (const w of warnings) {
    const a = lines.linePos(w.pos[0]);
    problems.push(at('yaml-note', a.line, a.col, { detail: firstLine(w.message) }));
  }
  return problems;
}

/**
 * The editor's mistake behind the parser's first error, on line `errorLine`. Our own reading (the typical
 * mistakes of yaml-structure.ts, then the parser's error read more closely) only guesses: a guess is
 * reported where it stands only when it is the cause (its fix, applied, takes the parser's error away,
 * or it is on the parser's line and that line cannot be read on its own). Otherwise the error stays on
 * the parser's line, where a guess one or two lines above may add its words to the hint. A fix is kept
 * only when the file, with it applied, has no syntax error left.
 */
function theMistake(text: string, src: string[], errorLine: number, diagnosed: () => Problem, parserSays: () => Problem, at: At): Problem {
  const near: Problem[] = [];
  // Each guess tried costs a parse of the file: enough for any real file, bounded for a pathological one.
  let tries = MAX_TRIES;
  const verdict = (p: Problem): Problem | undefined => {
    const tried = p.fix && tries-- > 0 ? tryFix(text, p.fix, errorLine) : undefined;
    if (tried?.cause) return tried.valid ? p : withoutFix(p);
    if (p.line === errorLine && failsAlone(src[errorLine - 1]!)) return withoutFix(p);
    if (p.line !== errorLine && errorLine - p.line! <= 2) near.push(p);
    return undefined;
  };
  for (const guess of structuralMistakes(src, errorLine + 1, at)) {
    const found = verdict(guess);
    if (found) return found;
  }
  const said = diagnosed();
  const found = said.line === errorLine ? withoutFixUnless(said, text, errorLine) : verdict(said);
  if (found) return found;
  // The parser's own words at its own place; a guess just above it as a hint.
  const general = parserSays();
  const above = near[0];
  return above ? { ...general, hint: hintOf('yaml-syntax', { line: above.line!, message: above.message }, 'above') } : general;
}

const MAX_TRIES = 24;
const withoutFix = ({ fix: _, ...p }: Problem): Problem => p;
/** A problem on the parser's line, with its fix only when the fix leaves the file without syntax errors. */
const withoutFixUnless = (p: Problem, text: string, errorLine: number): Problem => (p.fix && tryFix(text, p.fix, errorLine).valid ? p : withoutFix(p));

/** Lines left from a merge with a conflict ("<<<<<<< HEAD", "=======", ">>>>>>> main"): the first of them. */
function mergeConflict(src: string[], at: At): Problem | undefined {
  const markers = src.flatMap((l, i) => (/^(<{7}|={7}|>{7})(\s|$)/.test(l) ? [i + 1] : []));
  if (!markers.length) return undefined;
  const line = markers[0]!;
  return at(
    'yaml-merge-conflict',
    line,
    1,
    { lines: markers.join(', ') },
    {
      endLine: line,
      endColumn: src[line - 1]!.trimEnd().length + 1,
      expected: expectedOf('yaml-merge-conflict', 'oneVersion', {}),
      found: foundOf('yaml-merge-conflict', 'marker', { marker: src[line - 1]!.trim() }),
    },
  );
}

const KEY_LINE = /^( *)(- +)?([^\s#'"][^:#]*?):(?:\s+(\S.*))?$/;
const indentOf = (l: string) => /^ */.exec(l)![0].length;
const blank = (l: string | undefined) => l === undefined || /^\s*(#.*)?$/.test(l);
const firstLine = (message: string) =>
  message
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+:?$/, '')
    .replace(/^./, (c) => c.toLowerCase());

function diagnose(error: YAMLError, line: number, column: number, end: { line: number; col: number }, src: string[], at: At): Problem {
  const code = yamlCode(error.code, 'error');
  const text = src[line - 1] ?? '';

  // A list item whose "- " was lost: the line is where a new item of the list above starts.
  const lostDash = lostDashAt(line, src);
  if ((code === 'yaml-duplicate-key' || code === 'yaml-bad-indent' || code === 'yaml-missing-colon') && lostDash)
    return at(
      'yaml-lost-dash',
      line,
      lostDash.column,
      {},
      {
        expected: expectedOf('yaml-lost-dash', 'dash', { what: lostDash.what }),
        found: JSON.stringify(text.trim()),
        // The dash deleted: put it back; replaced by two spaces: those become the dash.
        fix: [{ line, column: lostDash.column, endColumn: lostDash.column + (lostDash.column === indentOf(text) + 1 ? 0 : 2), text: '- ' }],
      },
    );

  if (code === 'yaml-duplicate-key') {
    const m = KEY_LINE.exec(text);
    const key = m?.[3] ?? text.trim();
    const firstAt = firstOccurrence(line, key, src);
    return at('yaml-duplicate-key', line, column, { key, first: firstAt ?? '?' }, { endLine: end.line, endColumn: end.col });
  }

  if (code === 'yaml-missing-colon' || code === 'yaml-bad-indent') {
    const misplaced = missingColon(line, src, at) ?? misindented(line, src, at);
    if (misplaced) return misplaced;
    if (code === 'yaml-bad-indent') return at('yaml-bad-indent', line, column);
  }

  if (code === 'yaml-unclosed') {
    const opened = unclosedQuote(src);
    if (opened) {
      const end = src[opened.line - 1]!.replace(/\s+$/, '').length + 1;
      return at(
        'yaml-unclosed',
        opened.line,
        opened.column,
        {},
        {
          expected: expectedOf('yaml-unclosed', 'quote', { quote: opened.quote }),
          fix: [{ line: opened.line, column: end, endColumn: end, text: opened.quote }],
        },
      );
    }
    // "key" with nothing after it where a value was expected.
    if (/map values/.test(error.message)) {
      const key = text.trim().split(/\s+/)[0] ?? '';
      // Keys are words of Latin letters; anything else is a text where a key was expected.
      if (/^[A-Za-z][\w-]*$/.test(key)) return at('yaml-missing-colon', line, indentOf(text) + 1, { key });
      return at('yaml-syntax', line, column, { detail: firstLine(error.message) });
    }
    return at('yaml-unclosed', line, column);
  }
  if (code === 'yaml-multiple-documents') return at(code, line, column);
  return at('yaml-syntax', line, column, { detail: firstLine(error.message) }, { endLine: end.line, endColumn: end.col });
}

/** The line (or the key line above it) has no colon: "goal" or "ru Вокал". */
function missingColon(line: number, src: string[], at: At): Problem | undefined {
  for (const n of [line, previousLine(line, src)]) {
    const l = src[n - 1];
    if (l === undefined || blank(l) || l.includes(':') || /^\s*-\s/.test(l)) continue;
    if (/^\s*["'[{]/.test(l)) continue;
    const key = l.trim().split(/\s+/)[0]!;
    // Keys are words of Latin letters: "Профессиональная запись…" is a text, not a key.
    if (!/^[A-Za-z][\w-]*$/.test(key)) continue;
    const after = indentOf(l) + 1 + key.length;
    const rest = /^\s*/.exec(l.slice(after - 1))![0].length;
    return at(
      'yaml-missing-colon',
      n,
      indentOf(l) + 1,
      { key },
      {
        endLine: n,
        endColumn: after,
        expected: `"${key}:"`,
        found: `"${key}"`,
        fix: [{ line: n, column: after, endColumn: after + rest, text: rest && l.trim() !== key ? ': ' : ':' }],
      },
    );
  }
  return undefined;
}

/** A line indented deeper than a "key: value" line above it is read as more of that value. */
function misindented(line: number, src: string[], at: At): Problem | undefined {
  const above = KEY_LINE.exec(src[line - 1] ?? '');
  let next = line;
  while (next < src.length && blank(src[next])) next++;
  const deeper = KEY_LINE.exec(src[next] ?? '');
  const spaces = (n: number) => count(n, 'space');
  const before = KEY_LINE.exec(src[previousLine(line, src) - 1] ?? '');
  if (!above?.[4] || !deeper) return undefined;
  if (before && !before[2] && before[1]!.length === deeper[1]!.length && above[1]!.length < before[1]!.length)
    // "en:" moved left between "ru:" and "de:": the line that moved is the mistake.
    return at(
      'yaml-bad-indent',
      line,
      1,
      { key: above[3]!, before: before[3]!, after: deeper[3]! },
      {
        variant: 'left',
        expected: spaces(before[1]!.length),
        found: spaces(above[1]!.length),
        fix: [{ line, column: 1, endColumn: above[1]!.length + 1, text: ' '.repeat(before[1]!.length) }],
      },
    );
  if (deeper[1]!.length <= above[1]!.length) return undefined;
  return at(
    'yaml-bad-indent',
    next + 1,
    deeper[1]!.length + 1,
    { key: deeper[3]!, above: above[3]! },
    {
      variant: 'deeper',
      expected: expectedOf('yaml-bad-indent', 'deeper', { spaces: spaces(above[1]!.length), key: deeper[3]!, above: above[3]! }),
      found: spaces(deeper[1]!.length),
      fix: [{ line: next + 1, column: 1, endColumn: deeper[1]!.length + 1, text: ' '.repeat(above[1]!.length) }],
    },
  );
}

const previousLine = (line: number, src: string[]) => {
  let n = line - 1;
  while (n > 0 && blank(src[n - 1])) n--;
  return n;
};

/** The line where `key` first appears in the same mapping as line `line`. */
function firstOccurrence(line: number, key: string, src: string[]): number | undefined {
  const indent = indentOf(src[line - 1] ?? '');
  for (let n = line - 1; n >= 1; n--) {
    const l = src[n - 1]!;
    if (blank(l)) continue;
    const m = KEY_LINE.exec(l);
    const keyColumn = m ? m[1]!.length + (m[2]?.length ?? 0) : indentOf(l);
    if (m && keyColumn === indent && m[3] === key) return n;
    if (keyColumn < indent) return undefined;
  }
  return undefined;
}

/**
 * Whether line `line` starts a list item that lost its "- ": above it, in the same block, a list
 * item starts with a dash in the same column (the dash was deleted), or its first key is the key
 * of this line in the same column (the dash was replaced by spaces).
 */
function lostDashAt(line: number, src: string[]): { column: number; what: string } | undefined {
  const text = src[line - 1] ?? '';
  if (/^\s*-(\s|$)/.test(text) || blank(text)) return undefined;
  const indent = indentOf(text);
  const key = KEY_LINE.exec(text)?.[3];
  for (let n = line - 1; n >= 1; n--) {
    const l = src[n - 1]!;
    if (blank(l)) continue;
    const dash = /^( *)- +/.exec(l);
    if (dash) {
      const dashIndent = dash[1]!.length;
      if (dashIndent === indent) return { column: indent + 1, what: JSON.stringify(text.trim()) };
      const itemKey = KEY_LINE.exec(l)?.[3];
      if (dash[0].length === indent && key && itemKey === key) return { column: dashIndent + 1, what: JSON.stringify(text.trim()) };
    }
    if (indentOf(l) < indent) return undefined;
  }
  return undefined;
}

/** The first line with a quote opened after "key: " or "- " and never closed on that line. */
function unclosedQuote(src: string[]): { line: number; column: number; quote: string } | undefined {
  for (let i = 0; i < src.length; i++) {
    const m = /^(\s*(?:- +)?(?:[^\s#'"][^:#]*?:\s+)?)(["'])(.*)$/.exec(src[i]!);
    if (!m) continue;
    const [, before, quote, rest] = m as unknown as [string, string, string, string];
    const body = quote === '"' ? rest.replace(/\\./g, '') : rest.replaceAll("''", '');
    if (!body.includes(quote)) return { line: i + 1, column: before.length + 1, quote };
  }
  return undefined;
}
