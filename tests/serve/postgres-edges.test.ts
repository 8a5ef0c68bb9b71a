// Issue 24, points 6, 7 and 9 against a real PostgreSQL: a table lock held by another session,
// a NUL character, and the rate limit shared by two instances.
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { NETWORK_SHARE } from '../../cli/serve/http/rate-limit.ts';
import { type Cluster, startPostgres } from '../helpers/postgres.ts';
import { postJson, type ServeProcess, spawnServe, validEnquiry } from '../helpers/serve.ts';

const started = await startPostgres();
if ('unavailable' in started) {
  if (process.env.CI && process.env.CI !== 'false') throw new Error(`CI needs PostgreSQL for these tests: ${started.unavailable}`);
  console.log(`PostgreSQL tests skipped: ${started.unavailable}`);
}
const cluster = 'unavailable' in started ? undefined : started;
const pgDescribe = cluster ? describe : describe.skip;
afterAll(async () => cluster?.remove());
const db = cluster as Cluster;

const dist = inject('siteDir');
const noMail = { STUDIO_SMTP_URL: '', STUDIO_NOTIFY_TO: '' };
const running: ServeProcess[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) {
    s.child.kill('SIGKILL');
    await s.exited;
  }
});
async function serve(url: string, extra: string[] = ['--rate-limit', '0']): Promise<ServeProcess> {
  const s = await spawnServe(['--out', dist, '--database', url, '--quiet', ...extra], noMail);
  running.push(s);
  return s;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function until(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

pgDescribe('#24 point 6: a table lock held by another session', () => {
  it('answers 503 without leaving sessions waiting in the database, and stores again once the lock is gone', async () => {
    const url = db.url(await db.createDatabase());
    const server = await serve(url);
    expect((await postJson(server.url, validEnquiry())).status).toBe(201);
    const dba = await connect(url);
    const watcher = await connect(url);
    try {
      await dba.query('BEGIN');
      await dba.query('LOCK TABLE studio_enquiries IN ACCESS EXCLUSIVE MODE');
      const answers = await Promise.all(Array.from({ length: 24 }, () => postJson(server.url, validEnquiry())));
      expect(answers.map((a) => a.status)).toEqual(Array(24).fill(503));
      // Every request has its answer, and no session of the server stays queued behind the lock: a
      // background task (the health probe, the e-mail worker, the retention sweep) may meet it too,
      // but gives up by the database's own lock_timeout (before the fix they waited for good).
      const waiting = async () =>
        (await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'content serve' AND wait_event_type = 'Lock'")).rows[0]
          .n as number;
      expect(await waiting()).toBeLessThanOrEqual(3);
      await until(async () => (await waiting()) === 0, 30_000);
      const sessions = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'content serve'");
      expect(sessions.rows[0].n).toBeLessThanOrEqual(8);
      await dba.query('ROLLBACK');
      await until(async () => (await fetch(`${server.url}/api/health`)).status === 200);
      expect((await postJson(server.url, validEnquiry())).status).toBe(201);
      const stored = await watcher.query('SELECT count(*)::int AS n FROM studio_enquiries');
      expect(stored.rows[0].n).toBe(2);
    } finally {
      await dba.query('ROLLBACK').catch(() => {});
      await dba.end();
      await watcher.end();
    }
  });

  it('sets lock_timeout and statement_timeout on every session of the server', async () => {
    const { PgStore } = await import('../../cli/serve/store/pg-store.ts');
    const url = db.url(await db.createDatabase());
    const store = await PgStore.open(url);
    try {
      const { rows } = await store.pool.query("SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement");
      expect(rows[0].lock).not.toBe('0');
      expect(rows[0].statement).not.toBe('0');
    } finally {
      await store.close();
    }
  });
});

pgDescribe('#24 point 7: a NUL character with PostgreSQL', () => {
  it('is a 422 naming the field, and /api/health keeps saying ok', async () => {
    const url = db.url(await db.createDatabase());
    const server = await serve(url);
    const res = await postJson(server.url, validEnquiry({ message: 'zero\u0000byte', locale: 'en' }));
    expect(res.status).toBe(422);
    expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual(['message']);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await postJson(server.url, validEnquiry())).status).toBe(201);
  });

  it('never marks the database down when a value cannot be stored (the store itself)', async () => {
    const { PgStore } = await import('../../cli/serve/store/pg-store.ts');
    const { newEnquiry } = await import('./store-contract.ts');
    const url = db.url(await db.createDatabase());
    const store = await PgStore.open(url);
    try {
      await expect(store.add(newEnquiry({ name: 'a\u0000b' }))).rejects.toThrow();
      expect(store.health()).toEqual({ ok: true });
    } finally {
      await store.close();
    }
  });
});

pgDescribe("#36: the form's options of the build before, kept in PostgreSQL", () => {
  it('writes options the database refused once it takes them again, so a restart still knows them', async () => {
    const { PgStore } = await import('../../cli/serve/store/pg-store.ts');
    const { optionsMemory } = await import('../../cli/serve/store/options-memory.ts');
    const url = db.url(await db.createDatabase());
    const option = (value: string) => ({ value, label: value, labels: { ru: value, en: value, de: value } });
    const dba = await connect(url);
    const store = await PgStore.open(url);
    try {
      const memory = await optionsMemory(store);
      memory.remember({ current: [option('music')], before: [] });
      const stored = async () => (await dba.query("SELECT value FROM studio_settings WHERE name = 'form_options'")).rows[0]?.value as string | undefined;
      // Written (not waited for by remember) before the database starts refusing.
      await until(async () => (await stored()) !== undefined);
      // The database refuses every write of a setting for a while (a trigger raising an error); each attempt is
      // counted by a sequence, which a rollback does not undo.
      await dba.query('CREATE SEQUENCE attempts');
      await dba.query(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('attempts'); RAISE EXCEPTION 'refused for the test'; END $$",
      );
      await dba.query('CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON studio_settings FOR EACH ROW EXECUTE FUNCTION refuse()');
      memory.remember({ current: [option('rhythm')], before: [option('music')] });
      await until(async () => (await dba.query('SELECT is_called FROM attempts')).rows[0].is_called === true);
      expect(JSON.parse((await stored())!).current[0].value).toBe('music');
      await dba.query('DROP TRIGGER refuse ON studio_settings');
    } finally {
      await store.close();
    }
    try {
      // Written by close() at the latest: a restart recalls the options of the build served, not those before.
      const again = await PgStore.open(url);
      try {
        expect((await optionsMemory(again)).recall()).toEqual({ current: [option('rhythm')], before: [option('music')] });
      } finally {
        await again.close();
      }
    } finally {
      await dba.end();
    }
  });
});

pgDescribe('#36: settings the database refuses for good', () => {
  it('hold up no other setting: each is written in turn, the refused one tried again later', async () => {
    const { PgStore } = await import('../../cli/serve/store/pg-store.ts');
    const url = db.url(await db.createDatabase());
    const dba = await connect(url);
    const store = await PgStore.open(url);
    try {
      await dba.query(
        "CREATE FUNCTION refuse_a() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.name = 'a' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$",
      );
      await dba.query('CREATE TRIGGER refuse_a BEFORE INSERT OR UPDATE ON studio_settings FOR EACH ROW EXECUTE FUNCTION refuse_a()');
      store.rememberSetting('a', 'first');
      store.rememberSetting('b', 'second');
      await until(async () => (await dba.query("SELECT value FROM studio_settings WHERE name = 'b'")).rows[0]?.value === 'second');
      expect((await dba.query("SELECT value FROM studio_settings WHERE name = 'a'")).rows).toEqual([]);
      await dba.query('DROP TRIGGER refuse_a ON studio_settings');
    } finally {
      await store.close();
    }
    try {
      // close() writes what was refused before.
      expect((await dba.query("SELECT value FROM studio_settings WHERE name = 'a'")).rows).toEqual([{ value: 'first' }]);
    } finally {
      await dba.end();
    }
  });
});

pgDescribe('#24 point 9: the rate limit with PostgreSQL', () => {
  it('is shared by two instances, and keeps no address in the database', async () => {
    const url = db.url(await db.createDatabase());
    const [a, b] = [await serve(url, ['--rate-limit', '3']), await serve(url, ['--rate-limit', '3'])];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await postJson(i % 2 ? b.url : a.url, validEnquiry())).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const client = await connect(url);
    try {
      const { rows } = await client.query('SELECT client FROM studio_rate_limit');
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.client).not.toMatch(/127\.0\.0\.1|::1|::ffff/);
    } finally {
      await client.end();
    }
  });

  it('counts only what is stored, and a /48 as well as each /64 (issue 36)', async () => {
    const url = db.url(await db.createDatabase());
    const [a, b] = [await serve(url, ['--rate-limit', '2', '--trust-proxy']), await serve(url, ['--rate-limit', '2', '--trust-proxy'])];
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < 5; i++) expect((await postJson(i % 2 ? b.url : a.url, '{}', from('192.0.2.5'))).status).toBe(422);
    const first = validEnquiry();
    expect((await postJson(a.url, first, from('192.0.2.5'))).status).toBe(201);
    expect((await postJson(b.url, first, from('192.0.2.5'))).status).toBe(200);
    expect((await postJson(b.url, validEnquiry(), from('192.0.2.5'))).status).toBe(201);
    expect((await postJson(a.url, validEnquiry(), from('192.0.2.5'))).status).toBe(429);
    const statuses: number[] = [];
    for (let i = 1; i <= 2 * NETWORK_SHARE + 2; i++)
      statuses.push((await postJson(i % 2 ? b.url : a.url, validEnquiry(), from(`2001:db8:48:${i.toString(16)}::1`))).status);
    expect(statuses).toEqual([...Array<number>(2 * NETWORK_SHARE).fill(201), 429, 429]);
  });
});
