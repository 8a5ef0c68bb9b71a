import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Fix, fromCatalogue } from '../../cli/report/problem.ts';
import type { ProblemCode } from '../../cli/report/problems.ts';
import { contentCopy, ROOT, runCli } from '../helpers/cli.ts';
import { readersAgree } from '../helpers/readers.ts';

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
  /** The file deleted. */
  delete?: boolean;
  /** The file (as edited so far) copied to this path. */
  copyTo?: string;
  /** The file saved in this encoding instead of UTF-8 (windows-1251). */
  encoding?: string;
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
  /** The first error carries no fix, only a hint (the editor must decide, e.g. which encoding to save in). */
  noFix?: boolean;
  /** What the editor meant, as edits to the content as it was (by default the content as it was): the fixes must give its texts. */
  intended?: Edit[];
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
  fix?: Fix[];
}

const corpus = parse(readFileSync(join(ROOT, 'tests/fixtures/editing.yaml'), 'utf8')) as { mistakes: Case[]; harmless: Case[] };
const TODAY = '2026-11-22';

/** Applies the edits to a copy of the content; returns the first edited line of each file. */
function apply(dir: string, edits: Edit[]): Map<string, number> {
  const anchors = new Map<string, number>();
  for (const e of edits) {
    const path = join(dir, e.file);
    if (e.delete) {
      rmSync(path);
      continue;
    }
    let text = readFileSync(path, 'utf8');
    if (e.copyTo !== undefined) {
      writeFileSync(join(dir, e.copyTo), text);
      continue;
    }
    if (e.encoding !== undefined) {
      writeFileSync(path, encode(text, e.encoding));
      if (!anchors.has(e.file)) anchors.set(e.file, 1);
      continue;
    }
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

/** `text` in a single-byte encoding (windows-1251), by decoding every byte of it once. */
function encode(text: string, encoding: string): Buffer {
  const decoder = new TextDecoder(encoding);
  const byChar = new Map<string, number>();
  for (let b = 0; b < 256; b++) byChar.set(decoder.decode(Uint8Array.of(b)), b);
  return Buffer.from([...text].map((c) => byChar.get(c) ?? 0x3f));
}

/** The edits of a fix applied to a file's text (each on one line, counted in characters). */
function applyFix(text: string, fix: Fix[]): string {
  const lines = text.split('\n');
  const sorted = [...fix].sort((a, b) => b.line - a.line || b.column - a.column);
  for (const f of sorted) {
    const chars = [...lines[f.line - 1]!];
    chars.splice(f.column - 1, f.endColumn - f.column, f.text);
    lines[f.line - 1] = chars.join('');
  }
  return lines.join('\n');
}

/** Of each mistake: one error, at the line expected, with a fix that works (where it is certain). */
const score: { name: string; one: boolean; fixed: boolean | undefined }[] = [];
afterAll(() => {
  const one = score.filter((s) => s.one).length;
  const fixable = score.filter((s) => s.fixed !== undefined);
  console.log(
    `editing corpus: ${corpus.mistakes.length} mistakes (${corpus.mistakes.filter((c) => c.errors?.length).length} with errors); ${one} give exactly the expected error(s); ${fixable.filter((s) => s.fixed).length} of ${fixable.length} carry a fix that, applied, leaves the content without errors`,
  );
});

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
      readersAgree(copy.dir, TODAY); // the fast path reads the edited files as `yaml` does
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
      for (const p of problems.filter((x) => x.severity === 'error' || !baseline.has(key(x)))) {
        // What users see is what the catalogue (and docs/problems.md) says.
        expect(fromCatalogue(p.code as ProblemCode, p.message), `${p.code}: "${p.message}" is not in cli/report/problems.ts`).toBe(true);
      }
      for (const p of errors) {
        expect(p.message, p.code).toMatch(/\w/);
        expect(p.hint, `${p.code} has no hint`).toMatch(/\w{3}/);
        expect(`${p.message} ${p.hint}`).not.toMatch(/the text "[^"]*" is not allowed|undefined|\[object/);
      }
      if (c.hint) expect(errors[0]?.hint).toContain(c.hint);
      const added = problems.filter((p) => p.severity === 'warning' && !baseline.has(key(p))).map((p) => `${p.file} ${p.code}`);
      expect(added).toEqual(c.warnings ?? []);
      // Every fix offered, applied: the content is valid again, and every text is the one the editor meant.
      const first = errors[0];
      const entry: (typeof score)[number] = { name: c.name, one: true, fixed: undefined };
      const offered = problems.filter((p) => p.fix && (p.severity === 'error' || !baseline.has(key(p))));
      if (c.noFix) expect(first?.fix, `${first?.code} offers a fix, but none is certain here`).toBeUndefined();
      else if (errors.some((p) => !p.fix)) expect.fail(`${errors.find((p) => !p.fix)!.code} has no fix; mark the case noFix if none can be certain`);
      if (offered.length && !c.noFix) {
        const files = [...new Set(offered.map((p) => p.file))];
        for (const file of files) {
          const path = join(copy.dir, file);
          writeFileSync(
            path,
            applyFix(
              readFileSync(path, 'utf8'),
              offered.filter((p) => p.file === file).flatMap((p) => p.fix!),
            ),
          );
        }
        const again = (await validate(copy.dir)).problems.filter((p) => p.severity === 'error' || (p.fix && !baseline.has(key(p))));
        expect(again, `after the fixes ${JSON.stringify(offered.map((p) => p.fix))}`).toEqual([]);
        const meant = contentCopy();
        try {
          apply(meant.dir, c.intended ?? []);
          for (const file of files)
            expect(parse(readFileSync(join(copy.dir, file), 'utf8')), `${file}: the texts after the fix are not the ones meant`).toEqual(
              parse(readFileSync(join(meant.dir, file), 'utf8')),
            );
        } finally {
          meant.cleanup();
        }
        entry.fixed = true;
      }
      if (c.errors?.length) score.push(entry);
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
