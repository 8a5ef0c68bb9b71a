import { Worker } from 'node:worker_threads';
import type { PreviousPage } from './page-cache.ts';

/** [index, from, to, ino, size, mtimeMs] */
type Job = [number, string, string, number, number, number];

// A few lines of file-system calls, so the worker starts in milliseconds (no bundle, no React).
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { linkSync, statSync } = require('node:fs');
parentPort.on('message', (jobs) => {
  const failed = [];
  for (const [i, from, to, ino, size, mtimeMs] of jobs) {
    try {
      const st = statSync(from);
      if (st.ino !== ino || st.size !== size || st.mtimeMs !== mtimeMs) failed.push(i);
      else linkSync(from, to);
    } catch {
      failed.push(i);
    }
  }
  parentPort.postMessage(failed);
});
`;

const BATCH = 500;

/**
 * Hard-links files of the previous site into the new one on a thread of its own, so the file
 * system's work runs on the other core while this thread renders the pages that changed
 * (one thread: a second one measured slower on two cores). A file is
 * linked only if it is still exactly the one the previous build wrote (same inode, size and
 * time); `finish()` tells which were not.
 */
export class PreviousLinker {
  private readonly worker = new Worker(WORKER, { eval: true });
  private jobs: Job[] = [];
  private sent = 0;
  private answered = 0;
  private readonly failed = new Set<number>();
  private error: Error | undefined;
  private whenAnswered: (() => void) | undefined;

  constructor() {
    this.worker.on('message', (failed: number[]) => {
      for (const i of failed) this.failed.add(i);
      this.answered++;
      if (this.answered === this.sent) this.whenAnswered?.();
    });
    this.worker.on('error', (error) => {
      this.error = error;
      this.whenAnswered?.();
    });
    this.worker.on('exit', (code) => {
      if (this.answered === this.sent) return;
      this.error ??= new Error(`the thread linking the previous site's pages stopped with code ${code}`);
      this.whenAnswered?.();
    });
  }

  add(index: number, from: string, to: string, expected: PreviousPage): void {
    this.jobs.push([index, from, to, expected.ino, expected.size, expected.mtimeMs]);
    if (this.jobs.length >= BATCH) this.flush();
  }

  /** The indexes of the files that were not taken over. */
  async finish(): Promise<Set<number>> {
    this.flush();
    try {
      if (this.answered < this.sent && !this.error)
        await new Promise<void>((resolve) => {
          this.whenAnswered = resolve;
        });
      if (this.error) throw this.error;
      return this.failed;
    } finally {
      await this.worker.terminate();
    }
  }

  private flush(): void {
    if (!this.jobs.length) return;
    this.worker.postMessage(this.jobs);
    this.jobs = [];
    this.sent++;
  }
}
