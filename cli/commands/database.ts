import { UsageError } from '../report/problem.ts';
import type { PgStore } from '../serve/store/pg-store.ts';
import { redactUrl } from '../serve/store/redact-url.ts';
import { givenOnCommandLine } from './option-table.ts';

/**
 * The PostgreSQL address from `--database`, or else from STUDIO_DATABASE_URL; undefined: the
 * SQLite database in `--data`. A password is taken only from the environment (STUDIO_DATABASE_URL or PGPASSWORD):
 * a command line is visible to every user of the machine and ends up in shell histories.
 */
export function databaseUrl(flag: string | undefined): string | undefined {
  const fromFlag = flag !== undefined;
  const url = fromFlag ? flag : process.env.STUDIO_DATABASE_URL || undefined;
  if (url === undefined) return undefined;
  const source = fromFlag ? '--database' : 'STUDIO_DATABASE_URL';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${source} is not a PostgreSQL address`, 'e.g. postgres://studio@db.example.org:5432/studio');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new UsageError(`${source} is not a postgres:// address: ${redactUrl(url)}`, 'e.g. postgres://studio@db.example.org:5432/studio');
  if (fromFlag && (parsed.password || parsed.searchParams.has('password')))
    throw new UsageError(
      `--database holds a password (${redactUrl(url)}); it would be visible to every user of this machine`,
      'give the address without it and the password in PGPASSWORD, or the whole address in STUDIO_DATABASE_URL',
    );
  return url;
}

/**
 * The database a command that takes both --data and --database uses, or undefined for the SQLite
 * store in --data. What the user wrote wins over the environment: an explicit --data is SQLite,
 * whatever STUDIO_DATABASE_URL says; both written at once is a usage error.
 */
export function databaseFor(opts: { data?: string; database?: string }): string | undefined {
  const dataGiven = givenOnCommandLine(opts, 'data');
  if (dataGiven && opts.database !== undefined)
    throw new UsageError(
      '--data and --database name two different inboxes',
      'give one of them: --data for the SQLite database in a folder, --database for PostgreSQL',
    );
  return dataGiven ? undefined : databaseUrl(opts.database);
}

/** Which store a command reads, for people (on stderr): the SQLite file, or the database without its password and where its address came from. */
export function storeNote(opts: { data: string; database?: string }, file: string): string {
  const url = databaseFor(opts);
  if (!url) return `read ${file}${process.env.STUDIO_DATABASE_URL && givenOnCommandLine(opts, 'data') ? ' (--data, not STUDIO_DATABASE_URL)' : ''}`;
  return `read PostgreSQL ${redactUrl(url)} (from ${opts.database !== undefined ? '--database' : 'STUDIO_DATABASE_URL'})`;
}

/** `--database`, or STUDIO_DATABASE_URL, for the commands that need one. */
export function requireDatabase(flag: string | undefined): string {
  const url = databaseUrl(flag);
  if (!url) throw new UsageError('no database given', 'give --database postgres://user@host/db (password in PGPASSWORD) or set STUDIO_DATABASE_URL');
  return url;
}

/** The PostgreSQL store for a command that reads it: the schema must exist, the database must answer now. */
export async function openForReading(url: string): Promise<PgStore> {
  // The PostgreSQL client is loaded only by a command that reads PostgreSQL.
  const { DatabaseRefused, PgStore } = await import('../serve/store/pg-store.ts');
  let store: PgStore;
  try {
    store = await PgStore.open(url, { migrate: false });
  } catch (error) {
    if (error instanceof DatabaseRefused)
      throw new UsageError(
        `the database ${redactUrl(url)} cannot be read: ${error.message}`,
        'run "content enquiries migrate" first, or check the address and password',
      );
    throw error;
  }
  const health = store.health();
  if (!health.ok) {
    await store.close();
    throw new UsageError(
      `the database ${redactUrl(url)} does not answer: ${health.reason.replace(/^the database cannot store enquiries: /, '')}`,
      'is PostgreSQL running there?',
    );
  }
  return store;
}
