import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTempFileOf, tempFileFor, writeFileWhole } from '../../cli/util/atomic-write.ts';
import { tinyDisk } from '../helpers/tiny-disk.ts';

// The one "write to a temp file, then rename" of the compiler (cli/util/atomic-write.ts): the cache,
// the translations' lock file, the site mark, exports and backups.

const root = mkdtempSync(join(tmpdir(), 'studio-atomic-write-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = () => {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir);
  return dir;
};

describe('writeFileWhole', () => {
  it('replaces a file whole, with the mode asked for, and leaves no temp file', () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.json'), 'old');
    writeFileWhole(join(dir, 'a.json'), 'new', { mode: 0o600, sync: true });
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('new');
    expect(statSync(join(dir, 'a.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('fails without a trace where the file cannot be put (a folder stands at its path)', () => {
    const dir = folder();
    mkdirSync(join(dir, 'a.json', 'inside'), { recursive: true });
    expect(() => writeFileWhole(join(dir, 'a.json'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('exclusive: never replaces a file or follows a symlink, and says EEXIST', () => {
    const dir = folder();
    writeFileSync(join(dir, 'kept.csv'), 'a spreadsheet');
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link.csv'));
    for (const name of ['kept.csv', 'link.csv'])
      expect(() => writeFileWhole(join(dir, name), 'export', { exclusive: true })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(join(dir, 'kept.csv'), 'utf8')).toBe('a spreadsheet');
    expect(readdirSync(dir).sort()).toEqual(['kept.csv', 'link.csv']);
    writeFileWhole(join(dir, 'new.csv'), 'export', { exclusive: true, mode: 0o600 });
    expect(readFileSync(join(dir, 'new.csv'), 'utf8')).toBe('export');
  });

  it('names its temp files so that their owner can sweep them, and no two alike', () => {
    const a = tempFileFor('/x/enquiries.jsonl');
    expect(a).not.toBe(tempFileFor('/x/enquiries.jsonl'));
    expect(isTempFileOf(a.slice(3), 'enquiries.jsonl')).toBe(true);
    expect(isTempFileOf(a.slice(3), 'enquiries')).toBe(false);
    expect(isTempFileOf('.enquiries.jsonl.0123456789ab.tmp', 'enquiries.jsonl')).toBe(true);
    expect(isTempFileOf('enquiries.jsonl', 'enquiries.jsonl')).toBe(false);
  });

  const disk = tinyDisk();
  afterAll(() => disk?.cleanup());
  it.skipIf(!disk)('on a full disk: the old file intact, no temp file left, the error thrown; an exclusive write leaves nothing', () => {
    const dir = join(disk!.dir, 'site');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.json'), 'the old file');
    disk!.fill();
    const big = Buffer.alloc(256 * 1024, 7);
    for (const sync of [false, true]) {
      expect(() => writeFileWhole(join(dir, 'a.json'), big, { sync })).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    }
    expect(() => writeFileWhole(join(dir, 'backup.jsonl'), big, { exclusive: true, sync: true })).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(readdirSync(dir)).toEqual(['a.json']);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('the old file');
  });
});
