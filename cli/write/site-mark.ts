import { lstatSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileWhole } from '../util/atomic-write.ts';

/**
 * The mark a build leaves in its output: which tool wrote the folder, in which format, and
 * every file it put there. The build replaces or deletes only a folder that carries it, and
 * of that folder only the files it lists. Dot-files are never served.
 */
export const MARK_FILE = '.studio-site.json';
export const MARK_TOOL = 'studio-site';
export const MARK_FORMAT = 1;

/**
 * What a folder's mark says. `staging`: a folder a build created for itself (exclusively) and
 * is still writing; everything in it is the build's own. `site`: a finished site, with the
 * files it lists. `newer`: a mark of a format this version does not know. `none`: not ours.
 */
export type Mark = { kind: 'none' } | { kind: 'newer'; format: number } | { kind: 'staging' } | { kind: 'site'; files: string[] };

/** A mark larger than this is not one of ours (a site of 15,000 pages lists about 1 MB). */
const MAX_MARK_BYTES = 64 * 1024 * 1024;

/** The last mark read, by the identity of its file: a build reads its site's mark three times (before, at and after the swap). */
let lastRead: { id: string; mark: Mark } | undefined;

export function readMark(dir: string): Mark {
  const file = join(dir, MARK_FILE);
  let parsed: unknown;
  let id: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_MARK_BYTES) return { kind: 'none' };
    id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    if (lastRead?.id === id) return lastRead.mark;
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { kind: 'none' };
  }
  const mark = markOf(parsed);
  lastRead = { id, mark };
  return mark;
}

function markOf(parsed: unknown): Mark {
  const m = parsed as { tool?: unknown; format?: unknown; staging?: unknown; files?: unknown };
  if (typeof m !== 'object' || m === null || m.tool !== MARK_TOOL || !Number.isInteger(m.format)) return { kind: 'none' };
  if ((m.format as number) > MARK_FORMAT) return { kind: 'newer', format: m.format as number };
  if (m.format !== MARK_FORMAT) return { kind: 'none' };
  if (m.staging === true) return { kind: 'staging' };
  if (!Array.isArray(m.files) || !m.files.every(isSitePath)) return { kind: 'none' };
  return { kind: 'site', files: m.files as string[] };
}

/** A path a mark may list: relative, forward slashes, no `.`/`..`/empty segment, not the mark itself. */
function isSitePath(p: unknown): p is string {
  return (
    typeof p === 'string' &&
    p !== MARK_FILE &&
    p.length > 0 &&
    !p.includes('\\') &&
    !p.includes('\0') &&
    p.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  );
}

/** Marks a folder the build just created for itself, before anything else is written into it. */
export function markStaging(dir: string): void {
  writeFileSync(join(dir, MARK_FILE), `${JSON.stringify({ tool: MARK_TOOL, format: MARK_FORMAT, staging: true })}\n`);
}

/**
 * Marks a finished site with every file in it: all of them are this build's (written, copied
 * or hard-linked from the previous site), as nothing else writes into a staging folder. The
 * list is sorted and has no dates, so two builds of the same content stay byte-identical.
 * Replaces the staging mark with one rename, so the folder always carries a complete mark.
 * `listed`: the files, when the caller has walked the folder already.
 */
export function markSite(dir: string, listed = listFiles(dir)): string[] {
  const files = listed.filter((f) => f !== MARK_FILE).sort();
  writeFileWhole(join(dir, MARK_FILE), `${JSON.stringify({ tool: MARK_TOOL, format: MARK_FORMAT, files }, null, 1)}\n`, { mode: 0o666 });
  return files;
}

/** Every file (and link) under `dir`, relative, sorted; one readdir per folder, no stat per file. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const e of readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(path);
      else out.push(path);
    }
  };
  visit('');
  return out.sort();
}

/**
 * What a marked site holds besides what its mark lists: the top-most paths of files and folders
 * a user put there (a folder none of whose files are listed is one entry). A listed path that is
 * now a folder counts as the user's too. `skipEmptyFolders`: for deciding whether a folder may be
 * deleted, an empty folder holds nothing to lose.
 */
export function unlisted(dir: string, files: string[], options: { skipEmptyFolders?: boolean } = {}): string[] {
  const listed = new Set(files);
  const parents = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) parents.add(f.slice(0, i));
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const e of readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (path === MARK_FILE) continue;
      if (e.isDirectory() && parents.has(path)) visit(path);
      else if (e.isDirectory() && options.skipEmptyFolders && readdirSync(join(dir, path)).length === 0) continue;
      else if (!listed.has(path) || e.isDirectory()) out.push(path);
    }
  };
  visit('');
  return out.sort();
}

/**
 * Deletes a folder whose mark the caller checked: a staging folder whole, a site file by file as its
 * mark lists them, then the folders that are empty (rmdir removes nothing else); the mark goes last,
 * and only when nothing else is left, so a deletion cut short is still recognised as ours. A folder
 * whose mark is not (any more) ours is left alone.
 */
export function removeMarked(dir: string): void {
  const mark = readMark(dir);
  if (mark.kind === 'staging') {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  if (mark.kind !== 'site') return;
  for (const file of mark.files)
    try {
      unlinkSync(join(dir, file)); // never a folder: a listed path that is one now is the user's
    } catch {
      // gone already, or a folder
    }
  const removeEmptyFolders = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true }))
      if (e.isDirectory()) {
        removeEmptyFolders(join(rel, e.name));
        try {
          rmdirSync(join(dir, rel, e.name));
        } catch {
          // not empty: a user's file in it
        }
      }
  };
  removeEmptyFolders('');
  if (readdirSync(dir).every((name) => name === MARK_FILE)) {
    unlinkSync(join(dir, MARK_FILE));
    rmdirSync(dir);
  }
}
