import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticContent } from '../../bench/synthetic.ts';

/** A small, valid synthetic content directory; `edit` rewrites a file's text. */
export function syntheticContent(courses = 3) {
  const dir = mkdtempSync(join(tmpdir(), 'studio-syn-'));
  writeSyntheticContent(dir, courses);
  return {
    dir,
    read: (file: string) => readFileSync(join(dir, file), 'utf8'),
    edit: (file: string, change: (text: string) => string) => writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8'))),
    write: (file: string, text: string | Buffer) => writeFileSync(join(dir, file), text),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The 1-based line of the first line of `text` that contains `needle`. */
export const lineOf = (text: string, needle: string, from = 0) => {
  const lines = text.split('\n');
  const i = lines.findIndex((l, n) => n >= from && l.includes(needle));
  if (i < 0) throw new Error(`"${needle}" not found`);
  return i + 1;
};
