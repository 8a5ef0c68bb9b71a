import { renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseMemo } from '../../cli/incremental/parse-memo.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import { later } from '../helpers/clock.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

// What `content dev` keeps between saves (ParseMemo): a file whose stats did not change is not read
// again, so its source is the very object of the run before; any change a stat can see makes it
// read again. Files written in the last seconds are read every time (see the racy rule), so the
// runs that must recall them run `later`, on a clock past that rule.
const content = syntheticContent(3);
const TODAY = '2026-11-23';
const known = new ParseMemo(content.dir);
const validateNow = () => validateContent(content.dir, { today: TODAY, known });
/** A run on a clock past the racy rule: every file written so far may be recalled. */
const validate = () => later(validateNow);
const sourceOf = (result: ReturnType<typeof validateNow>, key: string) => result.content.courses.get(key)?.source;

/** A time a file's mtime can be put back to exactly (whole seconds: a Date has no nanoseconds). */
const OLD = new Date('2026-01-01T00:00:00Z');
utimesSync(join(content.dir, 'courses/course00000.yaml'), OLD, OLD);
afterAll(() => content.cleanup());

describe('the parse memo of content dev', () => {
  it('keeps the source of an unchanged file, and reads a written one again even with its old size and time put back', async () => {
    const first = await validate();
    expect(sourceOf(await validate(), 'course00000')).toBe(sourceOf(first, 'course00000')); // recalled: not read again
    const file = join(content.dir, 'courses/course00000.yaml');
    const text = content.read('courses/course00000.yaml');
    const same = text.replace(/^( {2}en: )(.)/m, (_, a, c) => a + (c === 'X' ? 'Y' : 'X')); // same size
    writeFileSync(file, same);
    utimesSync(file, OLD, OLD); // size, inode and mtime as they were: the change time still tells
    const after = await validate();
    expect(sourceOf(after, 'course00000')?.text).toBe(same);
    expect(sourceOf(after, 'course00001')).toBe(sourceOf(first, 'course00001'));
  });

  it('reads a file replaced by another (a new inode) and forgets one deleted', async () => {
    const text = content.read('courses/course00001.yaml').replace(/^( {2}ru: )(.*)$/m, '$1Заменён');
    const tmp = join(content.dir, 'replacement.tmp');
    writeFileSync(tmp, text);
    renameSync(tmp, join(content.dir, 'courses/course00001.yaml'));
    expect(sourceOf(await validate(), 'course00001')?.text).toBe(text);
    const removed = content.read('courses/course00002.yaml');
    rmSync(join(content.dir, 'courses/course00002.yaml'));
    const gone = await validate();
    expect(gone.content.courses.has('course00002')).toBe(false);
    expect(gone.ok).toBe(false); // its route and price line now name a course that is not there
    content.write('courses/course00002.yaml', removed);
    expect((await validate()).ok).toBe(true);
  });

  it('finds the same problems as a run without it', async () => {
    content.edit('courses/course00001.yaml', (t) => t.replace(/^( {2}de: )(.*)$/m, '$1TODO: später'));
    const fresh = validateContent(content.dir, { today: TODAY });
    expect(validateNow().problems).toEqual(fresh.problems); // written just now: read again
    expect((await validate()).problems).toEqual(fresh.problems);
    expect((await validate()).problems).toEqual(fresh.problems); // recalled, with what its checks found
  });
});
