import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../core/problem.ts';
import { processAlive } from '../core/process-alive.ts';

/** One stored enquiry: what the visitor sent, plus what the server knows about it. */
export interface StoredEnquiry {
  /** Sequential, starting at 1: "enquiry 57" is easy to say on the phone. */
  id: number;
  receivedAt: string;
  name: string;
  course: string;
  message: string;
  email: string;
  locale: string;
  page?: string;
  idempotencyKey?: string;
  /** `json` from the hydrated form, `form` from the plain HTML form. */
  via: 'json' | 'form';
  /** Whether an e-mail to the studio is owed for it. */
  notify: boolean;
}

export type NewEnquiry = Omit<StoredEnquiry, 'id' | 'receivedAt'>;

export const INBOX_FILE = 'enquiries.jsonl';

/** An idempotency key sent again with a different enquiry: answered 409, never stored over the first. */
export class EnquiryConflict extends Error {}

/** Whether the store can take an enquiry now (the server's health endpoint reports it). */
export type StoreHealth = { ok: true } | { ok: false; reason: string };
const LOCK_FILE = 'serve.lock';

export interface ReadResult {
  enquiries: StoredEnquiry[];
  /** Lines that are not a stored enquiry (a torn last line after a crash, or damage). */
  damaged: { line: number; text: string }[];
  /** Whether the file ends in the middle of a line (a write cut off by a crash). */
  tornTail: boolean;
}

/** Reads the inbox without taking it over (for `content enquiries`, and while a server runs). */
export function readInbox(dir: string): ReadResult {
  const file = join(dir, INBOX_FILE);
  if (!existsSync(file)) return { enquiries: [], damaged: [], tornTail: false };
  const text = readFileSync(file, 'utf8');
  const tornTail = text.length > 0 && !text.endsWith('\n');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const enquiries: StoredEnquiry[] = [];
  const damaged: ReadResult['damaged'] = [];
  lines.forEach((line, i) => {
    try {
      const e = JSON.parse(line) as StoredEnquiry;
      if (typeof e.id === 'number' && typeof e.receivedAt === 'string') enquiries.push(e);
      else damaged.push({ line: i + 1, text: line });
    } catch {
      damaged.push({ line: i + 1, text: line });
    }
  });
  return { enquiries, damaged, tornTail };
}

interface Pending {
  line: string;
  done: { resolve: () => void; reject: (e: unknown) => void };
}

/**
 * The enquiry inbox: an append-only JSON Lines file, one enquiry per line, fsynced before an
 * enquiry is acknowledged. Writes that arrive while a sync is under way are written and
 * synced together in the next round (group commit), so a burst costs a few fsyncs, not one
 * per enquiry. One server owns a data directory at a time (a lock file with its pid).
 */
export class Inbox {
  private constructor(
    readonly dir: string,
    private handle: FileHandle,
    private nextId: number,
    private readonly byKey: Map<string, StoredEnquiry>,
    readonly recovered: string | undefined,
  ) {}

  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private inFlight = new Map<string, Promise<{ enquiry: StoredEnquiry; duplicate: boolean }>>();
  private closed = false;
  /** A failed write may have left half a line: nothing more is appended until a restart recovers. */
  private failed: unknown;

  /** Opens (creating) the inbox in `dir`, recovering from a crash mid-write. */
  static async open(dir: string): Promise<Inbox> {
    mkdirSync(dir, { recursive: true });
    takeLock(dir);
    const file = join(dir, INBOX_FILE);
    const { enquiries, tornTail } = readInbox(dir);
    let recovered: string | undefined;
    if (tornTail) {
      // The last line was cut off by a crash: it was never fsynced, so never acknowledged.
      // Keep its bytes aside rather than delete them, and end the log at the last whole line.
      const text = readFileSync(file, 'utf8');
      const cut = text.lastIndexOf('\n') + 1;
      recovered = join(dir, `torn-${Date.now()}.txt`);
      writeFileSync(recovered, text.slice(cut));
      truncateSync(file, Buffer.byteLength(text.slice(0, cut)));
    }
    const created = !existsSync(file);
    const handle = await open(file, 'a');
    if (created) syncDir(dir);
    const byKey = new Map<string, StoredEnquiry>();
    let last = 0;
    for (const e of enquiries) {
      if (e.idempotencyKey) byKey.set(e.idempotencyKey, e);
      last = Math.max(last, e.id);
    }
    return new Inbox(dir, handle, last + 1, byKey, recovered);
  }

  /**
   * Stores an enquiry and resolves once it is on disk. A resubmission with an idempotency
   * key already stored (or being stored) resolves to the first one, marked `duplicate`.
   */
  add(input: NewEnquiry, now = new Date()): Promise<{ enquiry: StoredEnquiry; duplicate: boolean }> {
    if (this.closed) return Promise.reject(new Error('the inbox is closed'));
    if (this.failed) return Promise.reject(this.failed);
    const key = input.idempotencyKey;
    if (key) {
      const stored = this.byKey.get(key);
      if (stored) return Promise.resolve({ enquiry: stored, duplicate: true });
      const pending = this.inFlight.get(key);
      if (pending) return pending.then(({ enquiry }) => ({ enquiry, duplicate: true }));
    }
    const enquiry: StoredEnquiry = { id: this.nextId++, receivedAt: now.toISOString(), ...input };
    const written = this.append(`${JSON.stringify(enquiry)}\n`).then(() => {
      if (key) this.byKey.set(key, enquiry);
      return { enquiry, duplicate: false };
    });
    if (key) {
      this.inFlight.set(key, written);
      const clear = () => this.inFlight.delete(key);
      written.then(clear, clear);
    }
    return written;
  }

  private append(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line, done: { resolve, reject } });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.handle.write(batch.map((p) => p.line).join(''));
        await this.handle.datasync();
        for (const p of batch) p.done.resolve();
      } catch (error) {
        this.failed = error;
        for (const p of [...batch, ...this.queue]) p.done.reject(error);
        this.queue = [];
      }
    }
    this.flushing = undefined;
  }

  health(): StoreHealth {
    if (this.closed) return { ok: false, reason: 'the inbox is closed' };
    if (this.failed) return { ok: false, reason: `the inbox could not write: ${(this.failed as Error).message}` };
    return { ok: true };
  }

  /** Waits for every pending write, then closes the file and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.handle.close();
    rmSync(join(this.dir, LOCK_FILE), { force: true });
  }
}

function takeLock(dir: string): void {
  const lock = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lock, 'utf8'));
      if (pid && pid !== process.pid && processAlive(pid))
        throw new UsageError(
          `another "content serve" (process ${pid}) is using the enquiry inbox in ${dir}`,
          'stop it first, or give this one its own --data directory',
        );
      rmSync(lock, { force: true }); // left behind by a server that was killed
    }
  }
}

/** Makes a newly created file's directory entry durable too. */
function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
