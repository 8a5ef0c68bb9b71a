import type { ClientBase } from 'pg';

/**
 * The PostgreSQL inbox's schema, one step per version, applied in order and never edited once
 * released (a change is a new step). `studio_schema` holds the version a database is at.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: enquiries, their idempotency keys, the duplicate window, the e-mail outbox.
  `
  CREATE SEQUENCE studio_enquiry_ids AS bigint START 1 NO CYCLE;
  CREATE TABLE studio_enquiries (
    id bigint PRIMARY KEY DEFAULT nextval('studio_enquiry_ids'),
    received_at timestamptz NOT NULL,
    name text NOT NULL,
    course text NOT NULL,
    message text NOT NULL,
    email text NOT NULL,
    locale text NOT NULL,
    page text,
    idempotency_key text,
    via text NOT NULL CHECK (via IN ('json', 'form')),
    notify boolean NOT NULL,
    content_hash text NOT NULL,
    -- A file inbox record this row was imported from (content enquiries import): never imported twice.
    imported_from text UNIQUE
  );
  ALTER SEQUENCE studio_enquiry_ids OWNED BY studio_enquiries.id;
  -- An idempotency key names one enquiry for good: a retry to any instance finds it here.
  CREATE TABLE studio_enquiry_keys (
    key text PRIMARY KEY,
    content_hash text NOT NULL,
    enquiry_id bigint REFERENCES studio_enquiries (id)
  );
  -- The latest enquiry with these fields: the same one again within the window is that one.
  CREATE TABLE studio_enquiry_recent (
    content_hash text PRIMARY KEY,
    received_at timestamptz NOT NULL,
    enquiry_id bigint REFERENCES studio_enquiries (id)
  );
  -- E-mail owed to the studio: one row per enquiry that asks for it, until it is sent.
  CREATE TABLE studio_enquiry_mail (
    enquiry_id bigint PRIMARY KEY REFERENCES studio_enquiries (id),
    sent_at timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    next_at timestamptz NOT NULL DEFAULT now(),
    last_error text
  );
  CREATE INDEX studio_enquiry_mail_owed ON studio_enquiry_mail (next_at) WHERE sent_at IS NULL;
  `,
  // 2: suspected spam kept aside, e-mails refused for good, the retention period and the audit of erasures.
  `
  ALTER TABLE studio_enquiries ADD COLUMN spam text CHECK (spam IN ('honeypot', 'too_fast'));
  CREATE INDEX studio_enquiries_received ON studio_enquiries (received_at);
  ALTER TABLE studio_enquiry_mail ADD COLUMN failed_at timestamptz;
  DROP INDEX studio_enquiry_mail_owed;
  CREATE INDEX studio_enquiry_mail_owed ON studio_enquiry_mail (next_at) WHERE sent_at IS NULL AND failed_at IS NULL;
  CREATE INDEX studio_enquiry_mail_failed ON studio_enquiry_mail (enquiry_id) WHERE failed_at IS NOT NULL;
  CREATE INDEX studio_enquiry_keys_enquiry ON studio_enquiry_keys (enquiry_id);
  CREATE INDEX studio_enquiry_recent_enquiry ON studio_enquiry_recent (enquiry_id);
  -- Settings the servers share: 'retention_days'.
  CREATE TABLE studio_settings (name text PRIMARY KEY, value text NOT NULL);
  -- One row per erasure: when, which ids, why; never what a visitor wrote.
  CREATE TABLE studio_enquiry_audit (at timestamptz NOT NULL DEFAULT now(), line text NOT NULL);
  `,
  // 3: the enquiry rate limit, shared by every instance (cli/serve/http/rate-limit.ts databaseStore).
  // A client is a hash of its address with the salt of the window; ended windows are deleted with their salt.
  // Unlogged: a count lost in a crash costs nothing.
  `
  CREATE UNLOGGED TABLE studio_rate_limit (
    window_id bigint NOT NULL,
    client text NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (window_id, client)
  );
  CREATE UNLOGGED TABLE studio_rate_limit_salt (
    window_id bigint PRIMARY KEY,
    salt bytea NOT NULL
  );
  `,
  // 4: the visitor's phone number (optional).
  `
  ALTER TABLE studio_enquiries ADD COLUMN phone text;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Arbitrary, fixed: instances starting at the same moment migrate one after the other. */
const MIGRATION_LOCK = 4_917_362_001;

/** Brings the schema to SCHEMA_VERSION; returns the version it was at. Refuses a database newer than this tool. */
export async function migrate(client: ClientBase): Promise<{ from: number; to: number }> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS studio_schema (version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM studio_schema');
    const from = rows[0]?.version ?? 0;
    if (from > SCHEMA_VERSION) throw new SchemaTooNew(from);
    for (let v = from; v < SCHEMA_VERSION; v++) {
      await client.query(MIGRATIONS[v]!);
      await client.query('INSERT INTO studio_schema (version) VALUES ($1)', [v + 1]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, SCHEMA_VERSION) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The schema's version now (0: none yet). */
export async function schemaVersion(client: ClientBase): Promise<number> {
  const exists = await client.query("SELECT to_regclass('studio_schema') AS t");
  if (!exists.rows[0]?.t) return 0;
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM studio_schema');
  return rows[0]?.version ?? 0;
}

export class SchemaTooNew extends Error {
  constructor(readonly version: number) {
    super(`the database's enquiry schema is at version ${version}, newer than this tool knows (${SCHEMA_VERSION})`);
  }
}
