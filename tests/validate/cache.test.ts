import { lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deserialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { folderCacheFile } from '../../cli/cache/policy.ts';
import { ParseMemo } from '../../cli/incremental/parse-memo.ts';
import { contentCopy, runCli } from '../helpers/cli.ts';
import { later } from '../helpers/clock.ts';

const copy = contentCopy();
afterAll(() => copy.cleanup());

/** Every file of the copy, with its path relative to it. */
const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));

/**
 * validate --format json, with the parse memo on or off. The memo keeps no file written in the last
 * three seconds (a write within one time stamp could pass unseen: parse-memo.ts, RACY_NS): on a copy
 * made just now the "warm" runs below would recall nothing and compare a fresh parse with itself,
 * so every run is made `later`, on a clock past that rule (parse-memo-disk.test.ts shows a file
 * written just now is not kept).
 */
async function validate(cache: boolean) {
  const before = process.env.STUDIO_NO_CACHE;
  process.env.STUDIO_NO_CACHE = cache ? '0' : '1';
  try {
    const r = await later(() => runCli(['validate', '--content', copy.dir, '--format', 'json', '--today', '2026-11-22']));
    return { code: r.code, report: JSON.parse(r.stdout) as { problems: { file: string; line: number; column: number; code: string; path?: string }[] } };
  } finally {
    if (before === undefined) delete process.env.STUDIO_NO_CACHE;
    else process.env.STUDIO_NO_CACHE = before;
  }
}

/** What the memo kept on the disk for the copy: each file's path and the size limit it was read under. */
function kept(): Map<string, number> {
  const saved = deserialize(readFileSync(folderCacheFile('parse-memo', copy.dir, 'v8'))) as { files: Map<string, unknown[]> };
  return new Map([...saved.files].map(([rel, s]) => [rel, s[5] as number]));
}

describe('the parse memo of content validate', () => {
  it('gives exactly what a fresh parse gives, cold, warm, and after a file changed', async () => {
    const fresh = await validate(false);
    const cold = await validate(true); // a folder read for the first time: an empty memo is written
    const second = await validate(true); // the folder is worked on: what it read is kept
    // The memo really holds the files, and the next run recalls them from it by their stats.
    const memo = kept();
    expect(memo.has('courses/vocal.yaml')).toBe(true);
    expect(memo.size).toBeGreaterThanOrEqual(files(copy.dir).filter((f) => f.endsWith('.yaml')).length - 1);
    const opened = ParseMemo.open(copy.dir)!;
    const stats = lstatSync(join(copy.dir, 'courses/vocal.yaml'), { bigint: true });
    const recalled = opened.recall('courses/vocal.yaml', stats, memo.get('courses/vocal.yaml')!);
    expect(recalled?.source?.text).toBe(readFileSync(join(copy.dir, 'courses/vocal.yaml'), 'utf8'));
    const warm = await validate(true);
    expect(cold).toEqual(fresh);
    expect(second).toEqual(fresh);
    expect(warm).toEqual(fresh);
    expect(fresh.report.problems.some((p) => p.code === 'placeholder')).toBe(true);

    // An edit that moves every line of a file down: the warnings move with their lines.
    const file = join(copy.dir, 'courses/vocal.yaml');
    const original = readFileSync(file, 'utf8');
    const [schemaLine, ...rest] = original.split('\n');
    const shifted = [schemaLine, '# a comment', '# and another', ...rest].join('\n');
    writeFileSync(file, shifted);
    const moved = await validate(true);
    expect(moved).toEqual(await validate(false));
    const lines = (r: typeof fresh) => r.report.problems.filter((p) => p.file === 'courses/vocal.yaml' && p.code === 'placeholder').map((p) => p.line);
    expect(lines(fresh).length).toBeGreaterThan(0);
    expect(lines(moved)).toEqual(lines(fresh).map((l) => l + 2));

    // …and a broken value is reported where it now is.
    writeFileSync(file, shifted.replace(/^order: \d+$/m, 'order: first'));
    const broken = await validate(true);
    expect(broken).toEqual(await validate(false));
    expect(broken.code).toBe(1);
    const error = broken.report.problems.find((p) => p.file === 'courses/vocal.yaml' && p.path === 'order')!;
    expect(error.line).toBe(original.split('\n').findIndex((l) => l.startsWith('order:')) + 1 + 2);

    writeFileSync(file, original);
    expect(await validate(true)).toEqual(fresh);
  });

  it('keeps what a check found in a file for that file only, not for a copy with the same bytes', async () => {
    const copyOf = join(copy.dir, 'courses/vocal-copy.yaml');
    writeFileSync(copyOf, readFileSync(join(copy.dir, 'courses/vocal.yaml')));
    try {
      const fresh = await validate(false);
      expect(await validate(true)).toEqual(fresh);
      expect(await validate(true)).toEqual(fresh);
      const files = new Set(fresh.report.problems.filter((p) => p.code === 'placeholder').map((p) => p.file));
      expect(files).toContain('courses/vocal-copy.yaml');
      expect(files).toContain('courses/vocal.yaml');
    } finally {
      rmSync(copyOf);
    }
  });
});
