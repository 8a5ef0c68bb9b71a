import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writing a directory so that readers see the old or the new one, never a mix: the build
 * writes into a fresh sibling, and only a finished build is swapped in with two renames.
 * A build killed before the swap leaves the previous directory as it was.
 */
export function prepareStaging(outDir: string): string {
  const out = resolve(outDir);
  recoverInterruptedSwap(out);
  const staging = join(dirname(out), `.${basename(out)}.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  return staging;
}

/**
 * Swaps the finished staging directory in. The old site is removed in the background (the
 * returned promise), so the caller's remaining work overlaps it; a process that stops before
 * that finishes leaves `.previous`, which the next build removes.
 */
export function commitStaging(staging: string, outDir: string): Promise<void> {
  const out = resolve(outDir);
  const previous = join(dirname(out), `.${basename(out)}.previous`);
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(out)) renameSync(out, previous);
  renameSync(staging, out);
  return rm(previous, { recursive: true, force: true });
}

export function discardStaging(staging: string): void {
  rmSync(staging, { recursive: true, force: true });
}

/** A process killed between the two renames of a swap left the old site as `.previous`: restore it. */
function recoverInterruptedSwap(out: string): void {
  const previous = join(dirname(out), `.${basename(out)}.previous`);
  if (!existsSync(out) && existsSync(previous)) renameSync(previous, out);
}
