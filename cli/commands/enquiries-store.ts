import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { foldAddress } from '../serve/store/enquiry-record.ts';
import type { PgStore } from '../serve/store/pg-store.ts';
import { redactUrl } from '../serve/store/redact-url.ts';
import { INBOX_FILE } from '../serve/store/sqlite-schema.ts';
import { DATABASE_FILE, type DamagedRecord, type Selection, SqliteStore } from '../serve/store/sqlite-store.ts';
import type { AdminResult, ListedEnquiry } from '../serve/store/store.ts';
import { databaseFor, openForReading } from './database.ts';

/** Where a command finds the enquiries: the SQLite database in `--data`, or PostgreSQL (`--database`, STUDIO_DATABASE_URL). */
export interface StoreChoice {
  data: string;
  database?: string;
}

/** What a command asks of the store that changes it. */
export type AdminRequest =
  | { op: 'erase'; ids: number[]; why: string; damaged?: DamagedRecord[] }
  | { op: 'restore'; id: number }
  | { op: 'resend'; id: number };
type Answers = { erase: number[]; restore: AdminResult; resend: AdminResult };

/** The database a command works on, or undefined for the SQLite database in `--data` (an explicit --data wins over STUDIO_DATABASE_URL). */
export function databaseOf(opts: StoreChoice): string | undefined {
  return databaseFor(opts);
}

/** The store a command works on, for people: the database file, or PostgreSQL without its password. */
export function storeName(opts: StoreChoice): string {
  const database = databaseOf(opts);
  return database ? `PostgreSQL ${redactUrl(database)}` : join(opts.data, DATABASE_FILE);
}

/**
 * The SQLite store in `dir`, opened beside a running `content serve` (SQLite's locks keep the
 * two right; a command never waits for the server, nor the server for long for a command).
 * An old file inbox there is imported first, as `content serve` would.
 */
export async function openSqliteStore(dir: string): Promise<SqliteStore> {
  if (!existsSync(join(dir, DATABASE_FILE)) && !existsSync(join(dir, INBOX_FILE)))
    throw new UsageError(`there are no enquiries in ${dir} (no ${DATABASE_FILE})`, 'give the folder "content serve" was started with, with --data');
  try {
    return await SqliteStore.open(dir);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `cannot open ${join(dir, DATABASE_FILE)}: ${(error as Error).message}`,
      'run the command as the user "content serve" runs as (or with sudo)',
    );
  }
}

/** `work` on the store a command names, closed afterwards. */
export async function withStore<T>(opts: StoreChoice, work: (store: SqliteStore | PgStore) => Promise<T>): Promise<T> {
  const database = databaseOf(opts);
  const store = database ? await openForReading(database) : await openSqliteStore(opts.data);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Every enquiry with where its e-mail stands. */
export function readAll(opts: StoreChoice): Promise<ListedEnquiry[]> {
  return withStore(opts, (store) => store.listWithMail());
}

/** The enquiries of one address or with these ids: by the index in SQLite. */
export function find(opts: StoreChoice, selection: Selection): Promise<{ found: ListedEnquiry[]; damaged: DamagedRecord[] }> {
  return withStore(opts, async (store) => {
    if (store instanceof SqliteStore) return { found: await store.find(selection), damaged: await store.damaged(selection) };
    const all = await store.listWithMail();
    if ('email' in selection) {
      const address = foldAddress(selection.email);
      return { found: all.filter((e) => foldAddress(e.email) === address), damaged: [] };
    }
    return { found: all.filter((e) => selection.ids.includes(e.id)), damaged: [] };
  });
}

/** The retention period the store was last served with. */
export function readRetention(opts: StoreChoice): Promise<number | undefined> {
  return withStore(opts, (store) => store.retention());
}

/** Changes the store directly: its transactions keep a running server right. */
export function change<R extends AdminRequest>(opts: StoreChoice, request: R): Promise<Answers[R['op']]> {
  const r = request as AdminRequest;
  return withStore(opts, async (store) => {
    if (r.op === 'erase') {
      if (r.damaged?.length && store instanceof SqliteStore) await store.eraseDamaged(r.damaged, r.why);
      return store.erase(r.ids, r.why);
    }
    if (r.op === 'restore') return store.restore(r.id);
    return store.resend(r.id);
  }) as Promise<Answers[R['op']]>;
}
