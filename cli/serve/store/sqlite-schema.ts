import type { DatabaseSync } from 'node:sqlite';

/** The database file in `--data`; SQLite keeps `-wal` and `-shm` beside it. */
export const DATABASE_FILE = 'enquiries.db';
/** The file inbox of earlier releases (one enquiry per JSON line), imported by the first start (file-inbox-import.ts). */
export const INBOX_FILE = 'enquiries.jsonl';

/**
 * The SQLite store's schema, one step per version, applied in order and never edited once
 * released (a change, such as a new enquiry field of ENQUIRY_FIELDS, is a new step).
 * `PRAGMA user_version` holds the version a database is at.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: enquiries (ids from AUTOINCREMENT: never given twice, also after the newest is erased),
  // their idempotency keys, the duplicate window, the e-mail jobs, settings, the audit of
  // erasures, and what an imported file inbox held that could not be read as an enquiry.
  `
  CREATE TABLE enquiries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    received_at TEXT NOT NULL,
    name TEXT NOT NULL,
    course TEXT NOT NULL,
    message TEXT NOT NULL,
    email TEXT NOT NULL,
    locale TEXT NOT NULL,
    page TEXT,
    idempotency_key TEXT,
    via TEXT NOT NULL CHECK (via IN ('json', 'form')),
    notify INTEGER NOT NULL CHECK (notify IN (0, 1)),
    spam TEXT CHECK (spam IN ('honeypot', 'too_fast')),
    content_hash TEXT NOT NULL,
    -- The address as show and erase compare it (foldAddress).
    email_fold TEXT NOT NULL
  );
  CREATE INDEX enquiries_received ON enquiries (received_at);
  CREATE INDEX enquiries_email ON enquiries (email_fold);
  -- An idempotency key names one enquiry for as long as it is kept.
  CREATE TABLE enquiry_keys (key TEXT PRIMARY KEY, content_hash TEXT NOT NULL, enquiry_id INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX enquiry_keys_enquiry ON enquiry_keys (enquiry_id);
  -- The latest enquiry with these fields: the same one again within the window is that one.
  CREATE TABLE enquiry_recent (content_hash TEXT PRIMARY KEY, received_at TEXT NOT NULL, enquiry_id INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX enquiry_recent_enquiry ON enquiry_recent (enquiry_id);
  CREATE INDEX enquiry_recent_received ON enquiry_recent (received_at);
  -- One e-mail to the studio per enquiry that asks for it. Times in ms since the epoch.
  -- claimed_until: a server is sending it until then (two servers on one database never send one e-mail twice).
  CREATE TABLE enquiry_mail (
    enquiry_id INTEGER PRIMARY KEY,
    sent_at TEXT,
    failed_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    claimed_until INTEGER
  );
  CREATE INDEX enquiry_mail_owed ON enquiry_mail (next_at) WHERE sent_at IS NULL AND failed_at IS NULL;
  CREATE INDEX enquiry_mail_failed ON enquiry_mail (enquiry_id) WHERE failed_at IS NOT NULL;
  -- 'retention_days', 'file_inbox_imported'.
  CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  -- One row per erasure: when, which ids, why; never what a visitor wrote.
  CREATE TABLE audit (at TEXT NOT NULL, line TEXT NOT NULL);
  -- Lines of an imported file inbox that are not a whole enquiry (a line torn by a crash):
  -- kept as they were, shown by show, erased by erase and by the retention period like an enquiry.
  CREATE TABLE damaged (
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    enquiry_id INTEGER,
    received_at TEXT NOT NULL,
    text TEXT NOT NULL
  );
  CREATE INDEX damaged_received ON damaged (received_at);
  `,
  // 2: the visitor's phone number (optional).
  `
  ALTER TABLE enquiries ADD COLUMN phone TEXT;
  `,
  // 3: an erasure by number finds an enquiry's damaged lines by index, not by reading the table.
  `
  CREATE INDEX damaged_enquiry ON damaged (enquiry_id);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class SchemaTooNew extends Error {
  constructor(readonly version: number) {
    super(`the enquiry database's schema is at version ${version}, newer than this tool knows (${SCHEMA_VERSION})`);
  }
}

/**
 * How every connection is set up. WAL: readers (the commands) never wait for the server's
 * writes; `synchronous=FULL`: a commit is synced before it returns, so an acknowledged
 * enquiry survives a power cut, not only a crash; `secure_delete`: an erased enquiry's bytes
 * are overwritten, not left in free pages; the busy timeout: a writer waits this long for
 * another process's write (a command's erasure) before it gives up.
 */
export function configure(db: DatabaseSync, busyMs: number): void {
  db.exec(`PRAGMA busy_timeout = ${Math.round(busyMs)}`);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA secure_delete = ON');
  db.exec('PRAGMA foreign_keys = ON');
}

/** Brings the schema to SCHEMA_VERSION, one step per transaction; refuses a database newer than this tool. */
export function migrate(db: DatabaseSync): { from: number; to: number } {
  const version = () => Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  const from = version();
  if (from > SCHEMA_VERSION) throw new SchemaTooNew(from);
  for (let v = from; v < SCHEMA_VERSION; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated while this one waited for the lock.
      if (version() === v) {
        db.exec(MIGRATIONS[v]!);
        db.exec(`PRAGMA user_version = ${v + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      // SQLite undoes a transaction by itself when its commit fails (a full disk).
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  return { from, to: Math.max(from, SCHEMA_VERSION) };
}
