import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readListedFile } from '../../cli/load/read-content-file.ts';

/**
 * The short way of reading a file its folder's listing showed as a regular file (cli/load/load.ts)
 * reads it only while it still is a regular file at that very path: whatever was put there since
 * the listing (a link out, a FIFO, a folder, a file too large) gives undefined, and the file is then
 * read the careful way (readContentFile, whose answers tests/validate/confined-reading.test.ts checks).
 */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'studio-listed-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const content = join(base, 'content');
const courses = join(content, 'courses');
mkdirSync(courses, { recursive: true });
mkdirSync(join(base, 'outside'));
writeFileSync(join(base, 'outside', 'secret.yaml'), 'secret: yes\n');

describe.runIf(process.platform === 'linux')('readListedFile', () => {
  it('reads a regular file at the listed path, and one it is a hard link of', () => {
    writeFileSync(join(courses, 'vocal.yaml'), 'title: Vocal\n');
    expect(readListedFile(courses, 'vocal.yaml', 1024)?.toString()).toBe('title: Vocal\n');
    linkSync(join(courses, 'vocal.yaml'), join(courses, 'hard.yaml'));
    expect(readListedFile(courses, 'hard.yaml', 1024)?.toString()).toBe('title: Vocal\n');
  });

  it('leaves to the careful reader a link put where a file was listed, in or out of the content folder', () => {
    symlinkSync(join(base, 'outside', 'secret.yaml'), join(courses, 'out.yaml'));
    symlinkSync(join(courses, 'vocal.yaml'), join(courses, 'in.yaml'));
    expect(readListedFile(courses, 'out.yaml', 1024)).toBeUndefined();
    expect(readListedFile(courses, 'in.yaml', 1024)).toBeUndefined();
  });

  it('leaves to it a FIFO (without blocking), a folder, a file gone, and one over the size limit', () => {
    execFileSync('mkfifo', [join(courses, 'fifo.yaml')]);
    mkdirSync(join(courses, 'folder.yaml'));
    writeFileSync(join(courses, 'big.yaml'), 'x: '.padEnd(2048, 'y'));
    expect(readListedFile(courses, 'fifo.yaml', 1024)).toBeUndefined();
    expect(readListedFile(courses, 'folder.yaml', 1024)).toBeUndefined();
    expect(readListedFile(courses, 'gone.yaml', 1024)).toBeUndefined();
    expect(readListedFile(courses, 'big.yaml', 1024)).toBeUndefined();
  });

  it('leaves to it a file reached through a folder that became a link (out of the content folder) after the listing', () => {
    // The listing's real path now leads through a link: the open file's path is not the listed one.
    const swapped = join(content, 'swapped');
    symlinkSync(join(base, 'outside'), swapped);
    expect(readListedFile(swapped, 'secret.yaml', 1024)).toBeUndefined();
  });
});
