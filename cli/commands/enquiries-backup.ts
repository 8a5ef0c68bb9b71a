import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from '../logger.ts';
import { UsageError } from '../report/problem.ts';
import { MANIFEST_FILE } from '../serve/manifest.ts';
import { backupStore, restoreStore } from '../serve/store/sqlite-backup.ts';
import { DATABASE_FILE } from '../serve/store/sqlite-store.ts';
import { MARK_FILE } from '../write/site-mark.ts';
import { EXIT } from './common.ts';
import { databaseOf, openSqliteStore } from './enquiries-store.ts';
import type { BackupOptions, RestoreBackupOptions } from './enquiries-usage.ts';

/**
 * `content enquiries backup --to FILE`: a consistent copy of the enquiry database at one moment
 * (also while "content serve" runs and takes enquiries), written to a new file only you can read.
 */
export async function backupCommand(opts: BackupOptions, log: Logger): Promise<number> {
  if (databaseOf(opts))
    throw new UsageError(
      'the PostgreSQL store is backed up with pg_dump',
      'e.g. pg_dump --format=custom --file=enquiries.dump "$STUDIO_DATABASE_URL"; see Backups in the README',
    );
  if (!opts.to) throw new UsageError('say where the backup goes: --to FILE');
  const served = servedFolderOf(opts.to);
  if (served)
    throw new UsageError(`--to ${opts.to} lies in ${served}, a site that is served on the web: the enquiries would be public`, 'write it outside the site');
  const store = await openSqliteStore(opts.data);
  let n: number;
  try {
    n = backupStore(store, opts.to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${opts.to} already exists; a backup never replaces a file`, 'give a new file name (e.g. with the date in it)');
    if (code === 'ENOENT') throw new UsageError(`the folder of ${opts.to} does not exist`, 'create it first');
    throw new UsageError(`could not write ${opts.to}: ${(error as Error).message}`, 'is there room on that disk, and may you write there?');
  } finally {
    await store.close();
  }
  log.info(`Wrote ${n} enquir${n === 1 ? 'y' : 'ies'} from ${join(opts.data, DATABASE_FILE)} to ${opts.to} (readable by you only).`);
  return EXIT.ok;
}

/**
 * The built site a file would land in: a folder (or one above it) with a site mark or the
 * server's manifest, links resolved. (Merge note: engineer "edges" has the same check as
 * servedFolderOf in cli/commands/private-file.ts for exports; one of the two should go.)
 */
function servedFolderOf(file: string): string | undefined {
  let dir: string;
  try {
    dir = realpathSync(dirname(resolve(file)));
  } catch {
    return undefined; // no such folder: creating the file says so
  }
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, MARK_FILE)) || existsSync(join(d, MANIFEST_FILE))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** `content enquiries restore-backup FILE --data DIR`: the backup into a folder that holds no enquiries yet. */
export async function restoreBackupCommand(file: string, opts: RestoreBackupOptions, log: Logger): Promise<number> {
  const { enquiries, damaged } = await restoreStore(file, opts.data);
  log.info(
    `Restored ${enquiries} enquir${enquiries === 1 ? 'y' : 'ies'}${damaged ? ` and ${damaged} damaged record${damaged === 1 ? '' : 's'}` : ''} into ${join(opts.data, DATABASE_FILE)}; "content serve --data ${opts.data}" takes it from here.`,
  );
  return EXIT.ok;
}
