import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real, tiny file system (64 KiB of tmpfs) to fill as a full disk is; undefined where it cannot be
 * mounted (mount needs root), so a test that needs it is skipped there.
 */
export function tinyDisk(): { dir: string; fill: () => void; cleanup: () => void } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'studio-tiny-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const fill = () => {
    // Fill it to the last block, as a full disk is.
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `filler-${i}`), Buffer.alloc(4096, 1));
      } catch {
        break;
      }
    }
  };
  return {
    dir,
    fill,
    cleanup: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
