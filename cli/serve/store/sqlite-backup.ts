import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { UsageError } from '../../report/problem.ts';
import { processAlive } from '../../util/process-alive.ts';
import { ENQUIRY_COLUMNS, foldAddress, recordFromRow, rowValues } from './enquiry-record.ts';
import { DATABASE_FILE, SCHEMA_VERSION } from './sqlite-schema.ts';
import { SqliteStore } from './sqlite-store.ts';
import { contentHash } from './store.ts';
import { recordProblem } from './stored-record.ts';

type Row = Record<string, unknown>;

/**
 * The name a backup to `to` is written under until it is whole: hidden, never taken for a backup,
 * and marked as this tool's with the writing process's id and a random part.
 */
const partialName = (to: string, pid: number) => join(dirname(to), `.${basename(to)}.studio-backup.${pid}.${randomBytes(4).toString('hex')}.partial`);
// SQLite keeps a journal beside it while it writes (`-journal`).
const PARTIAL = /^\.(.+)\.studio-backup\.(\d+)\.[0-9a-f]{8}\.partial(?:-journal)?$/;
/** A partial copy not written to for this long, by a process that no longer runs, was left by a killed backup. */
const LEFT_FOR_MS = 10 * 60_000;

/**
 * Whether `name` in `folder` is a partial copy a killed backup left: named as this tool names one,
 * a plain file (no link, no folder) of this user with the mode it was made with (0600), not written
 * to for ten minutes (a backup copying writes all the time; one of another PID namespace, a container,
 * may run with a number this process cannot see), by a process that no longer runs.
 */
function leftByKilledBackup(folder: string, name: string): boolean {
  const m = PARTIAL.exec(name);
  if (!m) return false;
  const stat = lstatSync(join(folder, name), { throwIfNoEntry: false });
  if (!stat?.isFile() || (stat.mode & 0o777) !== 0o600 || stat.uid !== process.getuid?.()) return false;
  return Date.now() - stat.mtimeMs > LEFT_FOR_MS && !processAlive(Number(m[2]));
}

/** Syncs a file or folder: its bytes, or (for a folder) the names in it. */
function sync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A consistent copy of the store as it is at one moment (`VACUUM INTO`: a read transaction,
 * so the server goes on taking enquiries meanwhile), written to `to`. The copy is made under a
 * hidden name beside `to` (created first with mode 0600: SQLite keeps the mode of the file it is
 * given), synced, and only then given the name `to`, which never replaces a file; the folder is
 * synced so that the name survives a crash. A backup killed midway (kill -9, a full disk) leaves
 * no file named `to`; its hidden partial copy is removed by a backup into the same folder ten minutes
 * later or more (`leftByKilledBackup`: nothing else is ever removed).
 * Returns how many enquiries the copy holds.
 */
export function backupStore(store: SqliteStore, to: string): number {
  const target = resolve(to);
  if (lstatSync(target, { throwIfNoEntry: false })) throw Object.assign(new Error(`${to} already exists`), { code: 'EEXIST' });
  const folder = dirname(target);
  // Partial copies left in this folder by earlier backups whose process was killed, whatever name they were to get
  // (a nightly backup is named by its date, so none is ever made to the same name again): they hold personal data.
  for (const name of existsSync(folder) ? readdirSync(folder) : [])
    if (leftByKilledBackup(folder, name))
      try {
        rmSync(join(folder, name));
      } catch {
        // Gone meanwhile, or not ours to remove after all: left as it is.
      }
  const partial = partialName(target, process.pid);
  closeSync(openSync(partial, 'wx', 0o600));
  try {
    store.db.prepare('VACUUM INTO ?').run(partial);
    sync(partial);
    const copy = new DatabaseSync(partial, { readOnly: true });
    let n: number;
    try {
      n = Number((copy.prepare('SELECT count(*) AS n FROM enquiries').get() as Row).n);
    } finally {
      copy.close();
    }
    giveName(partial, target);
    sync(folder);
    return n;
  } finally {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
  }
}

/** `from` also as `to`, never over a file there (a link fails if the name is taken; rename, where links are not supported, is checked first). */
function giveName(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    if (lstatSync(to, { throwIfNoEntry: false })) throw Object.assign(new Error(`${to} already exists`), { code: 'EEXIST' });
    renameSync(from, to);
  }
}

/** What a restore took in. */
export interface Restored {
  enquiries: number;
  damaged: number;
}

/** The tables a backup holds besides the enquiries, copied as they are (the enquiries' derived columns are computed again). */
const COPIED = {
  enquiry_keys: ['key', 'content_hash', 'enquiry_id'],
  enquiry_mail: ['enquiry_id', 'sent_at', 'failed_at', 'attempts', 'next_at', 'last_error'],
  settings: ['name', 'value'],
  audit: ['at', 'line'],
  damaged: ['source', 'line', 'enquiry_id', 'received_at', 'text'],
} as const;

/** The first bytes of the file: not a file inbox's backup of an earlier release, nor a database copy cut short. */
function checkHead(file: string, notOurs: (why: string) => UsageError): void {
  const head = Buffer.alloc(100);
  let size: number;
  try {
    const fd = openSync(file, 'r');
    try {
      readSync(fd, head, 0, head.length, 0);
      size = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (head.toString('latin1').startsWith('{"format":"studio-enquiries-backup"'))
    throw notOurs('it is a backup of the file inbox of an earlier release; restore it with that release, then start this one on that folder (it imports it)');
  if (head.toString('latin1', 0, 16) === 'SQLite format 3\0') {
    // The header says how many pages the copy has: fewer bytes than that is a copy cut short.
    const pageSize = head.readUInt16BE(16) === 1 ? 65_536 : head.readUInt16BE(16);
    const pages = head.readUInt32BE(28);
    if (pages > 0 && size < pageSize * pages) throw notOurs(`it is cut short (${size} of ${pageSize * pages} bytes)`);
  }
}

/** The backup's database whole, of a schema this release reads, and every record an enquiry; returns how many there are. */
function checkBackup(backup: DatabaseSync, notOurs: (why: string) => UsageError): number {
  let version: number;
  try {
    const check = backup.prepare('PRAGMA quick_check').all() as Row[];
    if (check.length !== 1 || check[0]!.quick_check !== 'ok') throw notOurs(`the database is damaged (${String(check[0]?.quick_check ?? 'no answer')})`);
    version = Number((backup.prepare('PRAGMA user_version').get() as Row).user_version);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw notOurs((error as Error).message);
  }
  if (version < 1) throw notOurs('it holds no enquiry tables');
  if (version > SCHEMA_VERSION) throw notOurs(`it was written by a newer release (schema version ${version}); update the site compiler`);
  // Every record checked before anything is written.
  let count = 0;
  try {
    for (const row of backup.prepare('SELECT * FROM enquiries ORDER BY id').iterate() as Iterable<Row>) {
      const problem = recordProblem(recordFromRow(row)) ?? (row.notify === 0 || row.notify === 1 ? undefined : 'notify: not 0 or 1');
      if (problem) throw notOurs(`enquiry ${String(row.id)} is not an enquiry (${problem})`);
      count++;
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw notOurs(`its enquiries cannot all be read: ${(error as Error).message}`);
  }
  return count;
}

/**
 * Restores a backup made by `backupStore` into the store in `dir`, which must hold no
 * enquiries (a restore never mixes two stores). Every record is checked against the enquiry
 * schema first; a file that is not such a backup, is damaged, or holds one record that is not
 * an enquiry is refused whole, naming the record, and nothing is written. Ids stay as they were,
 * and no id the backup or the folder ever gave is given again.
 */
export async function restoreStore(file: string, dir: string): Promise<Restored> {
  const notOurs = (why: string) =>
    new UsageError(`${file} cannot be restored: ${why}; nothing was restored`, 'give a file written by "content enquiries backup"');
  checkHead(file, notOurs);
  let backup: DatabaseSync;
  try {
    backup = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw notOurs((error as Error).message);
  }
  try {
    const count = checkBackup(backup, notOurs);
    const store = await SqliteStore.open(dir);
    try {
      if (store.count() > 0)
        throw new UsageError(
          `${join(dir, DATABASE_FILE)} already holds enquiries; a restore never mixes two stores`,
          'restore into a new folder, then start "content serve --data" on it',
        );
      let damaged = 0;
      store.transaction(() => {
        // What the folder had (emptied by erasures) loses nothing: its audit stays, its ids are not given again.
        const insert = store.sql(
          `INSERT INTO enquiries (id, received_at, ${ENQUIRY_COLUMNS.join(', ')}, content_hash, email_fold)
           VALUES (?, ?, ${ENQUIRY_COLUMNS.map(() => '?').join(', ')}, ?, ?)`,
        );
        for (const row of backup.prepare('SELECT * FROM enquiries ORDER BY id').iterate() as Iterable<Row>) {
          const e = recordFromRow(row);
          insert.run(e.id, e.receivedAt, ...rowValues(e), contentHash(e), foldAddress(e.email));
        }
        for (const [table, columns] of Object.entries(COPIED)) {
          const into = store.sql(`INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
          const from = table === 'settings' ? "SELECT * FROM settings WHERE name = 'retention_days'" : `SELECT * FROM ${table}`;
          for (const row of backup.prepare(from).iterate() as Iterable<Row>) {
            into.run(...columns.map((c) => row[c] as string | number | null));
            if (table === 'damaged') damaged++;
          }
        }
        const seq = (db: DatabaseSync) => Number((db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'enquiries'").get() as Row | undefined)?.seq ?? 0);
        const highest = Math.max(seq(backup), seq(store.db));
        if (highest > 0 && store.sql("UPDATE sqlite_sequence SET seq = ? WHERE name = 'enquiries'").run(highest).changes === 0)
          store.sql("INSERT INTO sqlite_sequence (name, seq) VALUES ('enquiries', ?)").run(highest);
      });
      return { enquiries: count, damaged };
    } finally {
      void store.close();
    }
  } finally {
    backup.close();
  }
}
