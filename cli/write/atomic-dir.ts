import { existsSync, lstatSync, mkdirSync, opendirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { existsOrLink } from '../util/exists.ts';
import { processAlive } from '../util/process-alive.ts';
import { checkOutDir } from './out-dir.ts';
import { markSite, markStaging, readMark, removeMarked, unlisted } from './site-mark.ts';

/**
 * Writing a directory so that readers see the old or the new one, never a mix: the build
 * writes into a fresh sibling, and only a finished build is swapped in with two renames.
 * A build killed before the swap leaves the previous directory as it was.
 *
 * Every folder this module deletes carries the build's mark (site-mark.ts), and of a finished
 * site only the files the mark lists are deleted: a user's folder that merely has the name of
 * one of ours (`.dist.previous-1`, `.dist.staging-1`) is never touched.
 *
 * `notes` collects what the caller should tell the user (leftovers kept because they are not
 * entirely ours).
 */
export function prepareStaging(outDir: string, notes: string[] = []): string {
  const out = resolve(outDir);
  mkdirSync(dirname(out), { recursive: true });
  recoverInterruptedSwap(out);
  sweepLeftovers(out, notes);
  const staging = sibling(out, `staging-${process.pid}`);
  if (existsSync(staging) && !retire(staging, out, notes))
    throw new UsageError(`${staging} is in the way of the build and is not one of its own folders`, 'move it elsewhere, then build again');
  // Not recursive: the folder must be new, so everything in it is this build's.
  mkdirSync(staging);
  markStaging(staging);
  return staging;
}

/**
 * Marks the finished staging directory and swaps it in. Files a user put into the previous site
 * (not listed in its mark: the inbox of a server started with `--data dist/inbox`, a search
 * engine's verification file) are carried into the new site first, with a rename each: a user
 * expects a file they put into their site to stay there, as it did across every earlier build,
 * and a server writing such a file keeps writing to the same file. Refusing instead would stop
 * every build until the user moved the file, and deleting it is what this module must never do.
 * When a user's file sits where the new build wrote a file of its own, nothing is moved and the
 * build is refused (exit 2), as either choice would lose one of them.
 * The old site is then deleted by a process of its own, so the build is done as soon as the
 * new site is in place: deleting 15,000 files takes from a tenth of a second (hard links) to
 * seconds (files of their own) on these disks. Returns the files of the new site its mark lists (every one but the mark).
 */
export function commitStaging(staging: string, outDir: string, options: { content: string; notes?: string[] }): string[] {
  const out = resolve(outDir);
  const notes = options.notes ?? [];
  const files = markSite(staging);
  checkOutDir(out, options.content); // again: the folder may have changed while the build ran
  const old = existsSync(out) ? readMark(out) : undefined;
  if (old?.kind === 'site') {
    const strays = unlisted(out, old.files);
    const clashes = strays.filter((p) => existsOrLink(join(staging, p)) || fileAbove(staging, p));
    if (clashes.length)
      throw new UsageError(
        `${out} holds ${listed(clashes)}, which "content build" did not write, where the new build writes ${clashes.length === 1 ? 'a file' : 'files'} of its own`,
        `move ${clashes.length === 1 ? 'it' : 'them'} out of ${out}, then build again; nothing was changed`,
      );
    carry(strays, out, staging);
  }
  const previous = sibling(out, `previous-${process.pid}`);
  if (old) renameSync(out, previous);
  renameSync(staging, out);
  if (old) retire(previous, out, notes, true);
  return files;
}

/** Moves the user's files into the new site; if one cannot be moved (a mount point), moves them all back. */
function carry(strays: string[], out: string, staging: string): void {
  const moved: string[] = [];
  try {
    for (const p of strays) {
      mkdirSync(dirname(join(staging, p)), { recursive: true });
      renameSync(join(out, p), join(staging, p));
      moved.push(p);
    }
  } catch (error) {
    for (const p of moved.reverse()) renameSync(join(staging, p), join(out, p));
    const failed = strays[moved.length];
    throw new UsageError(
      `${join(out, failed ?? '')}, which "content build" did not write, cannot be moved into the new site (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      `move it out of ${out}, then build again; nothing was changed`,
    );
  }
}

/** Whether a folder above `rel` in `dir` is a file (the user's `a/b` where the build writes a file `a`). */
function fileAbove(dir: string, rel: string): boolean {
  for (let i = rel.indexOf('/'); i !== -1; i = rel.indexOf('/', i + 1)) {
    const st = lstatSync(join(dir, rel.slice(0, i)), { throwIfNoEntry: false });
    if (st && !st.isDirectory()) return true;
  }
  return false;
}

/** The staging folder of a build that failed: everything in it is the build's own. */
export function discardStaging(staging: string, outDir: string): void {
  if (existsSync(staging)) retire(staging, resolve(outDir), []);
}

const sibling = (out: string, kind: string) => join(dirname(out), `.${basename(out)}.${kind}`);

const listed = (paths: string[]) => paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');

/** Our leftovers beside `out`: `.NAME.staging-PID`, `.NAME.previous-PID`, `.NAME.trash-PID-TIME`. */
function leftovers(out: string): { name: string; kind: string; pid: number }[] {
  const prefix = `.${basename(out)}.`;
  return readdirSync(dirname(out))
    .filter((name) => name.startsWith(prefix))
    .map((name) => {
      const m = /^(staging|previous|trash)-(\d+)(?:-\d+)?$/.exec(name.slice(prefix.length));
      return { name, kind: m?.[1] ?? '', pid: Number(m?.[2]) };
    })
    .filter((l) => l.kind && l.pid !== process.pid && !processAlive(l.pid));
}

/** A process killed between the two renames of a swap left the old site as `.previous-PID`: restore it. */
function recoverInterruptedSwap(out: string): void {
  if (existsOrLink(out)) return;
  const previous = leftovers(out).find((l) => l.kind === 'previous' && readMark(join(dirname(out), l.name)).kind === 'site');
  if (previous) renameSync(join(dirname(out), previous.name), out);
}

/** Staging directories of builds that were killed, old sites whose deletion was cut short. */
function sweepLeftovers(out: string, notes: string[]): void {
  for (const l of leftovers(out)) retire(join(dirname(out), l.name), out, notes);
}

let retired = 0;

/**
 * Deletes `dir` if it is ours: an empty folder, a staging folder, or a site holding nothing but
 * what its mark lists. Renamed out of the way first, then deleted (removeMarked). A site
 * that also holds files of a user is kept, and the user told (`onlyListed`: the caller just
 * moved those out). Returns whether it was removed.
 */
function retire(dir: string, out: string, notes: string[], onlyListed = false): boolean {
  try {
    return retireNow(dir, out, notes, onlyListed);
  } catch (error) {
    // Gone meanwhile: the old site of a build running beside this one, which that build is deleting
    // (this build sweeps it as a leftover while the other deletes it).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

function retireNow(dir: string, out: string, notes: string[], onlyListed: boolean): boolean {
  const st = lstatSync(dir);
  if (!st.isDirectory()) return false;
  if (isEmpty(dir)) {
    rmdirSync(dir);
    return true;
  }
  const mark = readMark(dir);
  if (mark.kind !== 'staging' && mark.kind !== 'site') return false;
  if (mark.kind === 'site' && !onlyListed) {
    const strays = unlisted(dir, mark.files, { skipEmptyFolders: true });
    if (strays.length) {
      notes.push(`${dir} was left in place: it holds files "content build" did not write (${listed(strays)}); move them, then delete the folder`);
      return false;
    }
  }
  const trash = sibling(out, `trash-${process.pid}-${Date.now()}${String(++retired).padStart(3, '0')}`);
  renameSync(dir, trash);
  removeMarked(trash);
  return true;
}

/** Whether a folder is empty, without listing the thousands of files a site holds. */
function isEmpty(dir: string): boolean {
  const listing = opendirSync(dir);
  try {
    return listing.readSync() === null;
  } finally {
    listing.closeSync();
  }
}
