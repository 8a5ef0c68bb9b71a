import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import type { StoredEnquiry } from '../../cli/serve/store/store.ts';
import { postJson, readStored, spawnServe, validEnquiry } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

/** A real 2 MB tmpfs as the enquiry database's disk (needs root; elsewhere the test says so and skips). */
const mountPoint = mkdtempSync(join(tmpdir(), 'studio-tiny-disk-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { stdio: 'pipe' });
  mounted = true;
} catch (error) {
  console.warn(`Tiny-disk test skipped: cannot mount a tmpfs here (${String((error as Error).message).split('\n')[0]})`);
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

describe.skipIf(!mounted)('the SQLite store on a real full disk (2 MB tmpfs)', () => {
  it('acknowledges only what is committed, refuses while full, stores again once there is room, and never gives an id twice', async () => {
    const dir = join(mountPoint, 'data');
    const inbox = await SqliteStore.open(dir);
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
    // What is left of the log's last page may take a few more; then the disk refuses.
    while (refused === 0 && attempts < 1000) await send();
    expect(refused).toBe(1);
    expect(inbox.health().ok).toBe(false);
    expect(readStored(dir)).toEqual(acknowledged);

    await send();
    expect(refused).toBe(2); // still full
    rmSync(join(mountPoint, 'filler'));
    await send(); // room again: stored without a restart
    expect(refused).toBe(2);
    expect(inbox.health()).toMatchObject({ ok: true });
    expect(readStored(dir)).toEqual(acknowledged);

    await inbox.close();
    const again = await SqliteStore.open(dir);
    try {
      // A refused enquiry was never given its id (its transaction was undone): the next follows the last acknowledged one.
      const next = await again.add(newEnquiry());
      expect(next.enquiry.id).toBe(acknowledged.at(-1)!.id + 1);
      expect(new Set(readStored(dir).map((e) => e.id)).size).toBe(acknowledged.length + 1);
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
      for (let i = 0; i < 1000 && status === 201; i++) {
        const res = await postJson(server.url, validEnquiry({ message: 'y'.repeat(700) }));
        status = res.status;
        if (status === 201) ok.push(((await res.json()) as { id: number }).id);
      }
      expect(status).toBe(503);
      expect((await postJson(server.url, validEnquiry())).status).toBe(503);
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as { ok: boolean; reasons?: string[] };
      expect(health).toMatchObject({ ok: false, reasons: expect.arrayContaining([expect.stringMatching(/disk of the enquiry database is full/)]) });
      expect(readStored(dir).map((e) => e.id)).toEqual([1, ...ok]);
      rmSync(join(mountPoint, 'filler2'));
      expect((await postJson(server.url, validEnquiry({ name: 'Back' }))).status).toBe(201);
      expect(readStored(dir).at(-1)?.name).toBe('Back');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
