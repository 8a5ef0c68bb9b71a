import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FileOps, nodeFileOps } from '../../cli/serve/file-ops.ts';
import { INBOX_FILE, Inbox, readInbox, StoreUnavailable } from '../../cli/serve/inbox.ts';
import { MAIL_LOG } from '../../cli/serve/mail-log.ts';
import { tempData } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

/**
 * Real file operations with faults injected into the inbox file's writes and syncs: a full
 * disk (a short write, then ENOSPC), an I/O error, a failed sync, and writes cut short.
 */
function faultyOps() {
  let inboxFd = -1;
  const state = {
    /** Fail every write to the inbox file with this code. */
    failWrites: undefined as string | undefined,
    /** The next write writes only this many bytes, then the disk is full. */
    fullAfter: undefined as number | undefined,
    failSync: undefined as string | undefined,
    /** Write at most this many bytes per call (a short write). */
    chunk: undefined as number | undefined,
    writeCalls: 0,
  };
  const ops: FileOps = {
    ...nodeFileOps,
    async open(path, flags, mode) {
      const fd = await nodeFileOps.open(path, flags, mode);
      if (path.endsWith(INBOX_FILE)) inboxFd = fd;
      return fd;
    },
    async write(fd, buffer, offset, length, position) {
      if (fd !== inboxFd) return nodeFileOps.write(fd, buffer, offset, length, position);
      state.writeCalls++;
      if (state.failWrites) throw errno(state.failWrites);
      if (state.fullAfter !== undefined) {
        const n = Math.min(length, state.fullAfter);
        state.fullAfter = undefined;
        state.failWrites = 'ENOSPC';
        return n ? nodeFileOps.write(fd, buffer, offset, n, position) : Promise.reject(errno('ENOSPC'));
      }
      return nodeFileOps.write(fd, buffer, offset, Math.min(length, state.chunk ?? length), position);
    },
    async sync(fd) {
      if (fd === inboxFd && state.failSync) throw errno(state.failSync);
      return nodeFileOps.sync(fd);
    },
  };
  return { ops, state };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function faultyInbox() {
  const data = tempData();
  const { ops, state } = faultyOps();
  const inbox = await Inbox.open(data.dir, { fileOps: ops, recheckMs: 20 });
  cleanups.push(data.cleanup, () => inbox.close());
  return { inbox, state, dir: data.dir, ops };
}

/** The inbox file holds exactly these enquiries, each on a whole line, and nothing else. */
function expectFileHolds(dir: string, names: string[]) {
  const text = readFileSync(join(dir, INBOX_FILE), 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  const read = readInbox(dir);
  expect(read.damaged).toEqual([]);
  expect(read.enquiries.map((e) => e.name)).toEqual(names);
}

const until = async (what: () => boolean) => {
  for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
};

describe('the inbox acknowledges only what is completely written and synced', () => {
  it('disk full mid-line (a short write, then ENOSPC): rejected, cut back to the last whole line, stored again once there is room', async () => {
    const { inbox, state, dir } = await faultyInbox();
    await inbox.add(newEnquiry({ name: 'Before' }));
    state.fullAfter = 37; // part of the next line reaches the disk, then it is full
    await expect(inbox.add(newEnquiry({ name: 'Cut' }))).rejects.toBeInstanceOf(StoreUnavailable);
    expectFileHolds(dir, ['Before']);
    expect(inbox.health()).toMatchObject({ ok: false, reason: expect.stringContaining('ENOSPC') });
    await expect(inbox.add(newEnquiry({ name: 'Still full' }))).rejects.toThrow(/ENOSPC/);
    expect(inbox.health().ok).toBe(false);

    state.failWrites = undefined; // room again: no restart
    await until(() => inbox.health().ok);
    const after = await inbox.add(newEnquiry({ name: 'After' }));
    expect(after.enquiry.id).toBe(4); // 2 and 3 were handed out and refused: never given again
    expectFileHolds(dir, ['Before', 'After']);
  });

  it('continues a short write until every byte is written', async () => {
    const { inbox, state, dir } = await faultyInbox();
    state.chunk = 7;
    const results = await Promise.all([newEnquiry({ name: 'One' }), newEnquiry({ name: 'Two' }), newEnquiry({ name: 'Three' })].map((e) => inbox.add(e)));
    expect(results.map((r) => r.enquiry.id)).toEqual([1, 2, 3]);
    expect(state.writeCalls).toBeGreaterThan(30); // each write wrote 7 bytes at most
    expectFileHolds(dir, ['One', 'Two', 'Three']);
  });

  it('an I/O error (EIO) rejects the enquiry, and the next one is stored when writes work again', async () => {
    const { inbox, state, dir } = await faultyInbox();
    state.failWrites = 'EIO';
    await expect(inbox.add(newEnquiry({ name: 'Lost' }))).rejects.toThrow(/EIO/);
    expect(inbox.health().ok).toBe(false);
    await new Promise((r) => setTimeout(r, 100)); // rechecks run and keep failing
    expect(inbox.health().ok).toBe(false);
    state.failWrites = undefined;
    expect((await inbox.add(newEnquiry({ name: 'Kept' }))).enquiry.id).toBe(2);
    expect(inbox.health()).toMatchObject({ ok: true });
    expectFileHolds(dir, ['Kept']);
  });

  it('a failed fsync rejects the whole group and cuts its lines off, though they were written', async () => {
    const { inbox, state, dir } = await faultyInbox();
    await inbox.add(newEnquiry({ name: 'Synced' }));
    state.failSync = 'EIO';
    const group = await Promise.allSettled([1, 2, 3].map((i) => inbox.add(newEnquiry({ name: `Unsynced ${i}` }))));
    expect(group.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expectFileHolds(dir, ['Synced']);
    expect(inbox.health().ok).toBe(false);
    state.failSync = undefined;
    expect((await inbox.add(newEnquiry({ name: 'Next' }))).enquiry.id).toBe(5);
    expectFileHolds(dir, ['Synced', 'Next']);
  });

  it('never gives an id twice, also after a restart that follows a failure', async () => {
    const { inbox, state, dir } = await faultyInbox();
    await inbox.add(newEnquiry({ name: 'One' }));
    state.fullAfter = 10;
    await expect(inbox.add(newEnquiry())).rejects.toThrow();
    await expect(inbox.add(newEnquiry())).rejects.toThrow();
    await inbox.close();
    const again = await Inbox.open(dir);
    cleanups.push(() => again.close());
    expect((await again.add(newEnquiry({ name: 'Four' }))).enquiry.id).toBe(4);
    expectFileHolds(dir, ['One', 'Four']);
  });
});

describe('an erasure on a full disk', () => {
  it('fails whole: the inbox keeps every byte, enquiries go on being stored, and it works once there is room', async () => {
    const data = tempData();
    let full = true;
    const temps = new Set<number>();
    const ops: FileOps = {
      ...nodeFileOps,
      async open(path, flags, mode) {
        const fd = await nodeFileOps.open(path, flags, mode);
        if (path.endsWith('.tmp')) temps.add(fd);
        return fd;
      },
      async write(fd, buffer, offset, length, position) {
        if (temps.has(fd) && full) return length > 10 ? nodeFileOps.write(fd, buffer, offset, 10, position) : Promise.reject(errno('ENOSPC'));
        return nodeFileOps.write(fd, buffer, offset, length, position);
      },
    };
    const inbox = await Inbox.open(data.dir, { fileOps: ops });
    cleanups.push(data.cleanup, () => inbox.close());
    const a = await inbox.add(newEnquiry({ name: 'Anna' }));
    await inbox.add(newEnquiry({ name: 'Boris' }));
    const before = readFileSync(join(data.dir, INBOX_FILE));
    const [erasing, during] = await Promise.allSettled([inbox.erase([a.enquiry.id], 'on request'), inbox.add(newEnquiry({ name: 'Clara' }))]);
    expect(erasing.status).toBe('rejected');
    expect(during.status).toBe('fulfilled');
    expect(readFileSync(join(data.dir, INBOX_FILE)).subarray(0, before.length)).toEqual(before);
    expectFileHolds(data.dir, ['Anna', 'Boris', 'Clara']);
    expect(readdirSync(data.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]); // the half-written copy is gone
    full = false;
    expect(await inbox.erase([a.enquiry.id], 'on request')).toEqual([a.enquiry.id]);
    await inbox.add(newEnquiry({ name: 'Dora' }));
    expectFileHolds(data.dir, ['Boris', 'Clara', 'Dora']);
  });
});

describe('an erasure cut off by a crash', () => {
  it('leaves no half-made copy and no mail log line of an enquiry that is gone once the inbox is opened again', async () => {
    const data = tempData();
    cleanups.push(data.cleanup);
    const inbox = await Inbox.open(data.dir);
    await inbox.add(newEnquiry({ name: 'Kept', notify: true }));
    await inbox.close();
    // The inbox was rewritten without enquiry 2; the crash came before its mail log line and a copy were cleaned up.
    writeFileSync(
      join(data.dir, MAIL_LOG),
      `${JSON.stringify({ id: 2, failedAt: '2026-11-20T10:00:00Z', error: '554 Erika' })}\n${JSON.stringify({ id: 1, sentAt: '2026-11-20T10:00:00Z' })}\n`,
    );
    writeFileSync(join(data.dir, '.enquiries.jsonl.0123456789ab.tmp'), '{"id":2,"name":"Erika"}\n');
    const again = await Inbox.open(data.dir);
    cleanups.push(() => again.close());
    expect(readFileSync(join(data.dir, MAIL_LOG), 'utf8')).toBe(`${JSON.stringify({ id: 1, sentAt: '2026-11-20T10:00:00Z' })}\n`);
    expect(readdirSync(data.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
