// Everything that needs a real PostgreSQL, in one file: one throwaway cluster for all of it
// (tests/helpers/postgres.ts), started once and removed afterwards. The tests run in order;
// the last one stops and starts the cluster.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { EnquiryManifest } from '../../cli/serve/manifest.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../cli/serve/store/pg-schema.ts';
import { PgStore } from '../../cli/serve/store/pg-store.ts';
import { SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import { runCli } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { type Cluster, startPostgres } from '../helpers/postgres.ts';
import { postJson, type ServeProcess, serveSite, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';
import { mailContract, newEnquiry, personalDataContract, storeContract } from './store-contract.ts';

const started = await startPostgres();
if ('unavailable' in started) {
  if (process.env.CI && process.env.CI !== 'false') throw new Error(`CI needs PostgreSQL for these tests: ${started.unavailable}`);
  console.log(`PostgreSQL tests skipped: ${started.unavailable}`);
}
const cluster = 'unavailable' in started ? undefined : started;
const pgDescribe = cluster ? describe : describe.skip;
afterAll(async () => cluster?.remove());
const db = cluster as Cluster;
const run = promisify(execFile);

/** With health counted often (the e-mail and personal data contracts wait for it). */
const pgStore = async () => {
  const url = db.url(await db.createDatabase());
  return { open: () => PgStore.open(url, { recheckMs: 100 }), cleanup: () => {} };
};
pgDescribe('the PostgreSQL store keeps the enquiry store contract', () => {
  storeContract(async () => {
    const url = db.url(await db.createDatabase());
    return { open: () => PgStore.open(url), cleanup: () => {} };
  });
});
pgDescribe('the PostgreSQL store keeps the e-mail contract', () => {
  mailContract(pgStore);
});
pgDescribe('the PostgreSQL store keeps the personal data contract', () => {
  personalDataContract(pgStore);
});

pgDescribe('the phone field (#37 point 6) in a database made before it', () => {
  it('an existing database gets the phone column, keeps its enquiries, and import from SQLite carries the phone over', async () => {
    const url = db.url(await db.createDatabase());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The schema as it was before the phone: versions 1 to 3, with an enquiry in it.
      await client.query('CREATE TABLE studio_schema (version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())');
      for (const [i, step] of MIGRATIONS.slice(0, 3).entries()) {
        await client.query(step);
        await client.query('INSERT INTO studio_schema (version) VALUES ($1)', [i + 1]);
      }
      await client.query(
        `INSERT INTO studio_enquiries (received_at, name, course, message, email, locale, via, notify, content_hash)
         VALUES (now(), 'Old', 'music', '', 'old@example.org', 'ru', 'json', false, 'h')`,
      );
    } finally {
      await client.end();
    }
    const store = await PgStore.open(url);
    try {
      const added = await store.add(newEnquiry({ phone: '030 1234567' }));
      expect((await store.list()).map((e) => [e.name, e.phone])).toEqual([
        ['Old', undefined],
        [added.enquiry.name, '030 1234567'],
      ]);
    } finally {
      await store.close();
    }
    expect(await query(url, 'SELECT max(version) AS v FROM studio_schema')).toEqual([{ v: SCHEMA_VERSION }]);

    const data = tempData();
    try {
      const sqlite = await SqliteStore.open(data.dir);
      await sqlite.add(newEnquiry({ name: 'From SQLite', phone: '+7 900 123-45-67' }));
      await sqlite.close();
      const imported = await runCli(['enquiries', 'import', '--data', data.dir, '--database', url]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(await query(url, "SELECT phone FROM studio_enquiries WHERE name = 'From SQLite'")).toEqual([{ phone: '+7 900 123-45-67' }]);
    } finally {
      data.cleanup();
    }
  });
});

const dist = inject('siteDir');
const serveArgs = (url: string) => ['--out', dist, '--database', url, '--rate-limit', '0', '--quiet'];
const noMail = { STUDIO_SMTP_URL: '', STUDIO_NOTIFY_TO: '' };
const running: ServeProcess[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) {
    s.child.kill('SIGKILL');
    await s.exited;
  }
});
async function serve(url: string, env: Record<string, string> = noMail): Promise<ServeProcess> {
  const s = await spawnServe(serveArgs(url), env);
  running.push(s);
  return s;
}

async function query<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}
const storedKeys = async (url: string) =>
  new Map(
    (await query<{ id: string; idempotency_key: string }>(url, 'SELECT id, idempotency_key FROM studio_enquiries')).map((r) => [
      r.idempotency_key,
      Number(r.id),
    ]),
  );

interface Answer {
  key: string;
  status: number;
  id?: number;
  body?: Record<string, unknown>;
  sentAt: number;
  answeredAt: number;
}
async function send(base: string, e: Record<string, unknown>): Promise<Answer> {
  const sentAt = Date.now();
  try {
    const r = await postJson(base, e);
    const body = (await r.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    return { key: e.idempotencyKey as string, status: r.status, id: body?.id as number | undefined, body, sentAt, answeredAt: Date.now() };
  } catch {
    return { key: e.idempotencyKey as string, status: 0, sentAt, answeredAt: Date.now() };
  }
}

/**
 * Sends again after a network error (a kept-alive connection the server closed just then), as
 * a visitor's browser would: the idempotency key makes that safe. An instance that is gone
 * still fails.
 */
async function sendSure(base: string, e: Record<string, unknown>): Promise<Answer> {
  let answer = await send(base, e);
  for (let i = 0; i < 3 && answer.status === 0; i++) answer = await send(base, e);
  return answer;
}

/**
 * Sends every enquiry with `workers` at a time, each to the base `to(i)` names; `each` runs after
 * every answer (the worker waits for it). While `more()` says so, it goes on past the last one
 * with new enquiries, added to `enquiries`: a load that lasts as long as the test needs, however
 * fast the answers come.
 */
async function load(
  enquiries: Record<string, unknown>[],
  workers: number,
  to: (i: number) => string,
  each: (a: Answer) => void | Promise<void> = () => {},
  more: () => boolean = () => false,
) {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < enquiries.length || more()) {
        const i = next++;
        enquiries[i] ??= validEnquiry();
        const a = await send(to(i), enquiries[i]!);
        answers.push(a);
        await each(a);
      }
    }),
  );
  return answers;
}

const until = async (what: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A real SMTP server that counts the messages per subject. */
async function startSmtp(port: number) {
  const subjects: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        subjects.push(mail.subject ?? '');
        callback();
      }, callback);
    },
  });
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', r));
  return { subjects, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

pgDescribe('the form options of the build before, across a restart, in PostgreSQL', () => {
  it('a publish renamed a course (r1 → r2) and restarted content serve: the old option is still taken, twice restarted, and one never offered is not', async () => {
    const url = db.url(await db.createDatabase());
    // r2: the test site with its first course renamed, as a rebuild after an edit of form.yaml makes it.
    const r2 = mkdtempSync(join(tmpdir(), 'studio-r2-'));
    try {
      cpSync(dist, r2, { recursive: true });
      const manifestFile = join(r2, '.studio', 'enquiry.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as EnquiryManifest;
      const old = manifest.options[0]!.value;
      manifest.options[0] = { ...manifest.options[0]!, value: `${old}-neu` };
      writeFileSync(manifestFile, JSON.stringify(manifest));
      const r1 = await serveSite(dist, { database: url, rateLimit: { max: 0, windowMs: 60_000 } });
      expect((await postJson(r1.url, validEnquiry({ course: old }))).status).toBe(201);
      await r1.stop();
      for (let restart = 0; restart < 2; restart++) {
        const server = await serveSite(r2, { database: url, rateLimit: { max: 0, windowMs: 60_000 } });
        try {
          // A page of r1 still open in a browser posts the old option.
          expect((await postJson(server.url, validEnquiry({ course: old }))).status).toBe(201);
          expect((await postJson(server.url, validEnquiry({ course: `${old}-neu` }))).status).toBe(201);
          expect((await postJson(server.url, validEnquiry({ course: 'never-offered' }))).status).toBe(422);
        } finally {
          await server.stop();
        }
      }
    } finally {
      rmSync(r2, { recursive: true, force: true });
    }
  });
});

pgDescribe('content enquiries with --database', () => {
  it('migrate creates the schema once; import moves a file inbox without duplicates, twice; list and export read the database', async () => {
    const url = db.url(await db.createDatabase());
    const first = await runCli(['enquiries', 'migrate', '--database', url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr + first.stdout).toMatch(new RegExp(`from version 0 to ${SCHEMA_VERSION}`));
    expect((await runCli(['enquiries', 'migrate', '--database', url])).stdout + (await runCli(['enquiries', 'migrate', '--database', url])).stderr).toMatch(
      /up to date/,
    );

    // A database migrated by a newer compiler is not touched.
    const newer = db.url(await db.createDatabase());
    await runCli(['enquiries', 'migrate', '--database', newer]);
    await query(newer, 'INSERT INTO studio_schema (version) VALUES (99)');
    const refused = await runCli(['enquiries', 'migrate', '--database', newer]);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringMatching(new RegExp(`^error: .*schema is at version 99, newer than this tool knows \\(${SCHEMA_VERSION}\\)\nhint: `)),
    ]);

    const data = tempData();
    try {
      const inbox = await SqliteStore.open(data.dir);
      const a = await inbox.add(newEnquiry({ name: 'Anna', notify: true }));
      await inbox.add(newEnquiry({ name: 'Boris', notify: true }));
      await inbox.add(newEnquiry({ name: 'Clara', idempotencyKey: undefined, via: 'form' }));
      inbox.sql('UPDATE enquiry_mail SET sent_at = ? WHERE enquiry_id = ?').run(new Date().toISOString(), a.enquiry.id);
      await inbox.close();
      const once = await runCli(['enquiries', 'import', '--data', data.dir, '--database', url]);
      expect(once.code, once.stderr).toBe(0);
      expect(once.stdout + once.stderr).toMatch(/Imported 3 enquiries/);
      const twice = await runCli(['enquiries', 'import', '--data', data.dir, '--database', url]);
      expect(twice.stdout + twice.stderr).toMatch(/Imported 0 enquiries.*\(3 already there\)/);

      const list = await runCli(['enquiries', 'list', '--format', 'json', '--database', url]);
      expect(list.code, list.stderr).toBe(0);
      const rows = JSON.parse(list.stdout) as { id: number; name: string; emailSent: boolean }[];
      expect(rows.map((r) => [r.id, r.name, r.emailSent])).toEqual([
        [1, 'Anna', true],
        [2, 'Boris', false],
        [3, 'Clara', false],
      ]);
      const csv = await runCli(['enquiries', 'export', '--format', 'csv', '--since', '2000-01-01', '--database', url]);
      expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(4);

      // A retry of an imported enquiry (same key) to a server on the database is that enquiry; the owed e-mail is in the outbox.
      const store = await PgStore.open(url);
      const again = await store.add({ ...(await store.list())[1]!, idempotencyKey: (await store.list())[1]!.idempotencyKey });
      expect([again.duplicate, again.enquiry.id]).toEqual([true, 2]);
      expect((await store.add(newEnquiry())).enquiry.id).toBe(4);
      await store.close();
      expect(await query(url, 'SELECT enquiry_id FROM studio_enquiry_mail WHERE sent_at IS NULL')).toEqual([{ enquiry_id: '2' }]);
    } finally {
      data.cleanup();
    }
  });

  it('takes a password only from the environment and never prints it', async () => {
    const name = await db.createDatabase();
    const onCommandLine = await runCli(['enquiries', 'list', '--database', db.url(name, 'hunter2secret')]);
    expect(onCommandLine.code).toBe(2);
    expect(onCommandLine.stderr).toMatch(/^error: --database holds a password \(postgres:\/\/postgres:\*\*\*@/);
    expect(onCommandLine.stderr).not.toContain('hunter2secret');
    const inQuery = await runCli(['enquiries', 'list', '--database', `${db.url(name)}?password=hunter2secret`]);
    expect([inQuery.code, inQuery.stderr.includes('hunter2secret')]).toEqual([2, false]);
    expect(inQuery.stderr).toContain('password=***');
    const missing = await runCli(['enquiries', 'list', '--database', db.url('no_such_database')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^read PostgreSQL .*no_such_database \(from --database\)\nerror: the database .* cannot be read/);

    const server = await serve('', { ...noMail, STUDIO_DATABASE_URL: db.url(name, 'hunter2secret') }).catch(async () => undefined);
    expect(server).toBeUndefined(); // --database '' is not an address
    const fromEnv = await spawnServe(['--out', dist, '--rate-limit', '0'], { ...noMail, STUDIO_DATABASE_URL: db.url(name, 'hunter2secret') });
    running.push(fromEnv);
    const answer = await send(fromEnv.url, validEnquiry());
    expect(answer.status).toBe(201);
    expect(fromEnv.output()).toContain('PostgreSQL postgres://postgres:***@');
    expect(fromEnv.output()).not.toContain('hunter2secret');
  });
});

pgDescribe('personal data and backups in PostgreSQL', () => {
  it('show, erase (with a confirmation), list --spam and restore work on the database as on the file inbox', async () => {
    const url = db.url(await db.createDatabase());
    const store = await PgStore.open(url);
    await store.add(newEnquiry({ name: 'Erika', email: 'Erika@Example.org', notify: true }));
    await store.add(newEnquiry({ name: 'Other', email: 'erika@example.org.evil' }));
    await store.add(newEnquiry({ name: 'Erika bot-like', email: 'ERIKA@example.org', spam: 'honeypot' }));
    await store.close();
    const show = await runCli(['enquiries', 'show', '--email', 'erika@example.org', '--database', url, '--format', 'json']);
    expect((JSON.parse(show.stdout) as { name: string }[]).map((e) => e.name)).toEqual(['Erika', 'Erika bot-like']);
    const spam = await runCli(['enquiries', 'list', '--spam', '--format', 'json', '--database', url]);
    expect((JSON.parse(spam.stdout) as { id: number }[]).map((e) => e.id)).toEqual([3]);
    expect((await runCli(['enquiries', 'restore', '3', '--database', url])).stdout).toContain('enquiry 3 restored');
    expect(await query(url, 'SELECT enquiry_id FROM studio_enquiry_mail WHERE sent_at IS NULL ORDER BY 1')).toEqual([{ enquiry_id: '1' }, { enquiry_id: '3' }]);
    expect((await runCli(['enquiries', 'erase', '--email', 'erika@example.org', '--database', url])).code).toBe(2); // not confirmed
    const erase = await runCli(['enquiries', 'erase', '--email', 'erika@example.org', '--yes', '--database', url]);
    expect(erase.stdout).toMatch(/erased 2 enquiries, ids 1, 3, at /);
    const left = await query<{ n: number }>(
      url,
      `SELECT (SELECT count(*) FROM studio_enquiries WHERE lower(email) = 'erika@example.org')::int
            + (SELECT count(*) FROM studio_enquiry_mail)::int
            + (SELECT count(*) FROM studio_enquiry_keys WHERE enquiry_id IN (1, 3))::int
            + (SELECT count(*) FROM studio_enquiry_recent WHERE enquiry_id IN (1, 3))::int AS n`,
    );
    expect(left).toEqual([{ n: 0 }]);
    expect((await query<{ line: string }>(url, 'SELECT line FROM studio_enquiry_audit'))[0]!.line).toMatch(/erased 2 enquiries \(ids 1, 3\): on request/);
    expect((await runCli(['enquiries', 'list', '--format', 'json', '--database', url])).stdout).toContain('erika@example.org.evil');
  });

  it('a failed import says which enquiry the database refused and what to do, not "wait for the database"', async () => {
    const url = db.url(await db.createDatabase());
    const data = tempData();
    try {
      const inbox = await SqliteStore.open(data.dir);
      await inbox.add(newEnquiry({ name: 'Fine' }));
      await inbox.add(newEnquiry({ name: 'Nul' }));
      // A NUL character, which SQLite keeps and PostgreSQL's text cannot hold (the form refuses it; an old file inbox may have one).
      inbox.sql("UPDATE enquiries SET message = 'a' || char(0) || 'b' WHERE id = 2").run();
      await inbox.close();
      const r = await runCli(['enquiries', 'import', '--data', data.dir, '--database', url]);
      expect([r.code, r.stderr]).toEqual([
        2,
        expect.stringMatching(
          /failed and was undone: .*\nhint: enquiry 2 holds a value PostgreSQL cannot store .*content enquiries show --id 2 --data .*then run the import again/,
        ),
      ]);
    } finally {
      data.cleanup();
    }
  });

  it('import carries suspected spam and refused e-mails over as they are', async () => {
    const url = db.url(await db.createDatabase());
    const data = tempData();
    try {
      const inbox = await SqliteStore.open(data.dir);
      await inbox.add(newEnquiry({ name: 'Refused', notify: true }));
      await inbox.add(newEnquiry({ name: 'Kept aside', spam: 'honeypot' }));
      inbox.sql("UPDATE enquiry_mail SET failed_at = '2026-11-20T10:00:00.000Z', last_error = '554 no' WHERE enquiry_id = 1").run();
      await inbox.close();
      expect((await runCli(['enquiries', 'import', '--data', data.dir, '--database', url])).code).toBe(0);
      const store = await PgStore.open(url);
      try {
        expect((await store.listWithMail()).map((e) => [e.name, e.spam, e.mail.state])).toEqual([
          ['Refused', undefined, 'failed'],
          ['Kept aside', 'honeypot', 'none'],
        ]);
      } finally {
        await store.close();
      }
    } finally {
      data.cleanup();
    }
  });

  it('pg_dump of the database and pg_restore into a fresh one give the same enquiries, e-mail states, next id and retention', async () => {
    const url = db.url(await db.createDatabase());
    const store = await PgStore.open(url);
    for (const name of ['Anna', 'Boris', 'Clara']) await store.add(newEnquiry({ name, notify: true }));
    await store.add(newEnquiry({ name: 'Spam', spam: 'too_fast' }));
    await query(
      url,
      "UPDATE studio_enquiry_mail SET sent_at = now() WHERE enquiry_id = 1; UPDATE studio_enquiry_mail SET failed_at = now(), last_error = '554 no' WHERE enquiry_id = 2",
    );
    await store.setRetention(90);
    await store.erase([3], 'on request');
    const before = await store.listWithMail();
    await store.close();
    const dir = tempData();
    try {
      const dump = join(dir.dir, 'enquiries.dump');
      await run(join(db.bin, 'pg_dump'), ['--format=custom', '--no-owner', '--no-unlogged-table-data', `--file=${dump}`, url]);
      const fresh = db.url(await db.createDatabase());
      await run(join(db.bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${fresh}`, dump]);
      const restored = await PgStore.open(fresh);
      try {
        expect(await restored.listWithMail()).toEqual(before);
        expect(before.map((e) => [e.name, e.mail.state])).toEqual([
          ['Anna', 'sent'],
          ['Boris', 'failed'],
          ['Spam', 'none'],
        ]);
        expect(await restored.retention()).toBe(90);
        expect(await restored.audit()).toEqual([expect.stringMatching(/erased 1 enquiry \(ids 3\)/)]);
        expect((await restored.add(newEnquiry())).enquiry.id).toBe(5);
      } finally {
        await restored.close();
      }
    } finally {
      dir.cleanup();
    }
  });
});

pgDescribe('two content serve instances on one database', () => {
  it('store 1,000 concurrent enquiries exactly once, resubmissions not again, and e-mail each exactly once after SMTP was down', {
    timeout: 300_000,
  }, async () => {
    const url = db.url(await db.createDatabase());
    const smtpPort = await freePort();
    const env = { STUDIO_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, STUDIO_NOTIFY_TO: 'office@example.org' };
    const [a, b] = await Promise.all([serve(url, env), serve(url, env)]);
    const enquiries = Array.from({ length: 1000 }, () => validEnquiry());
    const firsts = await Promise.all(enquiries.map((e, i) => sendSure(i % 2 ? a!.url : b!.url, e)));
    expect(firsts.filter((x) => x.status !== 201).map((x) => [x.status, x.body])).toEqual([]);
    // Each sent again to the other instance, and once more to the same: the same enquiry.
    const seconds = await Promise.all(enquiries.map((e, i) => sendSure(i % 2 ? b!.url : a!.url, e)));
    const thirds = await Promise.all(enquiries.map((e, i) => sendSure(i % 2 ? a!.url : b!.url, e)));
    for (const [i, x] of [...seconds, ...thirds].entries()) expect([x.status, x.body?.duplicate, x.id]).toEqual([200, true, firsts[i % 1000]!.id]);

    // A key reused with another enquiry is refused by either instance; a plain form sent twice, once to each, is stored once.
    for (const base of [a!.url, b!.url]) expect((await send(base, { ...enquiries[0]!, message: 'Something else entirely' })).status).toBe(409);
    const form = new URLSearchParams({
      name: 'Form Sender',
      course: 'music',
      message: 'Sent twice without a script',
      email: 'form@example.org',
      locale: 'ru',
      page: '/vocal',
      website: '',
    });
    for (const base of [a!.url, b!.url]) {
      const r = await fetch(`${base}/api/enquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: form,
        redirect: 'manual',
      });
      expect(r.status).toBe(303);
    }
    expect(await query(url, "SELECT count(*)::int AS n FROM studio_enquiries WHERE name = 'Form Sender'")).toEqual([{ n: 1 }]);

    const stored = new Map([...(await storedKeys(url))].filter(([key]) => key));
    expect(stored.size).toBe(1000);
    expect(new Set(stored.values()).size).toBe(1000);
    for (const x of firsts) expect(stored.get(x.key)).toBe(x.id);

    // SMTP is down: every e-mail was tried and failed at least once, none is lost.
    await until(async () => Number((await query<{ n: string }>(url, 'SELECT count(*) AS n FROM studio_enquiry_mail WHERE attempts > 0'))[0]!.n) === 1001);
    const smtp = await startSmtp(smtpPort);
    try {
      await until(
        async () => Number((await query<{ n: string }>(url, 'SELECT count(*) AS n FROM studio_enquiry_mail WHERE sent_at IS NULL'))[0]!.n) === 0,
        120_000,
      );
      await new Promise((r) => setTimeout(r, 1500)); // room for a second copy to arrive, if one were sent
      expect(smtp.subjects).toHaveLength(1001); // the 1,000 and the plain form's
      const names = [...enquiries.map((e) => e.name as string), 'Form Sender'];
      const counts = new Map<string, number>();
      for (const s of smtp.subjects) {
        const name = names.find((n) => s.includes(`${n} `));
        counts.set(name ?? s, (counts.get(name ?? s) ?? 0) + 1);
      }
      expect([...counts.values()].every((c) => c === 1) && counts.size === 1001).toBe(true);
      // The instances shared the work (this one tried, too).
      expect(a!.output()).toMatch(/e-mail for enquiry \d+ failed/);
    } finally {
      await smtp.close();
    }
  });

  it('lose no enquiry answered 2xx when one is killed with SIGKILL under load', { timeout: 180_000 }, async () => {
    const url = db.url(await db.createDatabase());
    const [a, b] = await Promise.all([serve(url), serve(url)]);
    const enquiries = Array.from({ length: 800 }, () => validEnquiry());
    let done = 0;
    const answers = await load(
      enquiries,
      40,
      (i) => (i % 2 ? a!.url : b!.url),
      () => {
        if (++done === 250) a!.child.kill('SIGKILL');
      },
    );
    const acknowledged = answers.filter((x) => x.status >= 200 && x.status < 300);
    expect(acknowledged.length).toBeGreaterThan(400);
    expect(answers.filter((x) => x.status === 0).length).toBeGreaterThan(0); // the killed one stopped answering
    const stored = await storedKeys(url);
    for (const x of acknowledged) expect(stored.get(x.key), x.key).toBe(x.id);
    // The visitors whose answer was lost send again, to the instance that is left: stored once.
    const retries = await Promise.all(answers.filter((x) => x.status === 0).map((x) => send(b!.url, enquiries.find((e) => e.idempotencyKey === x.key)!)));
    expect(retries.every((x) => x.status === 201 || x.status === 200)).toBe(true);
    const after = await storedKeys(url);
    expect(after.size).toBe(800);
    expect(new Set(after.values()).size).toBe(800);
  });
});

pgDescribe('the database stopped under load and started again', () => {
  it('answers 503 with phone and e-mail while it is down, loses no acknowledged enquiry, serves pages, and recovers without a restart', {
    timeout: 180_000,
  }, async () => {
    const url = db.url(await db.createDatabase());
    const [a, b] = await Promise.all([serve(url), serve(url)]);
    const marks = { stopped: Number.POSITIVE_INFINITY, starting: Number.POSITIVE_INFINITY };
    let done = 0;
    let stopping: Promise<void> | undefined;
    // The load lasts until the database is back, however fast the refusals come while it is
    // down (a fixed number of enquiries could all be answered before `pg_ctl stop` returns).
    const enquiries: Record<string, unknown>[] = [];
    let stopLoad = false;
    const loading = load(
      enquiries,
      10,
      (i) => (i % 2 ? a!.url : b!.url),
      async (answer) => {
        if (++done === 150)
          stopping = db.stop().then(() => {
            marks.stopped = Date.now();
          });
        // A refusal comes at once: a visitor does not send again within milliseconds.
        if (answer.status === 503) await new Promise((r) => setTimeout(r, 20));
      },
      () => !stopLoad,
    );
    await until(() => marks.stopped < Number.POSITIVE_INFINITY, 120_000);
    void stopping;
    // While it is down: no "ok", the studio's phone and e-mail instead; health says so; pages are served.
    await new Promise((r) => setTimeout(r, 500));
    for (const base of [a!.url, b!.url]) {
      const refused = await send(base, validEnquiry());
      expect(refused.status).toBe(503);
      expect(refused.body?.contacts).toMatchObject({ phone: expect.any(String), email: expect.any(String) });
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { reasons: string[] }).reasons.join(' ')).toMatch(/database/);
      expect((await fetch(`${base}/vocal/`)).status).toBe(200);
    }
    marks.starting = Date.now();
    await db.start();
    await until(async () => (await fetch(`${a!.url}/api/health`)).status === 200 && (await fetch(`${b!.url}/api/health`)).status === 200, 60_000);
    expect((await send(a!.url, validEnquiry())).status).toBe(201);
    expect((await send(b!.url, validEnquiry())).status).toBe(201);
    stopLoad = true;
    const answers = (await loading).filter((x) => x.status !== 0 || x.sentAt < marks.starting);
    const whileDown = answers.filter((x) => x.sentAt > marks.stopped && x.answeredAt < marks.starting);
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.filter((x) => x.status < 300)).toEqual([]);
    expect(whileDown.every((x) => x.status === 503)).toBe(true);
    const stored = await storedKeys(url);
    const acknowledged = answers.filter((x) => x.status >= 200 && x.status < 300);
    for (const x of acknowledged) expect(stored.get(x.key), x.key).toBe(x.id);
  });

  it('starts while the database is away (503 and pages meanwhile), then creates the schema and takes enquiries once it is there', {
    timeout: 180_000,
  }, async () => {
    const url = db.url(await db.createDatabase());
    await db.stop();
    let restarted = false;
    try {
      const a = await serve(url);
      await until(() => /"level":40,.*the database cannot store enquiries/.test(a.output()));
      expect((await fetch(`${a.url}/api/health`)).status).toBe(503);
      expect((await send(a.url, validEnquiry())).status).toBe(503);
      expect((await fetch(`${a.url}/vocal/`)).status).toBe(200);
      await db.start();
      restarted = true;
      await until(async () => (await fetch(`${a.url}/api/health`)).status === 200, 60_000);
      const stored = await send(a.url, validEnquiry());
      expect([stored.status, stored.id]).toEqual([201, 1]);
      expect(await query(url, 'SELECT max(version) AS v FROM studio_schema')).toEqual([{ v: SCHEMA_VERSION }]);
    } finally {
      if (!restarted) await db.start();
    }
  });
});
