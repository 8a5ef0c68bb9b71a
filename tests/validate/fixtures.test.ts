import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contentCopy, ROOT, runCli } from '../helpers/cli.ts';

/**
 * Editing mistakes, and harmless edits, as small patches applied to a copy of the live content:
 * a patch that no longer applies fails its case, so the corpus cannot drift from the content.
 * Each case lists every error it gives (exactly), at a line counted from the edited line.
 */
interface Edit {
  file: string;
  /** Text that starts at the beginning of a line; the first such occurrence is replaced. */
  find?: string;
  replace?: string;
  /** Remove a top-level key and the indented lines under it. */
  removeKey?: string;
  append?: string;
  prepend?: string;
  /** Every "\n" written as "\r\n". */
  crlf?: boolean;
  /** The final line break removed. */
  noFinalNewline?: boolean;
}
interface Case {
  name: string;
  why: string;
  edits: Edit[];
  /** "file line:column code": line "+N" counts from the first edited line of that file; "-" for no line. */
  errors?: string[];
  /** Text the hint of the (first) error must contain: the "did you mean", the example. */
  hint?: string;
  /** Warnings the shipped content does not have. */
  warnings?: string[];
}
interface Reported {
  code: string;
  severity: string;
  file: string;
  line?: number;
  column?: number;
  path?: string;
  message: string;
  hint?: string;
}

const corpus = parse(readFileSync(join(ROOT, 'tests/fixtures/editing.yaml'), 'utf8')) as { mistakes: Case[]; harmless: Case[] };
const TODAY = '2026-11-22';

/** Applies the edits to a copy of the content; returns the first edited line of each file. */
function apply(dir: string, edits: Edit[]): Map<string, number> {
  const anchors = new Map<string, number>();
  for (const e of edits) {
    const path = join(dir, e.file);
    let text = readFileSync(path, 'utf8');
    let index = 0;
    if (e.find !== undefined) {
      index = text.startsWith(e.find) ? 0 : text.indexOf(`\n${e.find}`) + 1;
      if (index === 0 && !text.startsWith(e.find)) throw new Error(`The patch no longer applies: "${e.find}" is not in ${e.file}.`);
      text = text.slice(0, index) + (e.replace ?? '') + text.slice(index + e.find.length);
    } else if (e.removeKey !== undefined) {
      const lines = text.split('\n');
      const start = lines.findIndex((l) => l === `${e.removeKey}:` || l.startsWith(`${e.removeKey}: `));
      if (start < 0) throw new Error(`The patch no longer applies: no key "${e.removeKey}" in ${e.file}.`);
      let end = start + 1;
      while (end < lines.length && /^(\s|-)/.test(lines[end]!) && !/^-/.test(lines[end]!)) end++;
      index = lines.slice(0, start).join('\n').length + (start ? 1 : 0);
      text = [...lines.slice(0, start), ...lines.slice(end)].join('\n');
    } else if (e.append !== undefined) {
      index = text.length;
      text += e.append;
    } else if (e.prepend !== undefined) {
      text = e.prepend + text;
    }
    if (e.noFinalNewline) text = text.replace(/\r?\n$/, '');
    if (e.crlf) text = text.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n');
    writeFileSync(path, text);
    if (!anchors.has(e.file)) anchors.set(e.file, text.slice(0, index).split(/\r?\n/).length);
  }
  return anchors;
}

const key = (p: Reported) => `${p.file}|${p.code}|${p.path ?? ''}|${p.message}`;
let baseline: Set<string>;

async function validate(dir: string): Promise<{ code: number; problems: Reported[]; stderr: string }> {
  const { code, stdout, stderr } = await runCli(['validate', '--content', dir, '--format', 'json', '--today', TODAY]);
  return { code, problems: (JSON.parse(stdout) as { problems: Reported[] }).problems, stderr };
}

beforeAll(async () => {
  const copy = contentCopy();
  try {
    baseline = new Set((await validate(copy.dir)).problems.map(key));
  } finally {
    copy.cleanup();
  }
});

/** "prices.yaml 21:15 wrong-type" for a reported problem, with the line relative to the edit when the expectation is. */
function describeReported(p: Reported, anchors: Map<string, number>, relative: boolean, withColumn: boolean): string {
  const anchor = anchors.get(p.file);
  const line = p.line === undefined ? '-' : relative && anchor !== undefined ? `+${p.line - anchor}`.replace('+-', '-') : String(p.line);
  return `${p.file} ${line}${withColumn && p.line !== undefined ? `:${p.column}` : ''} ${p.code}`;
}

function check(c: Case) {
  return async () => {
    const copy = contentCopy();
    try {
      const anchors = apply(copy.dir, c.edits);
      const { code, problems, stderr } = await validate(copy.dir);
      expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      const errors = problems.filter((p) => p.severity === 'error');
      const want = c.errors ?? [];
      // Compare in the form the expectation is written in (relative line or not, with column or not).
      const [, pos = '+0:1'] = (want[0] ?? '').split(' ');
      const relative = pos.startsWith('+') || (pos.startsWith('-') && pos !== '-');
      const got = errors.map((p) => describeReported(p, anchors, relative, pos.includes(':') || pos === '-'));
      expect(got, JSON.stringify(errors, null, 1)).toEqual(want);
      expect(code).toBe(want.length ? 1 : 0);
      for (const p of errors) {
        expect(p.message, p.code).toMatch(/\w/);
        expect(p.hint, `${p.code} has no hint`).toMatch(/\w{3}/);
        expect(`${p.message} ${p.hint}`).not.toMatch(/the text "[^"]*" is not allowed|undefined|\[object/);
      }
      if (c.hint) expect(errors[0]?.hint).toContain(c.hint);
      const added = problems.filter((p) => p.severity === 'warning' && !baseline.has(key(p))).map((p) => `${p.file} ${p.code}`);
      expect(added).toEqual(c.warnings ?? []);
    } finally {
      copy.cleanup();
    }
  };
}

describe('content validate on realistic editing mistakes', () => {
  it('has at least 40 mistakes that each give exactly one error, and 10 harmless edits', () => {
    expect(corpus.mistakes.filter((c) => c.errors?.length === 1).length).toBeGreaterThanOrEqual(40);
    expect(corpus.harmless.length).toBeGreaterThanOrEqual(10);
  });
  for (const c of corpus.mistakes) it(`${c.name}: ${c.why}`, check(c));
});

describe('content validate on harmless edits', () => {
  for (const c of corpus.harmless) it(`${c.name}: ${c.why}`, check({ ...c, errors: [] }));
});
