import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { Inbox, readInbox } from '../../cli/serve/inbox.ts';
import { ROOT } from '../helpers/cli.ts';
import { postJson, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

const HOLDER = join(ROOT, 'tests/serve/lock-holder.ts');
const dist = inject('siteDir');

interface Holder {
  child: ChildProcess;
  /** The first line it printed: OWN <pid> or REFUSED … */
  first: Promise<string>;
  output: () => string;
  exited: Promise<number | null>;
}

/** A contender in a process of its own, optionally in a PID namespace of its own (`unshare --pid --fork`). */
function holder(dir: string, startAt = 0, ownPidNamespace = false): Holder {
  const node = [process.execPath, '--import', 'tsx', HOLDER, dir, String(startAt)];
  const [cmd, ...args] = ownPidNamespace ? ['unshare', '--pid', '--fork', ...node] : node;
  const child = spawn(cmd!, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const first = new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.stderr!.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    exited.then((code) => reject(new Error(`the contender exited with ${code} before saying anything:\n${err}`)));
  });
  first.catch(() => {});
  return { child, first, output: () => out, exited };
}

/** Whether this machine lets us start a process in a PID namespace of its own (root, not in a locked-down container). */
const PID_NAMESPACES = (() => {
  try {
    execFileSync('unshare', ['--pid', '--fork', 'true'], { stdio: 'pipe' });
    return true;
  } catch {
    console.warn('PID-namespace cases run in one namespace: `unshare --pid --fork` is not permitted here.');
    return false;
  }
})();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function inboxDir(): string {
  const data = tempData();
  cleanups.push(data.cleanup);
  return data.dir;
}

async function stopAll(holders: Holder[]) {
  for (const h of holders) h.child.stdin!.end();
  return Promise.all(holders.map((h) => h.exited));
}

/** Starts 20 contenders at the same moment; exactly one may own the inbox. */
async function race(dir: string, ownPidNamespaces: boolean): Promise<void> {
  const startAt = Date.now() + 4000; // all have loaded by then
  const holders = Array.from({ length: 20 }, () => holder(dir, startAt, ownPidNamespaces));
  cleanups.push(() => {
    for (const h of holders) h.child.kill('SIGKILL');
  });
  const firsts = await Promise.all(holders.map((h) => h.first));
  const owners = firsts.filter((l) => l.startsWith('OWN'));
  expect(owners, firsts.join('\n')).toHaveLength(1);
  expect(firsts.filter((l) => l.startsWith('REFUSED another "content serve"'))).toHaveLength(19);
  await stopAll(holders);
}

describe('one server per inbox', () => {
  it('of 20 servers started at the same moment on a stale lock, exactly one owns the inbox (twice)', async () => {
    // A lock left by a server (of the version before) killed an hour ago: a file with its pid.
    // The contenders run in containers of their own (PID namespaces): each of them is process 1.
    const dir = inboxDir();
    writeFileSync(join(dir, 'serve.lock'), '1');
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(join(dir, 'serve.lock'), hourAgo, hourAgo);
    await race(dir, PID_NAMESPACES);
    // A lock left by a server killed a moment ago (its heartbeat is fresh).
    const killed = holder(dir);
    expect(await killed.first).toMatch(/^OWN/);
    while (!killed.output().includes('STORED')) await new Promise((r) => setTimeout(r, 20));
    killed.child.kill('SIGKILL');
    await killed.exited;
    await race(dir, false);
    const stored = readInbox(dir).enquiries;
    expect(stored.map((e) => e.id)).toEqual([1, 2, 3]);
  }, 120_000);

  it('a second server cannot take the inbox while the first runs', async () => {
    const dir = inboxDir();
    const first = holder(dir);
    cleanups.push(() => void first.child.kill('SIGKILL'));
    expect(await first.first).toMatch(/^OWN/);
    const second = holder(dir);
    expect(await second.first).toMatch(/^REFUSED another "content serve" \(process \d+\) is using the enquiry inbox/);
    expect(await second.exited).toBe(2);
    await stopAll([first]);
    expect(readInbox(dir).enquiries).toHaveLength(1);
    // Stopped properly: the next one takes it at once.
    const third = holder(dir);
    expect(await third.first).toMatch(/^OWN/);
    await stopAll([third]);
  }, 60_000);

  it.skipIf(!PID_NAMESPACES)(
    'holds across PID namespaces (containers), where both servers are process 1',
    async () => {
      const dir = inboxDir();
      const first = holder(dir, 0, true);
      cleanups.push(() => void first.child.kill('SIGKILL'));
      expect(await first.first).toBe('OWN 1');
      const second = holder(dir, 0, true);
      cleanups.push(() => void second.child.kill('SIGKILL'));
      // Its pid means nothing from the other namespace: the second sees the lock's heartbeat move.
      expect(await second.first).toMatch(/^REFUSED another "content serve"/);
      await stopAll([first]);
      expect(readInbox(dir).enquiries).toHaveLength(1);
    },
    60_000,
  );

  it('`content serve` restarts right after kill -9', async () => {
    const dir = inboxDir();
    const first = await spawnServe(['--out', dist, '--data', dir]);
    expect((await postJson(first.url, validEnquiry({ name: 'Before' }))).status).toBe(201);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await spawnServe(['--out', dist, '--data', dir]);
    try {
      const res = await postJson(second.url, validEnquiry({ name: 'After' }));
      expect(res.status).toBe(201);
      expect(readInbox(dir).enquiries.map((e) => [e.id, e.name])).toEqual([
        [1, 'Before'],
        [2, 'After'],
      ]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 60_000);

  it('stops storing (and says so in health()) when its lock is taken away', async () => {
    const dir = inboxDir();
    const inbox = await Inbox.open(dir);
    cleanups.push(() => inbox.close());
    await inbox.add(newEnquiry());
    rmSync(join(dir, 'serve.lock'), { recursive: true }); // by hand, or by a server that wrongly took it over
    await expect(inbox.add(newEnquiry())).rejects.toThrow(/lock/);
    expect(inbox.health()).toMatchObject({ ok: false, reason: expect.stringContaining('lock') });
    expect(readInbox(dir).enquiries).toHaveLength(1);
  }, 30_000);
});
