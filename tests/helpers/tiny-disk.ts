import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyDisk {
  dir: string;
  /** Fills it to the last block, as a full disk is. */
  fill: () => void;
  /** Resizes it to what it holds now plus `free` bytes (rounded up to whole 4 KiB pages). */
  leaveFree: (free: number) => void;
  /** Unmounts and removes it (once; later calls do nothing). */
  cleanup: () => void;
}

/**
 * A real, tiny file system (tmpfs, 64 KiB unless `size` says otherwise, e.g. '1m') to fill as a
 * full disk is; undefined where it cannot be mounted (mount needs root), so a test that needs it
 * is skipped there.
 */
export function tinyDisk(size = '64k'): TinyDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'studio-tiny-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  let unmounted = false;
  const fill = () => {
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `filler-${i}`), Buffer.alloc(4096, 1));
      } catch {
        break;
      }
    }
  };
  const leaveFree = (free: number) => {
    const s = statfsSync(dir);
    const used = (s.blocks - s.bfree) * s.bsize;
    const bytes = Math.ceil((used + free) / 4096) * 4096;
    execFileSync('mount', ['-o', `remount,size=${bytes}`, dir], { stdio: 'ignore' });
  };
  return {
    dir,
    fill,
    leaveFree,
    // Once: a test's finally and an afterAll may both call it.
    cleanup: () => {
      if (unmounted) return;
      unmounted = true;
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
