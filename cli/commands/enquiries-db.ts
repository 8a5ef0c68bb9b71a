import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { UsageError } from '../report/problem.ts';
import { ENQUIRY_COLUMNS, rowValues } from '../serve/store/enquiry-record.ts';
import { migrate, SchemaTooNew } from '../serve/store/pg-schema.ts';
import { redactUrl, scrub } from '../serve/store/pg-store.ts';
import { DATABASE_FILE } from '../serve/store/sqlite-store.ts';
import { contentHash, type MailState, type StoredEnquiry } from '../serve/store/store.ts';
import { EXIT } from './common.ts';
import { requireDatabase } from './database.ts';
import { openSqliteStore } from './enquiries-store.ts';
import type { ImportOptions, MigrateOptions } from './usage.ts';

/** One connection for a command, or a usage error that says why there is none (never with the password). */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'content enquiries' });
  client.on('error', () => {}); // reported by the query that meets it
  try {
    await client.connect();
    return client;
  } catch (error) {
    throw new UsageError(
      `cannot connect to ${redactUrl(url)}: ${scrub((error as Error).message, url)}`,
      'is PostgreSQL running there? is the password in PGPASSWORD or STUDIO_DATABASE_URL?',
    );
  }
}

async function migrated(client: pg.Client, url: string) {
  try {
    return await migrate(client);
  } catch (error) {
    if (error instanceof SchemaTooNew) throw new UsageError(`${redactUrl(url)}: ${error.message}`, 'update the site compiler');
    throw new UsageError(
      `cannot create the enquiry tables in ${redactUrl(url)}: ${scrub((error as Error).message, url)}`,
      'the user needs CREATE on the database',
    );
  }
}

/** `content enquiries migrate`: creates or upgrades the enquiry tables (`content serve` also does it when it starts). */
export async function migrateCommand(opts: MigrateOptions, log: Logger): Promise<number> {
  const url = requireDatabase(opts.database);
  const client = await connect(url);
  try {
    const { from, to } = await migrated(client, url);
    log.info(
      from === to
        ? `The enquiry schema in ${redactUrl(url)} is up to date (version ${to}).`
        : `Migrated the enquiry schema in ${redactUrl(url)} from version ${from} to ${to}.`,
    );
    return EXIT.ok;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * `content enquiries import`: copies the SQLite store of `--data` (an old file inbox there is
 * first imported into it) into PostgreSQL in one transaction. Each
 * record is known by where it came from (its id, time and fields), so running it again
 * adds nothing twice. Into a database that never handed out an id the ids are kept (an
 * enquiry told on the phone as "57" stays 57); otherwise they get the next ids of the sequence.
 * E-mails the file outbox had sent are marked sent; the rest are owed and go out from the database.
 */
/**
 * One enquiry of the SQLite store into PostgreSQL, with its idempotency key, its place among
 * the recent ones (duplicate detection) and its e-mail's state. Returns whether it was added:
 * false when an earlier import brought it already (`imported_from` names the file record).
 */
async function importOne(client: pg.Client, e: StoredEnquiry, how: { keepIds: boolean; mail: MailState }): Promise<boolean> {
  const hash = contentHash(e);
  const from = `file:${e.id}:${e.receivedAt}:${hash}`;
  // Asked first, so that a record imported before takes no id from the sequence.
  if ((await client.query('SELECT 1 FROM studio_enquiries WHERE imported_from = $1', [from])).rowCount) return false;
  // $1 the id (or the next), $2 the time, $3 the hash, $4 the source, then the fields of ENQUIRY_FIELDS in their order.
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO studio_enquiries (id, received_at, content_hash, imported_from, ${ENQUIRY_COLUMNS.join(', ')})
     VALUES (COALESCE($1, nextval('studio_enquiry_ids')), $2, $3, $4, ${ENQUIRY_COLUMNS.map((_, i) => `$${i + 5}`).join(', ')})
     ON CONFLICT (imported_from) DO NOTHING RETURNING id`,
    [how.keepIds ? e.id : null, e.receivedAt, hash, from, ...rowValues(e, 'boolean')],
  );
  const id = rows[0]?.id;
  if (id === undefined) return false;
  if (e.idempotencyKey)
    await client.query('INSERT INTO studio_enquiry_keys (key, content_hash, enquiry_id) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [
      e.idempotencyKey,
      hash,
      id,
    ]);
  await client.query(
    `INSERT INTO studio_enquiry_recent (content_hash, received_at, enquiry_id) VALUES ($1, $2, $3)
     ON CONFLICT (content_hash) DO UPDATE SET received_at = EXCLUDED.received_at, enquiry_id = EXCLUDED.enquiry_id
     WHERE studio_enquiry_recent.received_at < EXCLUDED.received_at`,
    [hash, e.receivedAt, id],
  );
  const { mail } = how;
  if (mail.state !== 'none')
    await client.query('INSERT INTO studio_enquiry_mail (enquiry_id, sent_at, failed_at, last_error) VALUES ($1, $2, $3, $4)', [
      id,
      mail.state === 'sent' ? mail.at : null,
      mail.state === 'failed' ? mail.at : null,
      mail.state === 'failed' ? mail.error : null,
    ]);
  return true;
}

/** What to do about a failed import: mend an enquiry the database refuses (naming it), or wait for the database. */
function importHint(error: unknown, data: string): string {
  const { code, enquiryId, constraint } = error as { code?: string; enquiryId?: number; constraint?: string };
  const which = enquiryId === undefined ? 'an enquiry' : `enquiry ${enquiryId}`;
  const look = enquiryId === undefined ? '' : ` (content enquiries show --id ${enquiryId} --data ${data})`;
  if (/^22/.test(code ?? ''))
    return `${which} holds a value PostgreSQL cannot store (a NUL character, a number or time out of range)${look}: correct or erase it there, then run the import again`;
  if (/^23/.test(code ?? ''))
    return `${which} breaks a rule of the database${constraint ? ` (${constraint})` : ''}: it clashes with a row already there${look}; nothing was imported`;
  return 'the database stopped answering: run the import again once it answers (nothing is imported twice)';
}

export async function importCommand(opts: ImportOptions, log: Logger): Promise<number> {
  const url = requireDatabase(opts.database);
  const source = await openSqliteStore(opts.data);
  let enquiries: Awaited<ReturnType<typeof source.listWithMail>>;
  try {
    enquiries = await source.listWithMail();
    for (const d of await source.damaged())
      log.warn(
        `${d.source}:${d.line}${d.id ? ` (enquiry ${d.id})` : ''} is a damaged record of the old file inbox and was not imported; "content enquiries show --id" shows it`,
      );
  } finally {
    await source.close();
  }
  const client = await connect(url);
  try {
    await migrated(client, url);
    await client.query('BEGIN');
    // Servers on this database wait while the import runs, so that the ids it keeps cannot clash.
    await client.query('LOCK TABLE studio_enquiries IN SHARE ROW EXCLUSIVE MODE');
    const seq = await client.query<{ is_called: boolean }>('SELECT is_called FROM studio_enquiry_ids');
    const keepIds = !seq.rows[0]?.is_called;
    let added = 0;
    for (const { mail, ...e } of enquiries) {
      try {
        if (await importOne(client, e, { keepIds, mail })) added++;
      } catch (error) {
        throw Object.assign(error as Error, { enquiryId: e.id });
      }
    }
    if (keepIds && added) await client.query("SELECT setval('studio_enquiry_ids', (SELECT max(id) FROM studio_enquiries))");
    await client.query('COMMIT');
    const skipped = enquiries.length - added;
    log.info(
      `Imported ${added} enquir${added === 1 ? 'y' : 'ies'} from ${join(opts.data, DATABASE_FILE)} into ${redactUrl(url)}${skipped ? ` (${skipped} already there)` : ''}${added && !keepIds ? '; they have new ids, the database had enquiries of its own' : ''}.`,
    );
    return EXIT.ok;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof UsageError) throw error;
    throw new UsageError(`the import into ${redactUrl(url)} failed and was undone: ${scrub((error as Error).message, url)}`, importHint(error, opts.data));
  } finally {
    await client.end().catch(() => {});
  }
}
