import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { ENQUIRY_COLUMNS, foldAddress, recordFromRow, rowValues } from './enquiry-record.ts';
import { configure, DATABASE_FILE, INBOX_FILE, migrate } from './sqlite-schema.ts';
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
  type StoreDetails,
  type StoredEnquiry,
  type StoreHealth,
  StoreUnavailable,
} from './store.ts';

export { DATABASE_FILE } from './sqlite-schema.ts';

type Row = Record<string, unknown>;

/** Rows one transaction of the retention sweep removes at most. */
const SLICE = 2_000;

/**
 * The statements of the hourly retention sweep. Each finds what expired by an index on its time
 * (enquiries_received, damaged_received, enquiry_recent_received), so a sweep reads only what
 * expires and is as quick on a million enquiries as on ten when nothing does; never a scan of a
 * table (tests/serve/sqlite-store.test.ts checks their query plans).
 */
export const SWEEP_SQL = {
  expired: 'SELECT id FROM enquiries WHERE received_at < ? ORDER BY received_at LIMIT ?',
  damagedExpired: 'SELECT 1 FROM damaged WHERE received_at < ? LIMIT 1',
  damagedErase: 'DELETE FROM damaged WHERE received_at < ?',
  windowEnded: 'SELECT 1 FROM enquiry_recent WHERE received_at <= ? LIMIT 1',
  windowErase: 'DELETE FROM enquiry_recent WHERE content_hash IN (SELECT content_hash FROM enquiry_recent WHERE received_at <= ? LIMIT ?)',
} as const;

/** How long a write waits for another process's (a command's erasure, a second server) before it gives up. */
export const BUSY_TIMEOUT_MS = 3_000;

export interface SqliteStoreOptions {
  /** While storing fails, how often to check whether it works again (for `health()`). */
  recheckMs?: number;
  /** Told what an import of an old file inbox did (the first start after the upgrade). */
  onImport?: (report: import('./file-inbox-import.ts').ImportReport) => void;
}

/** What `show` and `erase` look for: one person's address, or enquiry numbers. */
export type Selection = { email: string } | { ids: readonly number[] };

/** A line of an imported file inbox that was not a whole enquiry, kept as it was (see the `damaged` table). */
export interface DamagedRecord {
  source: string;
  line: number;
  id?: number;
  receivedAt: string;
  text: string;
}

interface Pending {
  input: NewEnquiry;
  now: Date;
  resolve: (added: Added) => void;
  reject: (error: unknown) => void;
}

/**
 * The embedded enquiry store: one SQLite database (`enquiries.db` in `--data`), opened by
 * `content serve` and, at the same time, by every `content enquiries` command. An enquiry is
 * acknowledged only after its transaction committed, which with `synchronous=FULL` means
 * synced to disk. The enquiries that arrive in one turn of the event loop are committed
 * together (one sync for all of them); when the commit fails (a full disk, an I/O error) all
 * of them are answered 503 and nothing of them is kept, and the next enquiry tries again.
 * Duplicates and idempotency keys are found in the database, not in memory, so a command's
 * erasure or a second server on the same database is seen at once.
 */
export class SqliteStore implements EnquiryStore {
  private closed = false;
  private failure: string | undefined;
  private recheck: NodeJS.Timeout | undefined;
  private queue: Pending[] = [];
  private flushing = false;
  private details: { at: number; value: StoreDetails } | undefined;
  private readonly statements = new Map<string, StatementSync>();

  private constructor(
    readonly dir: string,
    readonly db: DatabaseSync,
    private readonly recheckMs: number,
  ) {}

  /**
   * Opens (creating, migrating, importing an old file inbox) the store in `dir`. As much work
   * for a million enquiries as for none: the schema's version is one pragma, and nothing is
   * counted or checked row by row (the import, and zod with it, is loaded only when there is an
   * old inbox to import).
   */
  static async open(dir: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, DATABASE_FILE);
    // Created by us first, readable by its owner only: SQLite gives its -wal and -shm files the same mode.
    closeSync(openSync(file, 'a', 0o600));
    const db = new DatabaseSync(file);
    try {
      configure(db, BUSY_TIMEOUT_MS);
      migrate(db);
      const store = new SqliteStore(dir, db, options.recheckMs ?? 2_000);
      if (existsSync(join(dir, INBOX_FILE))) {
        const report = (await import('./file-inbox-import.ts')).importFileInbox(store);
        if (report) options.onImport?.(report);
      }
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Where the enquiries are, for people. */
  get where(): string {
    return join(this.dir, DATABASE_FILE);
  }

  /** A prepared statement, made once per store. */
  sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** `work` in one write transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(work: () => T): T {
    if (this.closed) throw new StoreUnavailable('the enquiry store is closed');
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  health(): StoreHealth {
    if (this.closed) return { ok: false, reason: 'the enquiry store is closed' };
    const details = this.storeDetails();
    if (this.failure) return { ok: false, reason: `the enquiry database cannot store enquiries: ${this.failure}`, ...details };
    return { ok: true, ...details };
  }

  /** E-mails refused for good, the oldest owed, the retention period; counted at most once a second. */
  private storeDetails(): StoreDetails {
    const now = Date.now();
    if (this.details && now - this.details.at < 1_000) return this.details.value;
    try {
      const r = this.sql(
        `SELECT (SELECT count(*) FROM enquiry_mail WHERE failed_at IS NOT NULL) AS failed,
                (SELECT min(e.received_at) FROM enquiry_mail m JOIN enquiries e ON e.id = m.enquiry_id
                  WHERE m.sent_at IS NULL AND m.failed_at IS NULL) AS oldest,
                (SELECT value FROM settings WHERE name = 'retention_days') AS days`,
      ).get() as Row;
      const value: StoreDetails = {
        mail: { failed: Number(r.failed), ...(r.oldest ? { oldestOwedAt: String(r.oldest) } : {}) },
        ...(r.days ? { retentionDays: Number(r.days) } : {}),
      };
      this.details = { at: now, value };
      return value;
    } catch {
      return this.details?.value ?? {};
    }
  }

  add(input: NewEnquiry, now = new Date()): Promise<Added> {
    if (this.closed) return Promise.reject(new StoreUnavailable('the enquiry store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ input, now, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // The enquiries of this turn of the event loop go into one transaction and one sync.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.flushing = false;
    if (!batch.length) return;
    const results: (Added | EnquiryConflict)[] = [];
    try {
      this.transaction(() => {
        for (const p of batch) {
          try {
            results.push(this.insert(p.input, p.now));
          } catch (error) {
            if (!(error instanceof EnquiryConflict)) throw error;
            results.push(error);
          }
        }
      });
    } catch (error) {
      this.fail(error);
      const reason = new StoreUnavailable(`the enquiry database could not store an enquiry: ${messageOf(error)}`, { cause: error });
      for (const p of batch) p.reject(reason);
      return;
    }
    this.failure = undefined;
    this.details = undefined;
    batch.forEach((p, i) => {
      const r = results[i]!;
      if (r instanceof EnquiryConflict) p.reject(r);
      else p.resolve(r);
    });
  }

  /** One enquiry, inside the batch's transaction: a duplicate (by key or by fields within the window) is the first one. */
  private insert(input: NewEnquiry, now: Date): Added {
    const hash = contentHash(input);
    const key = input.idempotencyKey ?? null;
    if (key) {
      const known = this.sql('SELECT k.content_hash AS key_hash, e.* FROM enquiry_keys k JOIN enquiries e ON e.id = k.enquiry_id WHERE k.key = ?').get(key) as
        | Row
        | undefined;
      if (known) {
        if (known.key_hash !== hash) throw conflict(key);
        return { enquiry: recordFromRow(known), duplicate: true };
      }
    }
    const recent = this.sql('SELECT e.* FROM enquiry_recent r JOIN enquiries e ON e.id = r.enquiry_id WHERE r.content_hash = ? AND r.received_at > ?').get(
      hash,
      new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString(),
    ) as Row | undefined;
    if (recent) {
      if (key) this.sql('INSERT INTO enquiry_keys (key, content_hash, enquiry_id) VALUES (?, ?, ?)').run(key, hash, recent.id as number);
      return { enquiry: recordFromRow(recent), duplicate: true };
    }
    const row = this.sql(
      `INSERT INTO enquiries (received_at, ${ENQUIRY_COLUMNS.join(', ')}, content_hash, email_fold)
       VALUES (?, ${ENQUIRY_COLUMNS.map(() => '?').join(', ')}, ?, ?) RETURNING *`,
    ).get(now.toISOString(), ...rowValues(input), hash, foldAddress(input.email)) as Row;
    const id = row.id as number;
    this.sql(
      `INSERT INTO enquiry_recent (content_hash, received_at, enquiry_id) VALUES (?, ?, ?)
       ON CONFLICT (content_hash) DO UPDATE SET received_at = excluded.received_at, enquiry_id = excluded.enquiry_id`,
    ).run(hash, now.toISOString(), id);
    if (key) this.sql('INSERT INTO enquiry_keys (key, content_hash, enquiry_id) VALUES (?, ?, ?)').run(key, hash, id);
    if (input.notify && !input.spam) this.sql('INSERT INTO enquiry_mail (enquiry_id) VALUES (?)').run(id);
    return { enquiry: recordFromRow(row), duplicate: false };
  }

  private fail(error: unknown): void {
    this.failure = messageOf(error);
    if (this.recheck || this.closed) return;
    // While storing fails, a small write now and then tells health() when it works again, without waiting for an enquiry.
    this.recheck = setInterval(() => {
      if (this.closed || !this.failure) {
        clearInterval(this.recheck);
        this.recheck = undefined;
        return;
      }
      try {
        this.transaction(() => {
          this.sql("INSERT INTO settings (name, value) VALUES ('probe', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run('x'.repeat(8192));
          this.sql("DELETE FROM settings WHERE name = 'probe'").run();
        });
        this.failure = undefined;
      } catch (error) {
        this.failure = messageOf(error);
      }
    }, this.recheckMs);
    this.recheck.unref();
  }

  async list(): Promise<StoredEnquiry[]> {
    return (this.sql('SELECT * FROM enquiries ORDER BY id').all() as Row[]).map(recordFromRow);
  }

  async listWithMail(): Promise<ListedEnquiry[]> {
    return this.withMail('');
  }

  private withMail(where: string, ...params: (string | number)[]): ListedEnquiry[] {
    const rows = this.db
      .prepare(
        `SELECT e.*, m.enquiry_id AS mail_id, m.sent_at AS mail_sent_at, m.failed_at AS mail_failed_at, m.last_error AS mail_error
         FROM enquiries e LEFT JOIN enquiry_mail m ON m.enquiry_id = e.id ${where} ORDER BY e.id`,
      )
      .all(...params) as Row[];
    return rows.map((r) => ({ ...recordFromRow(r), mail: mailOf(r) }));
  }

  /** The enquiries of one address (compared as foldAddress does) or with these ids, found by index. */
  async find(selection: Selection): Promise<ListedEnquiry[]> {
    if ('email' in selection) return this.withMail('WHERE e.email_fold = ?', foldAddress(selection.email));
    const found: ListedEnquiry[] = [];
    for (const ids of chunks(selection.ids)) found.push(...this.withMail(`WHERE e.id IN (${ids.map(() => '?').join(', ')})`, ...ids));
    return found.sort((a, b) => a.id - b.id);
  }

  /** Lines of an imported file inbox that were not whole enquiries, still kept (`show` lists them, `erase` removes them). */
  async damaged(selection?: Selection): Promise<DamagedRecord[]> {
    const records = (rows: Row[]): DamagedRecord[] =>
      rows.map((r) => ({
        source: String(r.source),
        line: Number(r.line),
        ...(r.enquiry_id != null ? { id: Number(r.enquiry_id) } : {}),
        receivedAt: String(r.received_at),
        text: String(r.text),
      }));
    if (selection && 'ids' in selection) {
      // By the index on the enquiry's number.
      const found: DamagedRecord[] = [];
      for (const ids of chunks(selection.ids))
        found.push(...records(this.db.prepare(`SELECT * FROM damaged WHERE enquiry_id IN (${ids.map(() => '?').join(', ')})`).all(...ids) as Row[]));
      return found.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.line - b.line));
    }
    // A line that is not a whole enquiry has no address column to look up: its text is searched.
    // The table holds only what the import of an old file inbox could not read; it never grows after it.
    const all = records(this.sql('SELECT * FROM damaged ORDER BY source, line').all() as Row[]);
    if (!selection) return all;
    const address = foldAddress(selection.email);
    return all.filter((d) => foldAddress(d.text).includes(address));
  }

  async restore(id: number): Promise<AdminResult> {
    const result = this.transaction((): AdminResult => {
      const row = this.sql('SELECT spam FROM enquiries WHERE id = ?').get(id) as Row | undefined;
      if (!row) return 'not-found';
      if (row.spam == null) return 'not-applicable';
      this.sql('UPDATE enquiries SET spam = NULL, notify = 1 WHERE id = ?').run(id);
      this.sql('INSERT INTO enquiry_mail (enquiry_id) VALUES (?) ON CONFLICT (enquiry_id) DO NOTHING').run(id);
      return 'done';
    });
    this.details = undefined;
    return result;
  }

  async resend(id: number): Promise<AdminResult> {
    const result = this.transaction((): AdminResult => {
      if (!this.sql('SELECT 1 FROM enquiries WHERE id = ?').get(id)) return 'not-found';
      const changed = this.sql(
        'UPDATE enquiry_mail SET failed_at = NULL, last_error = NULL, attempts = 0, next_at = 0, claimed_until = NULL WHERE enquiry_id = ? AND failed_at IS NOT NULL',
      ).run(id);
      return changed.changes ? 'done' : 'not-applicable';
    });
    this.details = undefined;
    return result;
  }

  async erase(ids: readonly number[], why: string): Promise<number[]> {
    return this.eraseIds(ids, why, ids);
  }

  async eraseOlderThan(cutoff: Date, why: string): Promise<number[]> {
    // By the index on the time: only what expires is read. In slices of SLICE, with the event
    // loop let go between them, so that a sweep with much to do never holds up the enquiries.
    const at = cutoff.toISOString();
    const erased: number[] = [];
    for (;;) {
      const ids = (this.sql(SWEEP_SQL.expired).all(at, SLICE) as Row[]).map((r) => Number(r.id));
      if (!ids.length) break;
      erased.push(...this.eraseIds(ids, why, []));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.sql(SWEEP_SQL.damagedExpired).get(at)) this.eraseIds([], why, [], at);
    // The duplicate window's entries that ended: only when there are some.
    const ended = new Date(Date.now() - DUPLICATE_WINDOW_MS).toISOString();
    while (this.sql(SWEEP_SQL.windowEnded).get(ended)) {
      this.transaction(() => {
        this.sql(SWEEP_SQL.windowErase).run(ended, SLICE);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return erased.sort((a, b) => a - b);
  }

  /** Removes the enquiries `ids` and every trace of them (and the damaged lines of `damagedIds`, or received before `damagedBefore`). */
  private eraseIds(ids: readonly number[], why: string, damagedIds: readonly number[], damagedBefore?: string): number[] {
    const erased: number[] = [];
    this.transaction(() => {
      for (const part of chunks(ids)) {
        const list = `(${part.map(() => '?').join(', ')})`;
        this.db.prepare(`DELETE FROM enquiry_keys WHERE enquiry_id IN ${list}`).run(...part);
        this.db.prepare(`DELETE FROM enquiry_recent WHERE enquiry_id IN ${list}`).run(...part);
        this.db.prepare(`DELETE FROM enquiry_mail WHERE enquiry_id IN ${list}`).run(...part);
        for (const r of this.db.prepare(`DELETE FROM enquiries WHERE id IN ${list} RETURNING id`).all(...part) as Row[]) erased.push(Number(r.id));
      }
      for (const part of chunks(damagedIds)) this.db.prepare(`DELETE FROM damaged WHERE enquiry_id IN (${part.map(() => '?').join(', ')})`).run(...part);
      if (damagedBefore) this.sql(SWEEP_SQL.damagedErase).run(damagedBefore);
      if (erased.length)
        this.sql('INSERT INTO audit (at, line) VALUES (?, ?)').run(
          new Date().toISOString(),
          auditLine(
            erased.sort((a, b) => a - b),
            why,
          ),
        );
    });
    this.details = undefined;
    this.checkpoint();
    return erased;
  }

  /** Removes these damaged lines of an imported file inbox (by where they came from), with an audit line. */
  async eraseDamaged(records: readonly DamagedRecord[], why: string): Promise<number> {
    let n = 0;
    this.transaction(() => {
      for (const d of records) n += Number(this.sql('DELETE FROM damaged WHERE source = ? AND line = ?').run(d.source, d.line).changes);
      if (n)
        this.sql('INSERT INTO audit (at, line) VALUES (?, ?)').run(
          new Date().toISOString(),
          `${new Date().toISOString()} erased ${n} damaged record${n === 1 ? '' : 's'} of the imported file inbox (${records.map((d) => `${d.source}:${d.line}`).join(', ')}): ${why}`,
        );
    });
    this.checkpoint();
    return n;
  }

  /**
   * Copies the write-ahead log into the database and empties it, so that what was just erased
   * is not left in the log's old frames (secure_delete has already overwritten it in the database).
   */
  checkpoint(): void {
    for (let attempt = 0; attempt < 20; attempt++) {
      const r = this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number } | undefined;
      if (!r?.busy) return;
    }
  }

  async setRetention(days: number): Promise<void> {
    this.transaction(() => {
      this.sql("INSERT INTO settings (name, value) VALUES ('retention_days', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(String(days));
    });
    this.details = undefined;
  }

  async retention(): Promise<number | undefined> {
    const row = this.sql("SELECT value FROM settings WHERE name = 'retention_days'").get() as Row | undefined;
    return row ? Number(row.value) : undefined;
  }

  /** A setting kept in the database (`form_options`: what LiveSite remembers across restarts). */
  setting(name: string): string | undefined {
    const row = this.sql('SELECT value FROM settings WHERE name = ?').get(name) as Row | undefined;
    return row ? String(row.value) : undefined;
  }

  setSetting(name: string, value: string): void {
    if (this.setting(name) === value) return;
    this.transaction(() => {
      this.sql('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
    });
  }

  /** The audit lines of the erasures, oldest first. */
  async audit(): Promise<string[]> {
    return (this.sql('SELECT line FROM audit ORDER BY rowid').all() as Row[]).map((r) => String(r.line));
  }

  /** The highest enquiry number ever given (0: none yet), erased ones too; one row to read, however many are stored. */
  lastId(): number {
    return Number((this.sql("SELECT seq FROM sqlite_sequence WHERE name = 'enquiries'").get() as Row | undefined)?.seq ?? 0);
  }

  /** How many enquiries are stored (suspected spam too): reads an index whole, so not for a server's start. */
  count(): number {
    return Number((this.sql('SELECT count(*) AS n FROM enquiries').get() as Row).n);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // What is queued is written first: an enquiry handed over before the close is never dropped.
    if (this.queue.length) this.flush();
    this.closed = true;
    clearInterval(this.recheck);
    this.statements.clear();
    this.db.close();
  }
}

/** At most 500 ids per statement (SQLite's limit on parameters is higher, but a statement stays small). */
function chunks(ids: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(ids.slice(i, i + 500) as number[]);
  return out;
}

const conflict = (key: string) => new EnquiryConflict(`the idempotency key ${key} was already used for a different enquiry; a new enquiry needs a new key`);

/** SQLite's own words for an error ("database or disk is full"), with the OS's code where it gave one. */
export function messageOf(error: unknown): string {
  const e = error as { message?: string; errstr?: string; code?: string };
  return e?.errstr && e.message && !e.message.includes(e.errstr) ? `${e.message} (${e.errstr})` : String(e?.message ?? error);
}

function mailOf(r: Row): MailState {
  if (r.mail_id == null) return { state: 'none' };
  if (r.mail_sent_at) return { state: 'sent', at: String(r.mail_sent_at) };
  if (r.mail_failed_at) return { state: 'failed', at: String(r.mail_failed_at), error: String(r.mail_error ?? '') };
  return { state: 'owed' };
}
