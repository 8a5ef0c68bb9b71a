import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { INBOX_FILE, readInbox, retentionOf } from '../serve/inbox.ts';
import type { AdminAnswers, AdminRequest } from '../serve/inbox-admin.ts';
import { readMailLog, withMail } from '../serve/mail-log.ts';
import { onFileInbox } from '../serve/on-file-inbox.ts';
import type { PgStore } from '../serve/pg-store.ts';
import { redactUrl } from '../serve/pg-store.ts';
import type { ListedEnquiry } from '../serve/store.ts';
import { databaseFor, openForReading } from './database.ts';

/** Where a command finds the enquiries: the file inbox in `--data`, or PostgreSQL (`--database`, STUDIO_DATABASE_URL). */
export interface StoreChoice {
  data: string;
  database?: string;
}

/** The database a command works on, or undefined for the file inbox in `--data` (an explicit --data wins over STUDIO_DATABASE_URL). */
export function databaseOf(opts: StoreChoice): string | undefined {
  return databaseFor(opts);
}

/** The store a command works on, for people: the file, or the database without its password. */
export function storeName(opts: StoreChoice): string {
  const database = databaseOf(opts);
  return database ? `PostgreSQL ${redactUrl(database)}` : join(opts.data, INBOX_FILE);
}

async function withDatabase<T>(url: string, work: (store: PgStore) => Promise<T>): Promise<T> {
  const store = await openForReading(url);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function requireInbox(dir: string): void {
  if (!existsSync(join(dir, INBOX_FILE)))
    throw new UsageError(`there is no enquiry inbox in ${dir}`, 'give the directory "content serve" was started with, with --data');
}

/** Every enquiry with where its e-mail stands, read without taking the store over (a running server goes on). */
export async function readAll(opts: StoreChoice): Promise<ListedEnquiry[]> {
  const database = databaseOf(opts);
  if (database) return withDatabase(database, (store) => store.listWithMail());
  requireInbox(opts.data);
  return withMail(readInbox(opts.data).enquiries, readMailLog(opts.data));
}

/** The retention period the store was last served with. */
export async function readRetention(opts: StoreChoice): Promise<number | undefined> {
  const database = databaseOf(opts);
  if (database) return withDatabase(database, (store) => store.retention());
  return retentionOf(opts.data);
}

/**
 * Changes the store: PostgreSQL directly (its transactions keep the servers on it right), the
 * file inbox through the `content serve` that holds it, or itself when none runs (inbox-admin.ts).
 */
export async function change<R extends AdminRequest>(opts: StoreChoice, request: R): Promise<AdminAnswers[R['op']]> {
  const database = databaseOf(opts);
  if (!database) return onFileInbox(opts.data, request);
  const r = request as AdminRequest;
  return withDatabase(database, async (store) => {
    if (r.op === 'erase') return store.erase(r.ids, r.why);
    if (r.op === 'restore') return store.restore(r.id);
    if (r.op === 'resend') return store.resend(r.id);
    throw new UsageError('a backup of the PostgreSQL store is made with pg_dump', 'see "Backups" in the README');
  }) as Promise<AdminAnswers[R['op']]>;
}
