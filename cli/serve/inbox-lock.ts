import { randomBytes } from 'node:crypto';
import { type BigIntStats, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { UsageError } from '../report/problem.ts';
import { writeFileWhole } from '../util/atomic-write.ts';
import { processAlive } from '../util/process-alive.ts';

export const LOCK_FILE = 'serve.lock';
const OWNER_FILE = 'serve.lock.owner';
/** A lock whose heartbeat (its mtime, renewed every UPDATE_MS) is older than this belongs to a dead server. */
const STALE_MS = 10_000;
const UPDATE_MS = 2_000;

/** Who holds a lock, as far as another server can check it. */
interface Owner {
  /** The lock directory it belongs to (its birth time): an owner file left by an earlier lock says nothing. */
  lock: string;
  pid: number;
  /** The PID namespace (`/proc/self/ns/pid`): a pid says something only inside the same one. */
  pidNs?: string;
  bootId?: string;
  /** Start time of the process in clock ticks since boot: tells a reused pid apart. */
  start?: string;
}

const readText = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};
const pidNs = () => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
};
/** Only when /proc is this namespace's (in `unshare --pid` without --mount-proc, /proc/<pid> is another process). */
const procIsOurs = () => {
  try {
    return readlinkSync('/proc/self') === String(process.pid);
  } catch {
    return false;
  }
};
const startTicks = (pid: number | 'self') => readText(`/proc/${pid}/stat`)?.split(') ').at(-1)?.split(' ')[19];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stat = (path: string) => statSync(path, { bigint: true, throwIfNoEntry: false });
const tagOf = (s: BigIntStats) => (s.birthtimeNs ? String(s.birthtimeNs) : `${s.ino}-${s.ctimeNs}`);

/**
 * Takes the single-writer lock of an inbox directory. proper-lockfile holds it: an atomic
 * `mkdir serve.lock` whose mtime it renews every 2 s, and it tells us (`onLost`) when the
 * lock was taken from us. It works across PID namespaces, because staleness is a heartbeat
 * on the shared disk, not a pid.
 *
 * Two things it does not do well enough, so they are done here before it is called:
 * - Its own stale-lock removal is `stat` then `rmdir`, which races: 20 servers started at
 *   once on a stale lock gave 2 or 3 owners in 4 of 10 trials. Here a stale lock is taken
 *   over by the one server that creates a guard directory named after that lock instance,
 *   and it is moved aside only if it is still that instance.
 * - By heartbeat alone, a restart right after `kill -9` would wait 10 s. The owner file names
 *   the pid, its PID namespace, boot and start time: in the same namespace a dead owner is
 *   known at once. From another namespace (a container) a restart waits for the heartbeat to
 *   go stale (at most 10 s), and a live owner is recognised by its heartbeat moving.
 */
export interface HeldLock {
  /** Whether `serve.lock` is still the one this server took (checked before each write). */
  held(): boolean;
  release(): Promise<void>;
}

export async function takeLock(dir: string, onLost: (error: Error) => void): Promise<HeldLock> {
  const lockPath = join(dir, LOCK_FILE);
  const deadline = Date.now() + STALE_MS + 5_000;
  const seen = new Map<string, bigint>();
  const myNs = pidNs();
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  for (;;) {
    const s = stat(lockPath);
    if (!s) {
      try {
        const release = await lockfile.lock(join(dir, 'serve'), {
          lockfilePath: lockPath,
          realpath: false,
          stale: STALE_MS,
          update: UPDATE_MS,
          onCompromised: onLost,
        });
        const tag = claim(dir, myNs, bootId);
        return {
          held: () => {
            const now = stat(lockPath);
            return !!now && tagOf(now) === tag;
          },
          release: async () => {
            rmSync(join(dir, OWNER_FILE), { force: true });
            await release().catch(() => {}); // already released when it was lost
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOCKED') continue; // another server made it first: look at it
        throw error;
      }
    }
    const verdict = judge(dir, s, seen, myNs, bootId);
    if (verdict.alive === true)
      throw new UsageError(
        `another "content serve"${verdict.pid ? ` (process ${verdict.pid})` : ''} is using the enquiry inbox in ${dir}`,
        'stop it first, or give this one its own --data directory',
      );
    if (verdict.alive === false) await takeOver(dir, s);
    else if (Date.now() > deadline)
      throw new UsageError(`the enquiry inbox in ${dir} is locked (${LOCK_FILE}) and its owner cannot be checked`, 'stop the other "content serve" first');
    else await sleep(200);
  }
}

/** Whether the holder of the lock `s` is alive: true, false, or undefined (not known yet: look again). */
function judge(dir: string, s: BigIntStats, seen: Map<string, bigint>, myNs?: string, bootId?: string): { alive?: boolean; pid?: number } {
  const tag = tagOf(s);
  let owner: Owner | undefined;
  try {
    owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Owner;
  } catch {}
  if (owner && owner.lock === tag) {
    if (bootId && owner.bootId && owner.bootId !== bootId) return { alive: false }; // the machine restarted since
    if (myNs && owner.pidNs === myNs && typeof owner.pid === 'number') {
      const alive = processAlive(owner.pid) && (!owner.start || !procIsOurs() || startTicks(owner.pid) === owner.start);
      return { alive, pid: owner.pid };
    }
  }
  if (Date.now() - Number(s.mtimeMs) > STALE_MS) return { alive: false };
  const before = seen.get(tag);
  seen.set(tag, s.mtimeNs);
  if (before !== undefined && before !== s.mtimeNs) return { alive: true, pid: owner?.lock === tag ? owner.pid : undefined };
  return {};
}

/** Moves a dead server's lock aside, if this server is the one to do it and the lock is still that one. */
async function takeOver(dir: string, dead: BigIntStats): Promise<void> {
  const lockPath = join(dir, LOCK_FILE);
  for (let generation = 0; generation < 20; generation++) {
    const guard = `${lockPath}.takeover-${tagOf(dead)}-${generation}`;
    try {
      mkdirSync(guard);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const g = statSync(guard, { throwIfNoEntry: false });
      if (g && Date.now() - g.mtimeMs > STALE_MS) continue; // a server died while taking over: the next guard
      await sleep(50); // another server is taking it over
      return;
    }
    try {
      const now = stat(lockPath);
      if (now && tagOf(now) === tagOf(dead) && now.ino === dead.ino && now.mtimeNs === dead.mtimeNs) {
        const aside = `${lockPath}.dead-${randomBytes(6).toString('hex')}`;
        renameSync(lockPath, aside);
        rmSync(aside, { recursive: true, force: true });
      }
    } finally {
      rmSync(guard, { recursive: true, force: true });
    }
    return;
  }
}

/** Says who holds the lock just taken, and sweeps what servers that died while taking over left behind. */
function claim(dir: string, pidNs?: string, bootId?: string): string | undefined {
  const s = stat(join(dir, LOCK_FILE));
  if (!s) return undefined;
  const owner: Owner = { lock: tagOf(s), pid: process.pid, pidNs, bootId, start: procIsOurs() ? startTicks('self') : undefined };
  try {
    writeFileWhole(join(dir, OWNER_FILE), JSON.stringify(owner), { mode: 0o666 });
  } catch {
    // a full disk: others fall back to the heartbeat
  }
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.startsWith(`${LOCK_FILE}.dead-`)) rmSync(path, { recursive: true, force: true });
    else if (name.startsWith(`${LOCK_FILE}.takeover-`) && Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > STALE_MS)
      rmSync(path, { recursive: true, force: true });
  }
  return owner.lock;
}
