import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { expectedOf, foundOf, hintOf, messageOf, type Problem } from '../report/problem.ts';

/** A content file is a page of YAML, not a data dump: anything bigger is refused unread. */
export const MAX_CONTENT_FILE_BYTES = 1024 * 1024;
/** What a file that lists every course or teacher (routes.yaml, translations.yaml) may grow by per entry. */
const BYTES_PER_ENTRY = 4 * 1024;

/**
 * The size limit for the content files of a site with `entries` course and teacher files: 1 MB,
 * or 4 KB per entry where that is more, since routes.yaml and the translation lock list every
 * course (a site of 5000 courses has a 2.7 MB routes.yaml). Reading is bounded by it either way.
 */
export const contentFileLimit = (entries: number) => Math.max(MAX_CONTENT_FILE_BYTES, entries * BYTES_PER_ENTRY);

const MB = (n: number) => `${Number((n / (1024 * 1024)).toFixed(2))} MB`;

/**
 * The content folder as the boundary every read is checked against: its real path, so a
 * `--content` given through a link works and a link inside it cannot lead out unnoticed.
 */
export function contentRoot(dir: string): string {
  return realpathSync.native(dir);
}

/** Whether `path` (a real path) is `root` or lies below it. */
const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (rel.split(sep)[0] !== '..' && !isAbsolute(rel));
};

/** The codes of the problems that keep a file from being read at all. */
export const READ_REFUSALS = new Set(['outside-content', 'not-a-file', 'file-too-large', 'symlink-loop', 'broken-link', 'unreadable-file', 'not-a-folder']);

export type Entry = { kind: 'file'; path: string; stats: Stats } | { kind: 'directory'; path: string } | { problem: Problem };

const KIND_NAMES: [(s: Stats) => boolean, string][] = [
  [(s) => s.isFIFO(), 'a named pipe (FIFO)'],
  [(s) => s.isCharacterDevice(), 'a character device'],
  [(s) => s.isBlockDevice(), 'a block device'],
  [(s) => s.isSocket(), 'a socket'],
  [(s) => s.isDirectory(), 'a folder'],
];
const kindOf = (s: Stats) => KIND_NAMES.find(([is]) => is(s))?.[1] ?? 'not a regular file';

/**
 * Where `rel` (relative to the content folder) really is, and what it is, without opening it:
 * a regular file or a folder inside the content folder, or the problem that keeps it from being
 * read. Follows links only to see where they end; a link that ends outside the content folder
 * is refused whatever it points at, and nothing of its target is put into the problem.
 */
export function resolveEntry(root: string, rel: string, maxBytes = MAX_CONTENT_FILE_BYTES): Entry {
  const path = join(root, rel);
  const refuse = (p: Omit<Problem, 'file' | 'severity'>): Entry => ({ problem: { severity: 'error', file: rel, ...p } });
  let link: Stats | undefined;
  let real: string;
  try {
    link = lstatSync(path, { throwIfNoEntry: false });
    if (!link) return refuse({ code: 'missing-file', message: messageOf('missing-file', { file: rel }, 'gone'), hint: hintOf('missing-file', {}, 'gone') });
    real = realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      return refuse({
        code: 'symlink-loop',
        message: messageOf('symlink-loop', { file: rel }),
        expected: expectedOf('symlink-loop', 'file', {}),
        found: foundOf('symlink-loop', 'loop', {}),
        hint: hintOf('symlink-loop', {}),
      });
    if (code === 'ENOENT')
      return refuse({
        code: 'broken-link',
        message: messageOf('broken-link', { file: rel }),
        expected: expectedOf('broken-link', 'file', {}),
        found: foundOf('broken-link', 'link', {}),
        hint: hintOf('broken-link', {}),
      });
    return refuse({
      code: 'unreadable-file',
      message: messageOf('unreadable-file', { file: rel, reason: code ?? 'error' }),
      hint: hintOf('unreadable-file', {}),
    });
  }
  if (!inside(root, real))
    return refuse({
      code: 'outside-content',
      message: messageOf('outside-content', { file: rel }),
      expected: expectedOf('outside-content', 'file', {}),
      found: foundOf('outside-content', link.isSymbolicLink() ? 'link' : 'throughFolder', {}),
      hint: hintOf('outside-content', {}),
    });
  const stats = link.isSymbolicLink() || real !== path ? lstatSync(real) : link;
  if (stats.isDirectory()) return { kind: 'directory', path: real };
  if (!stats.isFile())
    return refuse({
      code: 'not-a-file',
      message: messageOf('not-a-file', { file: rel, kind: kindOf(stats) }),
      expected: expectedOf('not-a-file', 'file', {}),
      found: kindOf(stats),
      hint: hintOf('not-a-file', {}),
    });
  if (stats.size > maxBytes) return { problem: tooLarge(rel, MB(stats.size), maxBytes) };
  return { kind: 'file', path: real, stats };
}

const tooLarge = (rel: string, size: string, maxBytes: number): Problem => ({
  code: 'file-too-large',
  severity: 'error',
  message: messageOf('file-too-large', { file: rel, size, max: MB(maxBytes) }),
  file: rel,
  expected: expectedOf('file-too-large', 'size', { max: MB(maxBytes) }),
  found: size,
  hint: hintOf('file-too-large', {}),
});

/**
 * The bytes of one content file, or the problem that keeps it from being read. Never opens a
 * FIFO, device or socket (checked before opening), opens without following a link and without
 * blocking, then checks the open file again: what was checked is what is read, even if the
 * path was swapped in between. Reads at most `maxBytes`, whatever size the file claims.
 */
export function readContentFile(root: string, rel: string, maxBytes = MAX_CONTENT_FILE_BYTES): { bytes: Buffer } | { problem: Problem } {
  const entry = resolveEntry(root, rel, maxBytes);
  if ('problem' in entry) return entry;
  if (entry.kind === 'directory')
    return {
      problem: {
        code: 'not-a-file',
        severity: 'error',
        message: messageOf('not-a-file', { file: rel }, 'folder'),
        file: rel,
        expected: expectedOf('not-a-file', 'file', {}),
        found: foundOf('not-a-file', 'folder', {}),
        hint: hintOf('not-a-file', {}, 'folder'),
      },
    };
  const changed = changedWhileRead(rel);
  let fd: number;
  try {
    fd = openSync(entry.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOENT') return { problem: changed };
    return {
      problem: {
        ...changed,
        message: messageOf('unreadable-file', { file: rel, reason: code ?? 'error' }),
        hint: hintOf('unreadable-file', {}, 'permissions'),
      },
    };
  }
  try {
    const open = fstatSync(fd);
    if (!open.isFile() || open.dev !== entry.stats.dev || open.ino !== entry.stats.ino) return { problem: changed };
    return readOpen(fd, open.size, rel, maxBytes);
  } catch (error) {
    return { problem: { ...changed, message: messageOf('unreadable-file', { file: rel, reason: (error as NodeJS.ErrnoException).code ?? 'error' }) } };
  } finally {
    closeSync(fd);
  }
}

const changedWhileRead = (rel: string): Problem => ({
  code: 'unreadable-file',
  severity: 'error',
  message: messageOf('unreadable-file', { file: rel }, 'changed'),
  file: rel,
  hint: hintOf('unreadable-file', {}, 'changed'),
});

/**
 * The bytes of an open file of `size` bytes (as fstat said), or the problem that it grew past
 * `maxBytes`.
 */
function readOpen(fd: number, size: number, rel: string, maxBytes: number): { bytes: Buffer } | { problem: Problem } {
  // A buffer of the size the file has (one byte more shows it grew); chunks only for one that grows.
  const chunks: Buffer[] = [];
  let total = 0;
  for (let want = Math.min(size + 1, maxBytes + 1); ; want = Math.min(64 * 1024, maxBytes + 1 - total)) {
    const chunk = Buffer.allocUnsafe(want);
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) return { problem: tooLarge(rel, `more than ${MB(maxBytes)}`, maxBytes) };
    if (n < want && total === size) break; // all of it, as fstat said: no second read to see the end
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) };
}
