import { lstatSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseMemo } from '../../cli/incremental/parse-memo.ts';
import { contentFileLimit } from '../../cli/load/read-content-file.ts';
import { FILE_CHECKS, validateContent } from '../../cli/validate/validate.ts';
import { later } from '../helpers/clock.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

// The parse memo a build or `content validate` keeps on the disk for the next run (ParseMemo.open): a file
// whose identity, size and times (ns) are the stored ones is taken from it unread; anything a stat
// can see makes it read again, and a file written in the last seconds is never kept (racy rule): the
// runs that must keep such files run `later`, on a clock past that rule.
// Each run's problems must be those of a run that reads everything.
const content = syntheticContent(3);
const TODAY = '2026-11-23';
/** A run as `content validate` makes it: with the memo the run before kept, saved for the next. */
function warmNow() {
  const known = ParseMemo.open(content.dir);
  const result = validateContent(content.dir, { today: TODAY, known });
  known?.save(FILE_CHECKS);
  return result;
}
/** The same run on a clock past the racy rule: every file written so far may be kept. */
const warm = () => later(warmNow);
const cold = () => validateContent(content.dir, { today: TODAY });
const COURSE = 'courses/course00000.yaml';

/** What the memo on the disk gives for `rel` as it is now (nothing: it would be read). */
function kept(rel: string) {
  const stats = lstatSync(join(content.dir, rel), { bigint: true });
  return ParseMemo.open(content.dir)?.recall(rel, stats, contentFileLimit(0))?.source;
}

/** A time a file's mtime can be put back to exactly (whole seconds: a Date has no nanoseconds). */
const OLD = new Date('2026-01-01T00:00:00Z');
utimesSync(join(content.dir, COURSE), OLD, OLD);
afterAll(() => content.cleanup());

describe('the parse memo kept on the disk', () => {
  it('gives an unchanged file unread, with the text and data a fresh read gives', async () => {
    await warm();
    expect(kept(COURSE)).toBeUndefined(); // a folder read once gets an empty memo
    await warm();
    const fresh = cold().content.courses.get('course00000')!.source;
    const source = kept(COURSE);
    expect(source?.text).toBe(fresh.text);
    expect(source?.data).toEqual(fresh.data);
    expect((await warm()).problems).toEqual(cold().problems);
  });

  it('does not keep a file written just now, and reads one written with its old size and mtime put back', async () => {
    const file = join(content.dir, COURSE);
    const text = content.read(COURSE);
    const same = text.replace(/^( {2}en: )(.)/m, (_, a, c) => a + (c === 'X' ? 'Y' : 'X'));
    writeFileSync(file, same);
    utimesSync(file, OLD, OLD); // size, inode and mtime as they were: the change time still tells
    expect(warmNow().content.courses.get('course00000')?.source.text).toBe(same);
    expect(kept(COURSE)).toBeUndefined(); // changed within the last seconds: read by every run
    expect((await warm()).content.courses.get('course00000')?.source.text).toBe(same);
    expect(kept(COURSE)?.text).toBe(same);
  });

  it('reads a file saved by rename or touched', async () => {
    const text = content.read('courses/course00001.yaml').replace(/^( {2}ru: )(.*)$/m, '$1Заменён');
    writeFileSync(join(content.dir, 'replacement.tmp'), text);
    renameSync(join(content.dir, 'replacement.tmp'), join(content.dir, 'courses/course00001.yaml'));
    expect(kept('courses/course00001.yaml')).toBeUndefined();
    expect((await warm()).content.courses.get('course00001')?.source.text).toBe(text);
    expect(kept('courses/course00001.yaml')?.text).toBe(text);
    const now = new Date();
    utimesSync(join(content.dir, 'courses/course00002.yaml'), now, now);
    expect(kept('courses/course00002.yaml')).toBeUndefined();
    await warm();
    expect(kept('courses/course00002.yaml')).toBeDefined();
  });

  it('finds the problems a fresh run finds, in files taken from it and in files read again', async () => {
    await warm();
    content.edit('courses/course00001.yaml', (t) => t.replace(/^( {2}de: )(.*)$/m, '$1TODO: später'));
    expect((await warm()).problems).toEqual(cold().problems);
    // A teacher gone: the unchanged courses that name it, taken from the memo, now have errors.
    const teacher = 'teachers/teacher.yaml';
    const removed = content.read(teacher);
    rmSync(join(content.dir, teacher));
    const gone = await warm();
    expect(gone.ok).toBe(false);
    expect(gone.problems).toEqual(cold().problems);
    expect([...gone.sources]).toEqual([...cold().sources]);
    content.write(teacher, removed);
    expect((await warm()).problems).toEqual(cold().problems);
  });

  it('takes translations.yaml back unread, with the problems a fresh run finds in it, and forgets it with the file', async () => {
    content.write('translations.yaml', 'sameInAllLanguages:\n  - 1\nconfirmed: {}\n');
    await warm();
    await warm();
    expect(kept('translations.yaml')).toBeDefined();
    const fresh = cold();
    expect(fresh.problems.filter((p) => p.file === 'translations.yaml').length).toBeGreaterThan(0);
    expect((await warm()).problems).toEqual(fresh.problems);
    rmSync(join(content.dir, 'translations.yaml'));
    expect((await warm()).problems).toEqual(cold().problems);
  });
});
