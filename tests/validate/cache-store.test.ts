import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeCacheFile } from '../../cli/cache/policy.ts';
import { tinyDisk } from '../helpers/tiny-disk.ts';

// How every cache of the compiler stores a file (cli/cache/policy.ts): whole or not at all, and a
// write that fails leaves nothing behind (a half-written parse memo of a large site is tens of MB).

const root = mkdtempSync(join(tmpdir(), 'studio-cache-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('storeCacheFile', () => {
  it('writes the file whole, creating its folder, and prunes the folder to the newest few', () => {
    const dir = join(root, 'pruned');
    mkdirSync(dir);
    for (let i = 0; i < 4; i++) {
      writeFileSync(join(dir, `old-${i}.v8`), 'old');
      utimesSync(join(dir, `old-${i}.v8`), 1_000_000 + i, 1_000_000 + i); // older than a week: pruned whatever the count
    }
    writeFileSync(join(dir, 'recent.v8'), 'recent');
    expect(storeCacheFile(join(dir, 'new.v8'), 'new', 5)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['new.v8', 'recent.v8']);
    expect(readFileSync(join(dir, 'new.v8'), 'utf8')).toBe('new');
    expect(storeCacheFile(join(root, 'made', 'on', 'demand.v8'), 'x', 5)).toBe(true);
  });

  it('fails without a trace where the file cannot be put (a folder stands at its path)', () => {
    const dir = join(root, 'taken');
    mkdirSync(join(dir, 'entry.v8', 'inside'), { recursive: true });
    expect(storeCacheFile(join(dir, 'entry.v8'), 'x', 5)).toBe(false);
    expect(readdirSync(dir)).toEqual(['entry.v8']);
    expect(readdirSync(join(dir, 'entry.v8'))).toEqual(['inside']);
  });

  const disk = tinyDisk();
  it.skipIf(!disk)('on a full disk: keeps the file it had, removes its half-written temp file, and says it failed', () => {
    try {
      const dir = join(disk!.dir, 'parse');
      mkdirSync(dir);
      writeFileSync(join(dir, 'files.v8'), 'the parse memo of the run before');
      disk!.fill();
      expect(storeCacheFile(join(dir, 'files.v8'), Buffer.alloc(256 * 1024, 7), 20)).toBe(false);
      expect(readdirSync(dir)).toEqual(['files.v8']);
      expect(readFileSync(join(dir, 'files.v8'), 'utf8')).toBe('the parse memo of the run before');
    } finally {
      disk!.cleanup();
    }
  });
});
