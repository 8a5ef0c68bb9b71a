import pg from 'pg';
import { PgOutbox, type PgOutboxOptions } from '../mail/pg-outbox.ts';
import { ENQUIRY_COLUMNS, rowValues } from './enquiry-record.ts';
import { migrate, SchemaTooNew } from './pg-schema.ts';
import { checkout, fromRow, transaction } from './pg-transaction.ts';
import { redactUrl, scrub } from './redact-url.ts';
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

export { redactUrl, scrub };

/**
 * The most connections one `content serve` opens. Each instance holds at most this many of the
 * database's `max_connections` (100 by default), so a few instances and other applications fit.
 */
export const DEFAULT_MAX_CONNECTIONS = 8;

/** How long the server's sessions wait, in milliseconds; set on every session (see the pool). */
export const SESSION_LIMITS = {
  /** For a lock held by another session (an import, a migration, a DBA): then the enquiry is answered 503. */
  lockMs: 2_000,
  /** For any one statement. */
  statementMs: 5_000,
  /** A transaction left open by a client that went away. */
  idleInTransactionMs: 10_000,
  /**
   * For a connection from the pool or to the database. A burst of enquiries queues for the pool's
   * few connections; a visitor waits for that rather than being told to try again.
   */
  connectMs: 15_000,
};

/** SQLSTATE class 22, "data exception" (a NUL character in text, a value out of range): the input's fault, not the database's. */
const isDataException = (error: unknown) => /^22/.test(String((error as { code?: unknown })?.code ?? ''));

/** Errors that mean "the address is wrong" rather than "the database is away for now". */
const CONFIG_ERRORS = new Set(['28P01', '28000', '3D000', 'ENOTFOUND']);

/** The database cannot be used as given (wrong password, no such database, a schema too new): not worth waiting for. */
export class DatabaseRefused extends Error {}

export interface PgStoreOptions {
  /** While the database is away, how often to check whether it is back (for `health()`); it is checked this often anyway. */
  recheckMs?: number;
  /** Most connections this instance opens. */
  maxConnections?: number;
  /** Creates or upgrades the schema when needed (default true; `false`: refuse a database not yet migrated). */
  migrate?: boolean;
}

type Row = Record<string, unknown>;

/**
 * The PostgreSQL inbox, shared by any number of `content serve` instances. An enquiry is
 * acknowledged only after its transaction committed (PostgreSQL has then written it to its log
 * and synced it). Resubmissions are found by unique keys in the database, not in any one
 * instance's memory: `studio_enquiry_keys` (idempotency key → enquiry, forever) and
 * `studio_enquiry_recent` (the fields' hash → the latest enquiry with them; a second one
 * within DUPLICATE_WINDOW_MS is that one). Two instances taking the same enquiry at once meet
 * on those unique keys, and one waits for the other's commit. Ids come from a sequence.
 */
export class PgStore implements EnquiryStore {
  readonly pool: pg.Pool;
  /** The writes of the settings remembered (rememberSetting), one after the other. */
  private settingWrites: Promise<void> = Promise.resolve();
  /** Settings remembered and not yet written (the database refused or did not answer): written by the next write, check or close(). */
  private readonly unwritten = new Map<string, string>();
  private ready = false;
  private closed = false;
  private failure: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** E-mails and retention as last counted (by the periodic check). */
  private details: StoreDetails = {};

  private constructor(
    readonly url: string,
    private readonly options: PgStoreOptions,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      connectionTimeoutMillis: SESSION_LIMITS.connectMs,
      idleTimeoutMillis: 30_000,
      // Sent when the session starts, so PostgreSQL itself gives up a wait: a time-out only in the
      // client would leave the session queued behind a lock after the visitor got a 503.
      lock_timeout: SESSION_LIMITS.lockMs,
      statement_timeout: SESSION_LIMITS.statementMs,
      idle_in_transaction_session_timeout: SESSION_LIMITS.idleInTransactionMs,
      // The client's own limit, later than the server's: only for a server that does not answer at all.
      query_timeout: SESSION_LIMITS.statementMs + 2_000,
      application_name: 'content serve',
    });
    // An idle connection the server closed (a restart, a failover) is dropped from the pool; without this handler it would end the process.
    this.pool.on('error', (error) => this.fail(error));
  }

  /**
   * Connects and brings the schema up to date. A database that is not reachable now does not
   * stop the start: the store reports itself unavailable and keeps trying. A refusal that
   * waiting will not mend (password, database name, schema) throws `DatabaseRefused`.
   */
  static async open(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const store = new PgStore(url, options);
    try {
      await store.prepare();
    } catch (error) {
      if (error instanceof DatabaseRefused) {
        await store.pool.end().catch(() => {});
        throw error;
      }
      store.fail(error);
    }
    store.timer = setInterval(() => store.check(), options.recheckMs ?? 2_000);
    store.timer.unref();
    return store;
  }

  /** Where the enquiries are, for people: the address without its password. */
  get where(): string {
    return redactUrl(this.url);
  }

  private async prepare(): Promise<void> {
    const client = await checkout(this.pool).catch((error) => {
      throw this.refusedOr(error);
    });
    let broken: Error | undefined;
    try {
      if (this.options.migrate !== false) {
        // A migration may take longer than an enquiry's statement, and waits for another instance's (advisory lock);
        // RESET goes back to the session's limits from its start.
        await client.query("SET statement_timeout = 0; SET lock_timeout = '60s'");
        await migrate(client);
        await client.query('RESET statement_timeout; RESET lock_timeout');
      } else {
        const { schemaVersion } = await import('./pg-schema.ts');
        if ((await schemaVersion(client)) === 0) throw new DatabaseRefused('the database has no enquiry tables yet');
      }
      this.ready = true;
      this.failure = undefined;
    } catch (error) {
      broken = error as Error;
      throw this.refusedOr(error);
    } finally {
      client.release(broken);
    }
  }

  private refusedOr(error: unknown): Error {
    if (error instanceof DatabaseRefused) return error;
    if (error instanceof SchemaTooNew) return new DatabaseRefused(`${error.message}; update the site compiler`);
    const code = (error as { code?: string }).code;
    if (code && CONFIG_ERRORS.has(code)) return new DatabaseRefused(scrub((error as Error).message, this.url));
    return error as Error;
  }

  private fail(error: unknown): void {
    this.failure = scrub((error as Error)?.message ?? String(error), this.url);
  }

  /** Whether the database answers (and the schema is there); runs every `recheckMs`. */
  private check(): void {
    if (this.closed || this.checking) return;
    this.checking = (async () => {
      try {
        if (!this.ready) await this.prepare();
        await this.count();
        this.failure = undefined;
        if (this.unwritten.size) this.writeSettings();
      } catch (error) {
        this.fail(error);
      }
    })().finally(() => {
      this.checking = undefined;
    });
  }

  /** Counts the e-mails refused for good and finds the oldest one owed, for `health()`; also tells that the database answers. */
  private async count(): Promise<void> {
    // A probe, not a request: behind a lock held elsewhere it fails at once (the store is then
    // degraded, as it is for enquiries) rather than keep one more session queued in the database.
    const r = await transaction(
      this.pool,
      async (client) => {
        await client.query("SET LOCAL lock_timeout = '100ms'");
        const { rows } = await client.query<{ failed: string; oldest: Date | null; days: string | null }>(
          `SELECT (SELECT count(*) FROM studio_enquiry_mail WHERE failed_at IS NOT NULL) AS failed,
                  (SELECT min(e.received_at) FROM studio_enquiry_mail m JOIN studio_enquiries e ON e.id = m.enquiry_id
                    WHERE m.sent_at IS NULL AND m.failed_at IS NULL) AS oldest,
                  (SELECT value FROM studio_settings WHERE name = 'retention_days') AS days`,
        );
        return rows[0]!;
      },
      'BEGIN READ ONLY',
    );
    this.details = {
      mail: { failed: Number(r.failed), ...(r.oldest ? { oldestOwedAt: r.oldest.toISOString() } : {}) },
      ...(r.days ? { retentionDays: Number(r.days) } : {}),
    };
  }

  health(): StoreHealth {
    if (this.closed) return { ok: false, reason: 'the enquiry store is closed', ...this.details };
    if (this.failure || !this.ready)
      return { ok: false, reason: `the database cannot store enquiries: ${this.failure ?? 'not connected yet'}`, ...this.details };
    return { ok: true, ...this.details };
  }

  add(input: NewEnquiry, now = new Date()): Promise<Added> {
    if (this.closed) return Promise.reject(new StoreUnavailable('the enquiry store is closed'));
    const adding = this.insert(input, now);
    this.inFlight.add(adding);
    const done = () => this.inFlight.delete(adding);
    adding.then(done, done);
    return adding;
  }

  private async insert(input: NewEnquiry, now: Date): Promise<Added> {
    let client: pg.PoolClient | undefined;
    let broken: Error | undefined;
    try {
      if (!this.ready) await this.prepare();
      client = await checkout(this.pool);
      const result = await this.transaction(client, input, now);
      this.failure = undefined;
      return result;
    } catch (error) {
      if (error instanceof EnquiryConflict) throw error;
      broken = error as Error;
      // A value the database cannot hold says nothing about whether it is up.
      if (!isDataException(error)) this.fail(error);
      await client?.query('ROLLBACK').catch(() => {});
      throw new StoreUnavailable(`the database could not store an enquiry: ${scrub((error as Error).message, this.url)}`);
    } finally {
      client?.release(broken);
    }
  }

  private async transaction(client: pg.PoolClient, input: NewEnquiry, now: Date): Promise<Added> {
    const hash = contentHash(input);
    const key = input.idempotencyKey ?? null;
    await client.query('BEGIN');
    if (key) {
      // The key is claimed first: a second claim of it waits here for the first to commit.
      const claimed = await client.query('INSERT INTO studio_enquiry_keys (key, content_hash) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, hash]);
      if (!claimed.rowCount) {
        const { rows } = await client.query<Row>(
          'SELECT k.content_hash AS key_hash, e.* FROM studio_enquiry_keys k JOIN studio_enquiries e ON e.id = k.enquiry_id WHERE k.key = $1',
          [key],
        );
        await client.query('COMMIT');
        const row = rows[0];
        if (!row) throw new StoreUnavailable(`the idempotency key ${key} names no enquiry`);
        if (row.key_hash !== hash) throw conflict(key);
        return { enquiry: fromRow(row), duplicate: true };
      }
    }
    // The same fields: claimed when none is stored within the window (or the last one is older).
    const fresh = await client.query(
      `INSERT INTO studio_enquiry_recent (content_hash, received_at) VALUES ($1, $2)
       ON CONFLICT (content_hash) DO UPDATE SET received_at = EXCLUDED.received_at, enquiry_id = NULL
       WHERE studio_enquiry_recent.received_at <= $3`,
      [hash, now, new Date(now.getTime() - DUPLICATE_WINDOW_MS)],
    );
    if (!fresh.rowCount) {
      const { rows } = await client.query<Row>(
        'SELECT e.* FROM studio_enquiry_recent r JOIN studio_enquiries e ON e.id = r.enquiry_id WHERE r.content_hash = $1',
        [hash],
      );
      const first = rows[0];
      if (!first) throw new StoreUnavailable('a recent enquiry names no enquiry');
      if (key) await client.query('UPDATE studio_enquiry_keys SET enquiry_id = $2 WHERE key = $1', [key, first.id]);
      await client.query('COMMIT');
      return { enquiry: fromRow(first), duplicate: true };
    }
    // $1 the time, $2 the hash, $3 the key, then the fields of ENQUIRY_FIELDS in their order.
    const { rows } = await client.query<Row>(
      `WITH e AS (
         INSERT INTO studio_enquiries (received_at, content_hash, ${ENQUIRY_COLUMNS.join(', ')})
         VALUES ($1, $2, ${ENQUIRY_COLUMNS.map((_, i) => `$${i + 4}`).join(', ')}) RETURNING *
       ), r AS (
         UPDATE studio_enquiry_recent SET enquiry_id = (SELECT id FROM e) WHERE content_hash = $2
       ), k AS (
         UPDATE studio_enquiry_keys SET enquiry_id = (SELECT id FROM e) WHERE key = $3
       ), m AS (
         INSERT INTO studio_enquiry_mail (enquiry_id) SELECT id FROM e WHERE e.notify AND e.spam IS NULL
       )
       SELECT * FROM e`,
      [now, hash, key, ...rowValues(input, 'boolean')],
    );
    await client.query('COMMIT');
    return { enquiry: fromRow(rows[0]!), duplicate: false };
  }

  async list(): Promise<StoredEnquiry[]> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM studio_enquiries ORDER BY id');
    return rows.map(fromRow);
  }

  /** Every enquiry with where its e-mail stands (for `content enquiries`). */
  async listWithMail(): Promise<ListedEnquiry[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT e.*, m.enquiry_id AS mail_id, m.sent_at AS mail_sent_at, m.failed_at AS mail_failed_at, m.last_error AS mail_error
       FROM studio_enquiries e LEFT JOIN studio_enquiry_mail m ON m.enquiry_id = e.id ORDER BY e.id`,
    );
    return rows.map((r) => ({ ...fromRow(r), mail: mailOf(r) }));
  }

  async restore(id: number): Promise<AdminResult> {
    return this.inTransaction(async (client) => {
      const { rows } = await client.query<Row>('SELECT spam FROM studio_enquiries WHERE id = $1 FOR UPDATE', [id]);
      if (!rows[0]) return 'not-found';
      if (rows[0].spam == null) return 'not-applicable';
      await client.query('UPDATE studio_enquiries SET spam = NULL, notify = true WHERE id = $1', [id]);
      await client.query('INSERT INTO studio_enquiry_mail (enquiry_id) VALUES ($1) ON CONFLICT (enquiry_id) DO NOTHING', [id]);
      return 'done';
    });
  }

  async resend(id: number): Promise<AdminResult> {
    return this.inTransaction(async (client) => {
      if (!(await client.query('SELECT 1 FROM studio_enquiries WHERE id = $1', [id])).rowCount) return 'not-found';
      const { rowCount } = await client.query(
        'UPDATE studio_enquiry_mail SET failed_at = NULL, next_at = now(), attempts = 0 WHERE enquiry_id = $1 AND failed_at IS NOT NULL',
        [id],
      );
      return rowCount ? 'done' : 'not-applicable';
    });
  }

  async erase(ids: readonly number[], why: string): Promise<number[]> {
    return this.eraseWhere('id = ANY($1::bigint[])', [ids], why);
  }

  async eraseOlderThan(cutoff: Date, why: string): Promise<number[]> {
    return this.eraseWhere('received_at < $1', [cutoff], why);
  }

  /** Deletes the enquiries `where` names with their e-mail rows, idempotency keys and duplicate-window rows, and leaves an audit row; one transaction. */
  private eraseWhere(where: string, params: unknown[], why: string): Promise<number[]> {
    return this.inTransaction(async (client) => {
      const { rows } = await client.query<{ id: string }>(`SELECT id FROM studio_enquiries WHERE ${where} ORDER BY id FOR UPDATE`, params);
      const ids = rows.map((r) => Number(r.id));
      if (!ids.length) return ids;
      for (const table of ['studio_enquiry_mail', 'studio_enquiry_keys', 'studio_enquiry_recent'])
        await client.query(`DELETE FROM ${table} WHERE enquiry_id = ANY($1::bigint[])`, [ids]);
      await client.query('DELETE FROM studio_enquiries WHERE id = ANY($1::bigint[])', [ids]);
      await client.query('INSERT INTO studio_enquiry_audit (line) VALUES ($1)', [auditLine(ids, why)]);
      return ids;
    });
  }

  async setRetention(days: number): Promise<void> {
    await this.pool.query("INSERT INTO studio_settings (name, value) VALUES ('retention_days', $1) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", [
      String(days),
    ]);
    this.details = { ...this.details, retentionDays: days };
  }

  async retention(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ value: string }>("SELECT value FROM studio_settings WHERE name = 'retention_days'");
    return rows[0] ? Number(rows[0].value) : undefined;
  }
  /** A setting kept in the database (`form_options`: see options-memory.ts). */
  async setting(name: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM studio_settings WHERE name = $1', [name]);
    return rows[0]?.value;
  }

  /**
   * Writes a setting without waiting for it, after the ones remembered before (never one older
   * over a newer); close() waits for them. One the database refuses (or that finds it away) is
   * kept and written again by the next setting remembered, the next periodic check, or close().
   */
  rememberSetting(name: string, value: string): void {
    this.unwritten.set(name, value);
    this.writeSettings();
  }

  /** Writes the settings not written yet, in turn after the writes before. */
  private writeSettings(): void {
    this.settingWrites = this.settingWrites.then(async () => {
      for (const [name, value] of [...this.unwritten]) {
        try {
          await this.pool.query('INSERT INTO studio_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [
            name,
            value,
          ]);
          // Unless a newer value was remembered meanwhile (it is written next).
          if (this.unwritten.get(name) === value) this.unwritten.delete(name);
        } catch {
          // Kept for the next try; the others are written meanwhile (one the database refuses for good holds up none).
        }
      }
    });
  }

  /** The audit lines of the erasures, oldest first. */
  async audit(): Promise<string[]> {
    const { rows } = await this.pool.query<{ line: string }>('SELECT line FROM studio_enquiry_audit ORDER BY at');
    return rows.map((r) => r.line);
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreUnavailable('the enquiry store is closed');
    const result = await transaction(this.pool, work);
    void this.count().catch(() => {});
    return result;
  }

  /** The e-mail outbox in this database (here, so that a server on SQLite never loads the PostgreSQL client for it). */
  outbox(options: PgOutboxOptions): PgOutbox {
    return new PgOutbox(this.pool, options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.unwritten.size) this.writeSettings();
    await this.settingWrites;
    this.closed = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight, this.checking]);
    await this.pool.end().catch(() => {});
  }
}

const conflict = (key: string) => new EnquiryConflict(`the idempotency key ${key} was already used for a different enquiry; a new enquiry needs a new key`);

function mailOf(r: Row): MailState {
  if (r.mail_id == null) return { state: 'none' };
  if (r.mail_sent_at) return { state: 'sent', at: (r.mail_sent_at as Date).toISOString() };
  if (r.mail_failed_at) return { state: 'failed', at: (r.mail_failed_at as Date).toISOString(), error: String(r.mail_error ?? '') };
  return { state: 'owed' };
}
