import { renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseMemo } from '../../cli/incremental/parse-memo.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

// What `content dev` keeps between saves (ParseMemo): a file whose stats did not change is not read
// again, so its source is the very object of the run before; any change a stat can see makes it
// read again. Files written in the last seconds are read every time (see the racy rule), so the
// content here is left to settle before the memo may trust it.
const content = syntheticContent(3);
const TODAY = '2026-11-23';
const known = new ParseMemo(content.dir);
const validate = () => validateContent(content.dir, { today: TODAY, known });
const sourceOf = (result: ReturnType<typeof validate>, key: string) => result.content.courses.get(key)?.source;
const settle = () => new Promise((r) => setTimeout(r, 3100));

beforeAll(settle, 10_000);
afterAll(() => content.cleanup());

describe('the parse memo of content dev', () => {
  it('keeps the source of an unchanged file, and reads a written one again even with its old size and time put back', async () => {
    const first = validate();
    expect(sourceOf(validate(), 'course00000')).toBe(sourceOf(first, 'course00000')); // settled: not read again
    const file = join(content.dir, 'courses/course00000.yaml');
    const { mtime } = statSync(file);
    const text = content.read('courses/course00000.yaml');
    const same = text.replace(/^( {2}en: )(.)/m, (_, a, c) => a + (c === 'X' ? 'Y' : 'X')); // same size
    writeFileSync(file, same);
    utimesSync(file, mtime, mtime); // the change time still tells
    await settle();
    const after = validate();
    expect(sourceOf(after, 'course00000')?.text).toBe(same);
    expect(sourceOf(after, 'course00001')).toBe(sourceOf(first, 'course00001'));
  }, 10_000);

  it('reads a file replaced by another (a new inode) and forgets one deleted', async () => {
    const text = content.read('courses/course00001.yaml').replace(/^( {2}ru: )(.*)$/m, '$1Заменён');
    const tmp = join(content.dir, 'replacement.tmp');
    writeFileSync(tmp, text);
    renameSync(tmp, join(content.dir, 'courses/course00001.yaml'));
    await settle();
    expect(sourceOf(validate(), 'course00001')?.text).toBe(text);
    const removed = content.read('courses/course00002.yaml');
    rmSync(join(content.dir, 'courses/course00002.yaml'));
    const gone = validate();
    expect(gone.content.courses.has('course00002')).toBe(false);
    expect(gone.ok).toBe(false); // its route and price line now name a course that is not there
    content.write('courses/course00002.yaml', removed);
    expect(validate().ok).toBe(true);
  }, 10_000);

  it('finds the same problems as a run without it', () => {
    content.edit('courses/course00001.yaml', (t) => t.replace(/^( {2}de: )(.*)$/m, '$1TODO: später'));
    const fresh = validateContent(content.dir, { today: TODAY });
    expect(validate().problems).toEqual(fresh.problems);
    expect(validate().problems).toEqual(fresh.problems);
  });
});
