import { linkSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { ensureDir } from '../write/ensure-dir.ts';
import type { PreviousPage } from './page-cache.ts';

/** A file of the previous site to link into the new one, and what it must still be: [file, ino, size, mtimeMs]. */
export type LinkJob = [string, number, number, number];

/** Work for a render worker (render-worker.ts): link these files from `from` into `to`; it answers `{ linked: id, failed }`. */
export interface LinkTask {
  id: number;
  from: string;
  to: string;
  link: LinkJob[];
}

/**
 * Hard-links each file that is still exactly the one the previous build wrote (same inode, size
 * and time: not edited by hand since), creating the folders it goes into. Returns the indexes of
 * the jobs not linked.
 */
export function linkFiles(task: Omit<LinkTask, 'id'>): number[] {
  const failed: number[] = [];
  const made = new Set<string>();
  task.link.forEach(([file, ino, size, mtimeMs], i) => {
    const from = join(task.from, file);
    const to = join(task.to, file);
    try {
      const st = statSync(from);
      if (st.ino !== ino || st.size !== size || st.mtimeMs !== mtimeMs) failed.push(i);
      else {
        ensureDir(made, to);
        linkSync(from, to);
      }
    } catch {
      failed.push(i);
    }
  });
  return failed;
}

const BATCH = 500;

/**
 * Links every page of the previous site into the new one (`outDir`) before it is known which of
 * them changed, so the file system's work is done while this thread resolves the site and
 * computes the page keys: on `worker` when given (a render worker, on the other core), else here
 * and now. Resolves to the files linked. The caller removes the links of pages that turn out to
 * be changed (a render replaces them) or gone before the site is finished.
 */
export function linkPrevious(previous: { dir: string; pages: Record<string, PreviousPage> }, outDir: string, worker?: Worker): Promise<Set<string>> {
  const files = Object.keys(previous.pages);
  const jobs = files.map((file): LinkJob => {
    const p = previous.pages[file]!;
    return [file, p.ino, p.size, p.mtimeMs];
  });
  const linked = (failed: Iterable<number>) => {
    const all = new Set(files);
    for (const i of failed) all.delete(files[i]!);
    return all;
  };
  if (!worker) return Promise.resolve(linked(linkFiles({ from: previous.dir, to: outDir, link: jobs })));
  return new Promise((resolve, reject) => {
    const failed: number[] = [];
    let waiting = 0;
    const done = (error?: Error) => {
      worker.off('message', onMessage).off('error', done).off('exit', onExit);
      if (error) reject(error);
      else resolve(linked(failed));
    };
    const onMessage = (m: { linked?: number; failed?: number[]; error?: string }) => {
      if (m.linked === undefined) return; // a render's answer
      if (m.error) return done(new Error(`linking the previous site failed: ${m.error}`));
      for (const i of m.failed!) failed.push(m.linked + i);
      if (--waiting === 0) done();
    };
    const onExit = (code: number) => done(new Error(`the thread linking the previous site's pages stopped with code ${code}`));
    worker.on('message', onMessage).on('error', done).on('exit', onExit);
    for (let i = 0; i < jobs.length; i += BATCH) {
      waiting++;
      worker.postMessage({ id: i, from: previous.dir, to: outDir, link: jobs.slice(i, i + BATCH) } satisfies LinkTask);
    }
    if (!waiting) done();
  });
}

/** Removes the folders above `file` in `outDir` that are empty (left by the link of a page that is gone). */
export function removeEmptyFolders(outDir: string, file: string): void {
  for (let dir = dirname(join(outDir, file)); dir.length > outDir.length; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty: other files live there
    }
  }
}
