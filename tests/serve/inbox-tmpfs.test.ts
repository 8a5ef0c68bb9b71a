import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { INBOX_FILE, Inbox, readInbox, type StoredEnquiry } from '../../cli/serve/inbox.ts';
import { postJson, spawnServe, validEnquiry } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

/** A real 64 KB tmpfs as the inbox's disk (needs root; elsewhere the test says so and skips). */
const mountPoint = mkdtempSync(join(tmpdir(), 'studio-tiny-disk-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], { stdio: 'pipe' });
  mounted = true;
} catch (error) {
  console.warn(
    `Tiny-disk test skipped: cannot mount a tmpfs here (${String((error as Error).message).split('\n')[0]}); the injected faults in inbox-faults.test.ts still run.`,
  );
}

afterAll(() => {
  if (mounted) execFileSync('umount', ['--lazy', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills what is left of the disk with a file of our own. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(1024, 0x2e);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!mounted)('the inbox on a real full disk (64 KB tmpfs)', () => {
  it('acknowledges only whole lines, refuses while full, stores again once there is room, and never gives an id twice', async () => {
    const dir = join(mountPoint, 'data');
    const inbox = await Inbox.open(dir);
    const acknowledged: StoredEnquiry[] = [];
    let attempts = 0;
    let refused = 0;
    const send = async () => {
      attempts++;
      try {
        acknowledged.push((await inbox.add(newEnquiry({ message: 'x'.repeat(700) }))).enquiry);
      } catch {
        refused++;
      }
    };
    await send();
    fill(join(mountPoint, 'filler'));
    // What is left of the inbox file's last page takes a few more; one of them is cut short by the disk.
    while (refused === 0 && attempts < 100) await send();
    expect(refused).toBe(1);
    expect(acknowledged.length).toBeGreaterThan(1);
    expect(inbox.health().ok).toBe(false);

    const text = readFileSync(join(dir, INBOX_FILE), 'utf8');
    expect(text.endsWith('\n')).toBe(true); // cut back to the last whole line
    const read = readInbox(dir);
    expect(read.damaged).toEqual([]);
    expect(read.enquiries).toEqual(acknowledged);

    await send();
    expect(refused).toBe(2); // still full
    rmSync(join(mountPoint, 'filler'));
    await send(); // room again: stored without a restart
    expect(refused).toBe(2);
    expect(inbox.health()).toMatchObject({ ok: true });
    expect(readInbox(dir).enquiries).toEqual(acknowledged);

    await inbox.close();
    const again = await Inbox.open(dir);
    try {
      const next = await again.add(newEnquiry());
      expect(next.enquiry.id).toBe(attempts + 1); // the refused ones' ids are not given again either
      expect(new Set(readInbox(dir).enquiries.map((e) => e.id)).size).toBe(acknowledged.length + 1);
    } finally {
      await again.close();
    }
  });

  it('`content serve` answers 503 while the disk is full, never ok, and stores again without a restart', async () => {
    const dir = join(mountPoint, 'served');
    const server = await spawnServe(['--out', inject('siteDir'), '--data', dir, '--rate-limit', '0']);
    try {
      const ok: number[] = [];
      expect((await postJson(server.url, validEnquiry())).status).toBe(201);
      fill(join(mountPoint, 'filler2'));
      let status = 201;
      for (let i = 0; i < 100 && status === 201; i++) {
        const res = await postJson(server.url, validEnquiry({ message: 'y'.repeat(700) }));
        status = res.status;
        if (status === 201) ok.push(((await res.json()) as { id: number }).id);
      }
      expect(status).toBe(503);
      expect((await postJson(server.url, validEnquiry())).status).toBe(503);
      const read = readInbox(dir);
      expect(read.tornTail).toBe(false);
      expect(read.enquiries.map((e) => e.id)).toEqual([1, ...ok]);
      rmSync(join(mountPoint, 'filler2'));
      expect((await postJson(server.url, validEnquiry({ name: 'Back' }))).status).toBe(201);
      expect(readInbox(dir).enquiries.at(-1)?.name).toBe('Back');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 60_000);
});
