import {
  appendFileSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempFileOf, syncFolder } from '../util/atomic-write.ts';
import { keepOwner, replaceFile } from './durable-file.ts';
import { type FileOps, nodeFileOps, writeAll } from './file-ops.ts';
import { answerRequests, type InboxSnapshot } from './inbox-admin.ts';
import { type HeldLock, LOCK_FILE, takeLock } from './inbox-lock.ts';
import { MAIL_LOG, type MailEvent, mailStateOf, pruneMailLog, readMailLog, withMail } from './mail-log.ts';
import {
  type Added,
  type AdminResult,
  auditLine,
  contentHash,
  DUPLICATE_WINDOW_MS,
  EnquiryConflict,
  type EnquiryStore,
  type ListedEnquiry,
  type MailState,
  type NewEnquiry,
  type StoredEnquiry,
  type StoreHealth,
  StoreUnavailable,
} from './store.ts';

export { EnquiryConflict, type NewEnquiry, type StoredEnquiry, type StoreHealth, StoreUnavailable } from './store.ts';

export type { InboxSnapshot };

export const INBOX_FILE = 'enquiries.jsonl';
/** The highest id ever handed out, kept where a rejected enquiry's id is remembered across a restart. */
export const IDS_FILE = 'enquiries.last-id';
/** Fixed width, written in place: rewriting it needs no new disk space, so it works on a full disk. */
const IDS_WIDTH = 20;
/** The retention period `content serve` enforces, for `content enquiries list` to show. */
export const RETENTION_FILE = 'retention.json';
/** One line per erasure: when, which ids, why; never what a visitor wrote. */
export const AUDIT_FILE = 'audit.log';

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

/** The id a torn or damaged record was given, when its text still says it (`{"id":15,…`). */
const idIn = (text: string) => Number(/^\{"id":(\d+),/.exec(text)?.[1] ?? 0);

export interface InboxOptions {
  /** The file operations to write with (tests inject faults here). */
  fileOps?: FileOps;
  /** While storing fails, how often to check whether it works again (for `health()`). */
  recheckMs?: number;
  /** Whether to carry out what `content enquiries` asks of the inbox while this process holds it (default true). */
  answerRequests?: boolean;
}

interface Pending {
  bytes: Buffer;
  done: { resolve: () => void; reject: (e: unknown) => void };
}

/**
 * The file inbox: an append-only JSON Lines file, one enquiry per line. An enquiry is
 * acknowledged only when its whole line is written (short writes continued) and synced.
 * Writes that arrive while a sync is under way are written and synced together in the next
 * round (group commit). When a write or sync fails, the file is cut back to its last
 * complete line, that round's enquiries are rejected (503), and the next enquiry tries
 * again: storage coming back needs no restart. Ids are never given twice. One server owns
 * a data directory at a time (see inbox-lock.ts).
 */
export class Inbox implements EnquiryStore {
  private constructor(
    readonly dir: string,
    private readonly ops: FileOps,
    private fd: number,
    /** Bytes of complete, synced lines: where the next line goes. */
    private size: number,
    private lastId: number,
    private readonly lock: HeldLock,
    readonly recovered: string | undefined,
    private readonly recheckMs: number,
  ) {}

  private readonly byKey = new Map<string, StoredEnquiry>();
  /** Enquiries of the last DUPLICATE_WINDOW_MS by what they say, oldest first. */
  private readonly recent = new Map<string, StoredEnquiry>();
  /** Enquiries being written, by what they say, and the idempotency keys among them. */
  private readonly inFlight = new Map<string, Promise<Added>>();
  private readonly keysInFlight = new Map<string, string>();
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Why the last write failed; cleared by the next one that works. */
  private failure: Error | undefined;
  /** The file may hold bytes past `size` (a failed write) that must be cut off before the next one. */
  private dirty = false;
  private lockLost: Error | undefined;
  private recheck: NodeJS.Timeout | undefined;
  /** Where each e-mail stands, as the mail log says. */
  private readonly mail = new Map<number, MailState>();
  /** Enquiries whose e-mail is owed, by id. */
  private readonly owed = new Map<number, StoredEnquiry>();
  /** Told of every e-mail that becomes owed (a new enquiry, a restore, a resend): the outbox. */
  onOwed: ((enquiry: StoredEnquiry) => void) | undefined;
  /** Mail log appends, erasures and snapshots, one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  private retentionDays: number | undefined;
  private stopRequests: (() => void) | undefined;

  /** Opens (creating) the inbox in `dir`, recovering from a crash mid-write. */
  static async open(dir: string, options: InboxOptions = {}): Promise<Inbox> {
    mkdirSync(dir, { recursive: true });
    let lost: ((e: Error) => void) | undefined;
    const lock = await takeLock(dir, (e) => lost?.(e));
    try {
      const file = join(dir, INBOX_FILE);
      const { enquiries, tornTail } = readInbox(dir);
      let lastId = [...enquiries.map((e) => e.id), ...tornIds(dir)].reduce((a, b) => Math.max(a, b), readLastId(dir));
      let recovered: string | undefined;
      if (tornTail) {
        // The last line was cut off by a crash: it was never synced, so never acknowledged.
        // Keep its bytes aside rather than delete them, and end the log at the last whole line.
        const bytes = readFileSync(file);
        const cut = bytes.lastIndexOf(0x0a) + 1;
        const torn = bytes.subarray(cut);
        lastId = Math.max(lastId, idIn(torn.toString('utf8')));
        recovered = join(dir, `torn-${Date.now()}.txt`);
        writeFileSync(recovered, torn);
        syncFile(recovered);
        truncateSync(file, cut);
      }
      const created = !existsSync(file);
      const ops = options.fileOps ?? nodeFileOps;
      const fd = await ops.open(file, constants.O_RDWR | constants.O_CREAT, 0o600);
      if (created) syncFolder(dir);
      const inbox = new Inbox(dir, ops, fd, statSync(file).size, lastId, lock, recovered, options.recheckMs ?? 2_000);
      lost = (e) => {
        inbox.lockLost = e;
      };
      // Written now, while there is room: rewriting it in place later needs none.
      await inbox.rememberIds(lastId).catch(() => {});
      // What an erasure cut off by a crash left: its unfinished copies, and mail log lines of enquiries no longer there.
      for (const f of readdirSync(dir)) if ([INBOX_FILE, MAIL_LOG, RETENTION_FILE].some((of) => isTempFileOf(f, of))) rmSync(join(dir, f), { force: true });
      const present = new Set([...enquiries.map((e) => e.id), ...readInbox(dir).damaged.map((d) => idIn(d.text))]);
      await pruneMailLog(dir, (id) => !present.has(id)).catch(() => {});
      const since = Date.now() - DUPLICATE_WINDOW_MS;
      const log = readMailLog(dir);
      for (const e of enquiries) {
        if (e.idempotencyKey) inbox.byKey.set(e.idempotencyKey, e);
        if (Date.parse(e.receivedAt) >= since) inbox.recent.set(contentHash(e), e);
        const mail = mailStateOf(e, log);
        if (mail.state === 'owed') inbox.owed.set(e.id, e);
        if (mail.state !== 'none') inbox.mail.set(e.id, mail);
      }
      inbox.retentionDays = readRetention(dir);
      if (options.answerRequests !== false) inbox.stopRequests = answerRequests(inbox);
      return inbox;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * Stores an enquiry and resolves once it is on disk. The same enquiry again (its idempotency
   * key, or the same fields within DUPLICATE_WINDOW_MS) resolves to the first one, marked
   * `duplicate`; a known key with other fields is an `EnquiryConflict`.
   */
  add(input: NewEnquiry, now = new Date()): Promise<Added> {
    if (this.closed) return Promise.reject(new StoreUnavailable('the inbox is closed'));
    if (this.lockLost) return Promise.reject(new StoreUnavailable(`the inbox lock was lost: ${this.lockLost.message}`));
    const hash = contentHash(input);
    const key = input.idempotencyKey;
    if (key) {
      const stored = this.byKey.get(key);
      if (stored) return contentHash(stored) === hash ? Promise.resolve({ enquiry: stored, duplicate: true }) : Promise.reject(conflict(key));
      const writing = this.keysInFlight.get(key);
      if (writing !== undefined && writing !== hash) return Promise.reject(conflict(key));
    }
    const same = this.recent.get(hash);
    if (same && now.getTime() - Date.parse(same.receivedAt) < DUPLICATE_WINDOW_MS) return Promise.resolve(this.dupe(same, key));
    const pending = this.inFlight.get(hash);
    if (pending) return pending.then(({ enquiry }) => this.dupe(enquiry, key));

    const enquiry: StoredEnquiry = { id: ++this.lastId, receivedAt: now.toISOString(), ...input };
    const written = this.append(Buffer.from(`${JSON.stringify(enquiry)}\n`)).then(() => {
      if (key) this.byKey.set(key, enquiry);
      this.recent.delete(hash); // an older one past the window: keep the map in order of time
      this.recent.set(hash, enquiry);
      this.prune(now);
      if (enquiry.notify && !enquiry.spam) this.owe(enquiry);
      return { enquiry, duplicate: false };
    });
    this.inFlight.set(hash, written);
    if (key) this.keysInFlight.set(key, hash);
    const clear = () => {
      this.inFlight.delete(hash);
      if (key) this.keysInFlight.delete(key);
    };
    written.then(clear, clear);
    return written;
  }

  /** A duplicate of `first`; its own idempotency key now names `first` too. */
  private dupe(first: StoredEnquiry, key: string | undefined): Added {
    if (key && !this.byKey.has(key)) this.byKey.set(key, first);
    return { enquiry: first, duplicate: true };
  }

  private prune(now: Date): void {
    for (const [hash, e] of this.recent) {
      if (now.getTime() - Date.parse(e.receivedAt) < DUPLICATE_WINDOW_MS) break;
      this.recent.delete(hash);
    }
  }

  private append(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, done: { resolve, reject } });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    // Never finish synchronously: `flushing` must be set before this ends and clears it. Also
    // lets the enquiries of this tick join the group.
    await null;
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      const bytes = Buffer.concat(batch.map((p) => p.bytes));
      if (!this.lockLost && !this.lock.held()) this.lockLost = new Error(`${LOCK_FILE} is no longer this server's`);
      if (this.lockLost) {
        const reason = new StoreUnavailable(`the inbox lock was lost: ${this.lockLost.message}`);
        for (const p of batch) p.done.reject(reason);
        continue;
      }
      try {
        if (this.dirty) await this.cutBack();
        await writeAll(this.ops, this.fd, bytes, this.size);
        await this.ops.sync(this.fd);
        this.size += bytes.length;
        this.failure = undefined;
        for (const p of batch) p.done.resolve();
      } catch (error) {
        this.failure = error as Error;
        this.dirty = true;
        // Cut back now if the file system lets us (else before the next write), and remember
        // the ids handed out, so that a restart does not give them again.
        await this.cutBack().catch(() => {});
        await this.rememberIds(this.lastId).catch(() => {});
        const reason = new StoreUnavailable(`the inbox could not store an enquiry: ${(error as Error).message}`, { cause: error });
        for (const p of batch) p.done.reject(reason);
        this.watch();
      }
    }
    this.flushing = undefined;
  }

  /** Ends the file at its last complete, synced line again. */
  private async cutBack(): Promise<void> {
    await this.ops.truncate(this.fd, this.size);
    await this.ops.sync(this.fd);
    this.dirty = false;
  }

  private async rememberIds(lastId: number): Promise<void> {
    const fd = await this.ops.open(join(this.dir, IDS_FILE), constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      await writeAll(this.ops, fd, Buffer.from(idsFileText(lastId)), 0);
      await this.ops.sync(fd);
    } finally {
      await this.ops.close(fd);
    }
  }

  /** While storing fails, checks now and then whether it works again, so that `health()` says so without an enquiry. */
  private watch(): void {
    if (this.recheck || this.closed) return;
    this.recheck = setInterval(() => {
      if (!this.failure || this.closed) {
        clearInterval(this.recheck);
        this.recheck = undefined;
        return;
      }
      if (this.flushing) return;
      this.flushing = this.probe().finally(() => {
        this.flushing = undefined;
        if (this.queue.length) this.flushing = this.flush();
      });
    }, this.recheckMs);
    this.recheck.unref();
  }

  /** Writes and syncs a record-sized block beyond the last line, then cuts it off again. */
  private async probe(): Promise<void> {
    try {
      if (this.dirty) await this.cutBack();
      this.dirty = true;
      await writeAll(this.ops, this.fd, Buffer.alloc(8192, 0x20), this.size);
      await this.ops.sync(this.fd);
      await this.cutBack();
      this.failure = undefined;
    } catch (error) {
      this.failure = error as Error;
      await this.cutBack().catch(() => {});
    }
  }

  health(): StoreHealth {
    let failed = 0;
    for (const m of this.mail.values()) if (m.state === 'failed') failed++;
    let oldestOwedAt: string | undefined;
    for (const e of this.owed.values()) if (!oldestOwedAt || e.receivedAt < oldestOwedAt) oldestOwedAt = e.receivedAt;
    const details = { mail: { failed, ...(oldestOwedAt ? { oldestOwedAt } : {}) }, ...(this.retentionDays ? { retentionDays: this.retentionDays } : {}) };
    if (this.closed) return { ok: false, reason: 'the inbox is closed', ...details };
    if (this.lockLost) return { ok: false, reason: `the inbox lock was lost: ${this.lockLost.message}`, ...details };
    if (this.failure) return { ok: false, reason: `the inbox cannot store enquiries: ${this.failure.message}`, ...details };
    return { ok: true, ...details };
  }

  async list(): Promise<StoredEnquiry[]> {
    return readInbox(this.dir).enquiries;
  }

  async listWithMail(): Promise<ListedEnquiry[]> {
    return withMail(readInbox(this.dir).enquiries, readMailLog(this.dir));
  }

  // —— E-mail to the studio: the outbox asks what is owed and records what came of each e-mail. ——

  /** Every e-mail owed now, oldest enquiry first. */
  owedMail(): StoredEnquiry[] {
    return [...this.owed.values()].sort((a, b) => a.id - b.id);
  }

  /** Whether the e-mail for this enquiry is still owed (not sent, refused, or erased meanwhile). */
  isOwed(id: number): boolean {
    return this.owed.has(id);
  }

  private owe(enquiry: StoredEnquiry): void {
    this.owed.set(enquiry.id, enquiry);
    this.mail.set(enquiry.id, { state: 'owed' });
    this.onOwed?.(enquiry);
  }

  /** Records that an e-mail was sent, or refused for good (not tried again until `resend`). */
  async recordMail(id: number, state: { state: 'sent'; at: string } | { state: 'failed'; at: string; error: string }): Promise<void> {
    if (!this.owed.has(id)) return; // erased meanwhile
    const event: MailEvent = state.state === 'sent' ? { id, sentAt: state.at } : { id, failedAt: state.at, error: state.error };
    await this.exclusive(() => appendFile(join(this.dir, MAIL_LOG), `${JSON.stringify(event)}\n`, { mode: 0o600 }));
    this.owed.delete(id);
    this.mail.set(id, state);
  }

  async resend(id: number): Promise<AdminResult> {
    return this.exclusive(async () => {
      const e = readInbox(this.dir).enquiries.find((x) => x.id === id);
      if (!e) return 'not-found';
      if (this.mail.get(id)?.state !== 'failed') return 'not-applicable';
      await appendFile(join(this.dir, MAIL_LOG), `${JSON.stringify({ id, resentAt: new Date().toISOString() } satisfies MailEvent)}\n`, { mode: 0o600 });
      this.owe(e);
      return 'done';
    });
  }

  // —— Rewrites of the file: a restored enquiry, an erasure, the retention period. ——

  async restore(id: number): Promise<AdminResult> {
    let restored: StoredEnquiry | undefined;
    let found = false;
    await this.rewrite((e) => {
      if (e.id !== id) return e;
      found = true;
      if (!e.spam) return e;
      const { spam: _, ...rest } = e;
      restored = { ...rest, notify: true };
      return restored;
    });
    if (!found) return 'not-found';
    if (!restored) return 'not-applicable';
    this.owe(restored);
    return 'done';
  }

  async erase(ids: readonly number[], why: string): Promise<number[]> {
    const wanted = new Set(ids);
    return this.eraseWhere((e) => wanted.has(e.id), why);
  }

  async eraseOlderThan(cutoff: Date, why: string): Promise<number[]> {
    return this.eraseWhere((e) => Date.parse(e.receivedAt) < cutoff.getTime(), why);
  }

  private async eraseWhere(drop: (e: StoredEnquiry) => boolean, why: string): Promise<number[]> {
    const erased = await this.rewrite((e) => (drop(e) ? undefined : e));
    if (!erased.length) return erased;
    const gone = new Set(erased);
    for (const [key, e] of this.byKey) if (gone.has(e.id)) this.byKey.delete(key);
    for (const [hash, e] of this.recent) if (gone.has(e.id)) this.recent.delete(hash);
    for (const id of gone) {
      this.owed.delete(id);
      this.mail.delete(id);
    }
    // A torn line set aside after a crash is the start of an enquiry too.
    for (const f of readdirSync(this.dir).filter((f) => /^torn-\d+\.txt$/.test(f)))
      if (gone.has(idIn(readFileSync(join(this.dir, f), 'utf8')))) rmSync(join(this.dir, f), { force: true });
    try {
      appendFileSync(join(this.dir, AUDIT_FILE), `${auditLine(erased, why)}\n`, { mode: 0o600 });
      keepOwner(join(this.dir, AUDIT_FILE), this.dir);
    } catch {
      // A full disk: the erasure is done all the same, and the command prints the same line.
    }
    return erased;
  }

  /**
   * Rewrites the inbox with `change` applied to each enquiry (undefined: it goes), and the
   * mail log without the lines of the enquiries that went; returns their ids. Enquiries that
   * arrive meanwhile wait and are appended to the new file: none is lost. Nothing is rewritten
   * when nothing changes.
   */
  private rewrite(change: (e: StoredEnquiry) => StoredEnquiry | undefined): Promise<number[]> {
    return this.exclusive(() =>
      this.withoutAppends(async () => {
        if (this.closed) throw new StoreUnavailable('the inbox is closed');
        if (this.lockLost || !this.lock.held()) throw new StoreUnavailable(`${LOCK_FILE} is no longer this process's`);
        const file = join(this.dir, INBOX_FILE);
        const text = readFileSync(file).subarray(0, this.size).toString('utf8');
        const lines = text.split('\n');
        lines.pop(); // after the last line break: nothing
        const dropped: number[] = [];
        let changed = false;
        const kept: string[] = [];
        for (const line of lines) {
          let e: StoredEnquiry | undefined;
          try {
            e = JSON.parse(line) as StoredEnquiry;
          } catch {}
          if (!e || typeof e.id !== 'number') {
            kept.push(line); // damage is kept for a person to look at, as everywhere else
            continue;
          }
          const now = change(e);
          if (!now) dropped.push(e.id);
          else if (now === e) kept.push(line);
          else kept.push(JSON.stringify(now));
          if (now !== e) changed = true;
        }
        if (!changed) return dropped;
        const bytes = Buffer.from(kept.map((l) => `${l}\n`).join(''));
        await replaceFile(file, bytes, this.ops);
        // The open file is the old one now: the next lines go to the new one.
        const old = this.fd;
        this.fd = await this.ops.open(file, constants.O_RDWR, 0o600);
        this.size = bytes.length;
        this.dirty = false;
        await this.ops.close(old).catch(() => {});
        if (dropped.length) {
          const gone = new Set(dropped);
          await pruneMailLog(this.dir, (id) => gone.has(id));
        }
        return dropped;
      }),
    );
  }

  /** The inbox as it is now, all of it whole (for a backup): nothing is appended while it is read. */
  snapshot(): Promise<InboxSnapshot> {
    return this.exclusive(() =>
      this.withoutAppends(async () => ({
        enquiries: readFileSync(join(this.dir, INBOX_FILE)).subarray(0, this.size).toString('utf8'),
        mailLog: existsSync(join(this.dir, MAIL_LOG)) ? wholeLines(readFileSync(join(this.dir, MAIL_LOG), 'utf8')) : '',
        lastId: this.lastId,
        ...(this.retentionDays ? { retentionDays: this.retentionDays } : {}),
      })),
    );
  }

  async setRetention(days: number): Promise<void> {
    if (days === this.retentionDays) return;
    await replaceFile(join(this.dir, RETENTION_FILE), Buffer.from(`${JSON.stringify({ days })}\n`));
    this.retentionDays = days;
  }

  async retention(): Promise<number | undefined> {
    return this.retentionDays;
  }

  /** Runs `task` after the ones before it (mail log appends, rewrites and snapshots never overlap). */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.serial.then(task, task);
    this.serial = run.catch(() => {});
    return run;
  }

  /** Runs `task` with no write under way: enquiries that arrive meanwhile wait in the queue, then go out together. */
  private async withoutAppends<T>(task: () => Promise<T>): Promise<T> {
    while (this.flushing) await this.flushing;
    let done!: () => void;
    this.flushing = new Promise<void>((r) => {
      done = r;
    });
    try {
      return await task();
    } finally {
      this.flushing = undefined;
      done();
      if (this.queue.length) this.flushing = this.flush();
    }
  }

  /** Waits for every pending write, then closes the file and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.recheck);
    this.stopRequests?.();
    await this.serial;
    while (this.flushing) await this.flushing;
    await this.ops.close(this.fd);
    await this.lock.release();
  }
}

/** What a backup of the file inbox holds: its files as they were at one moment, whole lines only. */
/** What `enquiries.last-id` holds: the number, at a fixed width. */
export const idsFileText = (lastId: number) => `${String(lastId).padStart(IDS_WIDTH, '0')}\n`;

/** Up to the last line break: a line being appended right now is left out. */
const wholeLines = (text: string) => text.slice(0, text.lastIndexOf('\n') + 1);

function readRetention(dir: string): number | undefined {
  try {
    const days = (JSON.parse(readFileSync(join(dir, RETENTION_FILE), 'utf8')) as { days?: unknown }).days;
    return typeof days === 'number' && days > 0 ? days : undefined;
  } catch {
    return undefined;
  }
}

/** The retention period a file inbox was last run with (for `content enquiries list`). */
export const retentionOf = readRetention;

const conflict = (key: string) => new EnquiryConflict(`the idempotency key ${key} was already used for a different enquiry; a new enquiry needs a new key`);

function readLastId(dir: string): number {
  try {
    return Number(readFileSync(join(dir, IDS_FILE), 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/** Ids in the torn lines set aside by earlier recoveries. */
function tornIds(dir: string): number[] {
  return readdirSync(dir)
    .filter((f) => /^torn-\d+\.txt$/.test(f))
    .map((f) => idIn(readFileSync(join(dir, f), 'utf8')));
}

function syncFile(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
