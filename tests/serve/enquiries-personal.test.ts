// Personal data in the SQLite store (issues 25, 36): access, erasure, retention and backups, with
// `content serve` running as a real process beside the command where it matters.
import { spawn } from 'node:child_process';
import { chownSync, existsSync, lutimesSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { DATABASE_FILE, SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import { ROOT, runCli, runCliProcess } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { postJson, readStored, type ServeProcess, serveSite, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';
import { startSmtp, until } from '../helpers/smtp.ts';
import { newEnquiry } from './store-contract.ts';

const dist = inject('siteDir');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const noMail = { STUDIO_SMTP_URL: '', STUDIO_NOTIFY_TO: '' };

function inboxDir(): string {
  const data = tempData();
  cleanups.push(data.cleanup);
  return data.dir;
}
async function serve(dir: string, env: Record<string, string> = noMail, args: string[] = []): Promise<ServeProcess> {
  const s = await spawnServe(['--out', dist, '--data', dir, '--rate-limit', '0', ...args], env);
  cleanups.push(async () => {
    s.child.kill('SIGTERM');
    await s.exited;
  });
  return s;
}
async function fill(dir: string, enquiries: Parameters<SqliteStore['add']>[0][]): Promise<number[]> {
  const inbox = await SqliteStore.open(dir);
  try {
    const ids: number[] = [];
    for (const e of enquiries) ids.push((await inbox.add(e)).enquiry.id);
    return ids;
  } finally {
    await inbox.close();
  }
}
const ESC = /(?!\n)\p{Cc}/u;
/** One statement on the database of `dir`, as another process (a test standing in for the mail server's answer). */
function sql(dir: string, statement: string, ...params: (string | number)[]): Record<string, unknown>[] {
  const db = new DatabaseSync(join(dir, DATABASE_FILE));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return db.prepare(statement).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}
/** Every byte of the database and its write-ahead log, as text: nothing erased may be found in it. */
const databaseBytes = (dir: string) =>
  ['', '-wal']
    .map((suffix) => (existsSync(join(dir, DATABASE_FILE + suffix)) ? readFileSync(join(dir, DATABASE_FILE + suffix)).toString('latin1') : ''))
    .join('');

describe('content enquiries show and erase (SQLite store)', () => {
  it('show --email prints everything stored about one person, upper and lower case alike, and no one else', async () => {
    const dir = inboxDir();
    await fill(dir, [
      newEnquiry({ name: 'Anna', email: 'anna.k@example.org', message: 'Erste Anfrage\nzweite Zeile' }),
      newEnquiry({ name: 'Someone', email: 'anna.k@example.org.evil' }),
      newEnquiry({ name: 'Anna again', email: 'ANNA.K@Example.ORG', spam: 'too_fast' }),
      newEnquiry({ name: 'Lookalike', email: 'аnna.k@example.org' }), // a Cyrillic а
      newEnquiry({ name: 'Kelvin', email: 'anna.\u212A@example.org' }), // the Kelvin sign, which lower-cases to k
    ]);
    const json = await runCli(['enquiries', 'show', '--email', 'Anna.K@example.org', '--data', dir, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((e) => e.name)).toEqual(['Anna', 'Anna again']);
    const human = await runCli(['enquiries', 'show', '--email', 'anna.k@example.org', '--data', dir]);
    expect(human.stdout).toContain('Enquiry 1');
    expect(human.stdout).toMatch(/message\n {4}Erste Anfrage\n {4}zweite Zeile/);
    expect(human.stdout).toMatch(/suspected spam +yes \(sent too fast\)/);
    expect(human.stdout).not.toContain('Someone');
    const nobody = await runCli(['enquiries', 'show', '--email', 'nobody@example.org', '--data', dir]);
    expect([nobody.code, nobody.stdout]).toEqual([0, expect.stringMatching(/Nothing is stored about this address/)]);
  });

  it('refuses an address with control or invisible characters, and shows it escaped', async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry({ email: 'eve@example.org' })]);
    for (const address of ['eve@example.org\u001b[2J', 'eve@example.org\n', ' eve@example.org', 'eve\u202e@example.org', 'eve']) {
      const r = await runCli(['enquiries', 'erase', '--email', address, '--yes', '--data', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: --email .* is not an e-mail address/);
      expect(r.stderr).not.toMatch(ESC);
    }
    expect(readStored(dir)).toHaveLength(1);
    const both = await runCli(['enquiries', 'erase', '--email', 'eve@example.org', '--id', '1', '--data', dir]);
    expect(both.stderr).toMatch(/--email ADDRESS or --id N \(one of them\)/);
  });

  it('erases nothing without a confirmation: no terminal and no --yes', async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry({ email: 'eve@example.org' })]);
    const before = readStored(dir);
    const r = await runCli(['enquiries', 'erase', '--email', 'eve@example.org', '--data', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nothing erased: not confirmed .*\nhint: .*--yes/);
    expect(readStored(dir)).toEqual(before);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('asks on a terminal and erases only after "yes"', async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry({ name: 'Anna', email: 'anna@example.org' }), newEnquiry({ name: 'Bob' })]);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    // `script` gives the command a terminal (a pseudo-terminal), as a person at a console has.
    const onTerminal = (answer: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const command = `${process.execPath} ${join(ROOT, 'cli/bin.js')} enquiries erase --email anna@example.org --data ${dir}`;
        const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...env, NO_COLOR: '1' } });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (d.includes('Type "yes"')) child.stdin.end(`${answer}\n`);
        });
        child.on('exit', (code) => resolve({ code, out }));
      });
    const no = await onTerminal('no');
    expect([no.code, no.out]).toEqual([2, expect.stringMatching(/Erases 1 enquiry \(#1\)[\s\S]*nothing erased: not confirmed/)]);
    expect(readStored(dir)).toHaveLength(2);
    const yes = await onTerminal('yes');
    expect([yes.code, yes.out]).toEqual([0, expect.stringMatching(/erased 1 enquiry, ids 1, at /)]);
    expect(readStored(dir).map((e) => e.name)).toEqual(['Bob']);
  });

  it.skipIf(process.getuid?.() !== 0)("run as root on the database of another user (sudo), leaves every file that user's", async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry({ email: 'anna@example.org', notify: true }), newEnquiry()]);
    for (const f of ['', DATABASE_FILE]) chownSync(join(dir, f), 65534, 65534);
    expect((await runCli(['enquiries', 'erase', '--email', 'anna@example.org', '--yes', '--data', dir])).code).toBe(0);
    // SQLite gives the files it creates as root (its log and shared memory) the database's owner.
    for (const f of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`].filter((f) => existsSync(join(dir, f))))
      expect([f, statSync(join(dir, f)).uid]).toEqual([f, 65534]);
  });

  it('erases after `content serve` was killed with kill -9: no lock or request channel to take over, the database is simply opened', async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry({ email: 'anna@example.org' }), newEnquiry()]);
    const server = await serve(dir);
    server.child.kill('SIGKILL');
    await server.exited;
    const r = await runCli(['enquiries', 'erase', '--email', 'anna@example.org', '--yes', '--data', dir]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readStored(dir).map((e) => e.id)).toEqual([2]);
    await serve(dir); // and a server starts on it again
  });

  it('erases one person while 500 posts are in flight: every trace of her goes (rows, e-mail jobs, form keys, the log), every enquiry acknowledged meanwhile stays, once; the audit line names only ids', {
    timeout: 180_000,
  }, async () => {
    const dir = inboxDir();
    const target = newEnquiry({ name: 'Erika Mustermann', email: 'erika@example.org', message: 'Bitte rufen Sie mich an', notify: true });
    await fill(dir, [newEnquiry(), target, newEnquiry({ name: 'Erika', email: 'ERIKA@example.org', notify: true }), newEnquiry()]);
    sql(dir, "UPDATE enquiry_mail SET failed_at = ?, last_error = '554 rejected: Erika Mustermann' WHERE enquiry_id = 2", new Date().toISOString());
    const server = await serve(dir);
    // 500 visitors at once, each posting again as soon as answered, from before the erasure starts
    // until after it ends. A post whose connection broke before an answer is sent again with its
    // form key, as the form's script does (a kept-alive connection the server closed as it was reused).
    const answers: { key: string; status: number; id?: number; body?: unknown }[] = [];
    let running = true;
    const post = async (e: ReturnType<typeof validEnquiry>): Promise<Response> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await postJson(server.url, e);
        } catch (error) {
          if (attempt === 5) throw error;
        }
      }
    };
    const sending = Promise.all(
      Array.from({ length: 500 }, async (_, w) => {
        for (let i = 0; running; i++) {
          const e = validEnquiry({ name: `Arriving ${w}-${i}` });
          const r = await post(e);
          const body = (await r.json()) as { id?: number };
          answers.push({ key: e.idempotencyKey as string, status: r.status, id: body.id, ...(r.status === 201 ? {} : { body }) });
        }
      }),
    );
    await until(() => answers.length >= 5, 60_000);
    // A command of its own (a process, as an admin runs it), while this one keeps posting.
    const before = answers.length;
    const erase = await runCliProcess(['enquiries', 'erase', '--email', 'Erika@Example.org', '--yes', '--data', dir]);
    const during = answers.length - before;
    running = false;
    await sending;
    expect(erase.code, erase.stderr).toBe(0);
    expect(erase.stdout + erase.stderr).toMatch(/Erases 2 enquiries \(#2, #3\)/);
    expect(erase.stdout + erase.stderr).toMatch(/erased 2 enquiries, ids 2, 3, at \d{4}-/);
    expect(during).toBeGreaterThan(0);

    expect(answers.filter((a) => a.status !== 201)).toEqual([]);
    const stored = readStored(dir);
    for (const a of answers) expect(stored.find((e) => e.id === a.id)?.idempotencyKey).toBe(a.key);
    // Nothing acknowledged lost, nothing twice: her two are gone, the others and every one acknowledged are there once.
    expect(stored.map((e) => e.id)).toEqual([1, 4, ...answers.map((a) => a.id!).sort((x, y) => x - y)]);
    expect(new Set(stored.map((e) => e.idempotencyKey)).size).toBe(stored.length);
    // Not a byte of her left in the database or its log (secure_delete, then the log checkpointed); the audit line holds ids only.
    expect(databaseBytes(dir).toLowerCase()).not.toMatch(/erika|mustermann|rufen/);
    expect(sql(dir, 'SELECT line FROM audit').map((r) => r.line)).toEqual([expect.stringMatching(/^\S+ erased 2 enquiries \(ids 2, 3\): on request/)]);
    expect(statSync(join(dir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
    expect(sql(dir, 'SELECT count(*) AS n FROM enquiry_mail WHERE enquiry_id IN (2, 3)')).toEqual([{ n: 0 }]);
    expect(sql(dir, 'SELECT count(*) AS n FROM enquiry_keys WHERE enquiry_id IN (2, 3) OR key = ?', target.idempotencyKey!)).toEqual([{ n: 0 }]);
    expect(sql(dir, 'SELECT count(*) AS n FROM enquiry_recent WHERE enquiry_id IN (2, 3)')).toEqual([{ n: 0 }]);
    // The running server forgot her form key too: sent again, it is a new enquiry, not "already stored".
    const again = await postJson(server.url, { ...target, website: '', fillMs: 9000, via: undefined, notify: undefined });
    expect([again.status, ((await again.json()) as { duplicate: boolean }).duplicate]).toEqual([201, false]);
  });
});

describe('suspected spam and refused e-mails with `content serve` running', () => {
  it('lists suspected spam apart, restores it with one command (then e-mails it); a refused e-mail is listed and sent again by resend', async () => {
    const dir = inboxDir();
    const port = await freePort();
    let filter = true;
    const smtp = await startSmtp(port, (m) => (filter && (m.text ?? '').includes('FILTER-BAIT') ? { code: 554, text: '5.7.1 Rejected as spam' } : undefined));
    cleanups.push(smtp.close);
    const server = await serve(dir, { STUDIO_SMTP_URL: `smtp://127.0.0.1:${port}`, STUDIO_NOTIFY_TO: 'office@example.org' });
    // A person whose browser filled the form in a flash, and a message the studio's filter refuses.
    expect((await postJson(server.url, validEnquiry({ name: 'Speedy', fillMs: 800 }))).status).toBe(201);
    expect((await postJson(server.url, validEnquiry({ name: 'Bait', message: 'FILTER-BAIT' }))).status).toBe(201);
    await until(() => smtp.refused === 1, 30_000);
    expect(smtp.received).toHaveLength(0);
    await until(() => /refused the e-mail for enquiry 2 for good/.test(server.output()));

    const list = await runCli(['enquiries', 'list', '--data', dir, '--out', dist]);
    expect(list.stdout).not.toContain('Speedy');
    expect(list.stdout).toContain('1 suspected spam kept aside, not e-mailed: content enquiries list --spam');
    expect(list.stdout).toMatch(/Enquiries are deleted 180 days after they arrive/);
    expect(list.stderr).toMatch(/refused the e-mail for enquiry 2 for good: .*554 5\.7\.1 Rejected as spam.*content enquiries resend 2/);
    const spam = await runCli(['enquiries', 'list', '--spam', '--data', dir, '--out', dist]);
    expect(spam.stdout).toMatch(/^1 .*Speedy/m);
    expect(spam.stdout).toContain('1 suspected spam');

    const restored = await runCli(['enquiries', 'restore', '1', '--data', dir]);
    expect([restored.code, restored.stdout]).toEqual([0, expect.stringContaining('enquiry 1 restored')]);
    await until(() => smtp.received.length === 1, 30_000);
    expect(smtp.received[0]!.text).toContain('Имя: Speedy');
    expect((await runCli(['enquiries', 'restore', '1', '--data', dir])).stdout).toContain('not kept aside as suspected spam');
    expect((await runCli(['enquiries', 'restore', '99', '--data', dir])).code).toBe(1);
    expect((await runCli(['enquiries', 'restore', 'abc', '--data', dir])).code).toBe(2);

    filter = false;
    const resent = await runCli(['enquiries', 'resend', '2', '--data', dir]);
    expect([resent.code, resent.stdout]).toEqual([0, expect.stringContaining('queued again')]);
    await until(() => smtp.received.length === 2, 30_000);
    expect(smtp.received[1]!.text).toContain('Имя: Bait');
    await until(async () => JSON.parse((await runCli(['enquiries', 'list', '--format', 'json', '--data', dir])).stdout)[0]?.emailSent === true);
  });
});

describe('retention', () => {
  it('`content serve` deletes enquiries older than --keep-days with their mail jobs, and says the period', async () => {
    const dir = inboxDir();
    const inbox = await SqliteStore.open(dir);
    const day = 86_400_000;
    await inbox.add(newEnquiry({ name: 'Old', notify: true }), new Date(Date.now() - 40 * day));
    await inbox.add(newEnquiry({ name: 'Recent' }), new Date(Date.now() - 10 * day));
    await inbox.close();
    sql(dir, 'UPDATE enquiry_mail SET sent_at = ? WHERE enquiry_id = 1', new Date().toISOString());
    const events: string[] = [];
    const server = await serveSite(dist, { data: dir, keepDays: 30, log: (e) => events.push(e.kind) });
    cleanups.push(() => server.close());
    await until(() => events.includes('expired'));
    expect(readStored(dir).map((e) => e.name)).toEqual(['Recent']);
    expect(sql(dir, 'SELECT count(*) AS n FROM enquiry_mail')).toEqual([{ n: 0 }]);
    expect(sql(dir, 'SELECT line FROM audit').map((r) => r.line)).toEqual([expect.stringMatching(/erased 1 enquiry \(ids 1\): kept longer than 30 days/)]);
    expect(server.inbox.health()).toMatchObject({ ok: true, retentionDays: 30 });
    expect(events).toContain('expired');
    const list = await runCli(['enquiries', 'list', '--data', dir, '--out', dist]);
    expect(list.stdout).toMatch(/Enquiries are deleted 30 days after they arrive .*; the next to go: #2 on \d{4}-\d\d-\d\d\./);
    const bad = await runCli(['serve', '--out', dist, '--data', dir, '--keep-days', '0']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/--keep-days must be a whole number of at least 1/)]);
  });
});

describe('content enquiries backup and restore-backup (SQLite store)', () => {
  it('backs up a consistent copy while `content serve` takes enquiries, 0600, never over a file; the restore gives the same enquiries and never an id again', async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry({ name: 'Before', notify: true })]);
    sql(dir, 'UPDATE enquiry_mail SET sent_at = ? WHERE enquiry_id = 1', new Date().toISOString());
    const server = await serve(dir);
    const acknowledged: number[] = [];
    let stop = false;
    const sending = Promise.all(
      Array.from({ length: 3 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const r = await postJson(server.url, validEnquiry({ name: `Load ${w}-${i}` }));
          if (r.status === 201) acknowledged.push(((await r.json()) as { id: number }).id);
        }
      }),
    );
    await until(() => acknowledged.length >= 10);
    const before = [...acknowledged];
    const out = join(inboxDir(), 'enquiries.backup');
    const backup = await runCli(['enquiries', 'backup', '--to', out, '--data', dir]);
    stop = true;
    await sending;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Wrote \d+ enquiries from .* to .*enquiries\.backup \(readable by you only\)/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const copy = new DatabaseSync(out, { readOnly: true });
    const ids = (copy.prepare('SELECT id FROM enquiries ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    const lastId = Number((copy.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'enquiries'").get() as { seq: number }).seq);
    copy.close();
    for (const id of [1, ...before]) expect(ids).toContain(id);

    // Never over an existing file, nor through a link.
    const again = await runCli(['enquiries', 'backup', '--to', out, '--data', dir]);
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/already exists; a backup never replaces a file/)]);
    const link = join(inboxDir(), 'link.backup');
    symlinkSync(join(inboxDir(), 'elsewhere'), link);
    expect((await runCli(['enquiries', 'backup', '--to', link, '--data', dir])).code).toBe(2);

    // Restored into a new folder: the same enquiries and e-mail states; the next id follows the highest ever given.
    const restored = join(inboxDir(), 'restored');
    const r = await runCli(['enquiries', 'restore-backup', out, '--data', restored]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`Restored ${ids.length} enquiries`));
    const original = readStored(dir).filter((e) => ids.includes(e.id));
    expect(readStored(restored)).toEqual(original);
    expect(sql(restored, 'SELECT sent_at FROM enquiry_mail WHERE enquiry_id = 1')[0]?.sent_at).toEqual(expect.any(String));
    const into = await runCli(['enquiries', 'restore-backup', out, '--data', restored]);
    expect([into.code, into.stderr]).toEqual([2, expect.stringMatching(/already holds enquiries; a restore never mixes two stores/)]);
    // Emptied by erasures and restored again: the ids it gave are not given again.
    expect((await runCli(['enquiries', 'erase', '--id', ...ids.map(String), '--yes', '--data', restored])).code).toBe(0);
    const second = await serveSite(dist, { data: restored });
    cleanups.push(() => second.close());
    const next = (await (await postJson(second.url, validEnquiry({ name: 'After restore' }))).json()) as { id: number };
    expect(next.id).toBe(lastId + 1);
  });

  it("a backup killed midway (kill -9) leaves no file under the backup's name; its hidden partial copy is refused by restore-backup and removed by the next backup into the folder", {
    timeout: 180_000,
  }, async () => {
    const dir = inboxDir();
    // About 40 MB: copying it takes long enough for the kill to land while the copy is made.
    const inbox = await SqliteStore.open(dir);
    const text = 'Guten Tag, eine lange Anfrage. '.repeat(150);
    await Promise.all(Array.from({ length: 9000 }, (_, i) => inbox.add(newEnquiry({ name: `Anna ${i}`, message: `${text}${i}` }))));
    await inbox.close();
    const folder = inboxDir();
    const out = join(folder, 'enquiries.backup');
    const child = spawn(process.execPath, [join(ROOT, 'cli/bin.js'), 'enquiries', 'backup', '--to', out, '--data', dir], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));
    // Killed as soon as the first file of the backup appears in its folder (the copy starts right after).
    const watcher = watch(folder);
    await new Promise<void>((resolve) => watcher.once('change', () => resolve()));
    child.kill('SIGKILL');
    watcher.close();
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false);
    // The partial copy (and SQLite's journal of it, when the kill came while it wrote), hidden, readable by its owner only.
    const left = readdirSync(folder).sort();
    expect(left[0]).toMatch(/^\.enquiries\.backup\.studio-backup\.\d+\.[0-9a-f]{8}\.partial$/);
    expect(left.slice(1)).toEqual(left.length > 1 ? [`${left[0]}-journal`] : []);
    for (const name of left) expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    const restore = await runCli(['enquiries', 'restore-backup', join(folder, left[0]!), '--data', join(inboxDir(), 'r')]);
    expect(restore.code).toBe(2);

    // A backup right after leaves it (a backup of another PID namespace may still be writing it)...
    const soon = await runCli(['enquiries', 'backup', '--to', join(folder, 'enquiries-soon.backup'), '--data', dir]);
    expect(soon.code, soon.stderr).toBe(0);
    expect(readdirSync(folder).sort()).toEqual([...left, 'enquiries-soon.backup'].sort());
    // ...and files that only look like one: another program's, a link, a folder, one readable by others.
    const foreign = [
      '.notes.txt.4000000.partial',
      '.photos.studio-backup.4000001.0badf00d.partial',
      '.x.studio-backup.4000002.0badf00d.partial',
      '.y.studio-backup.4000003.0badf00d.partial',
    ];
    writeFileSync(join(folder, foreign[0]!), 'mine', { mode: 0o600 });
    mkdirSync(join(folder, foreign[1]!));
    symlinkSync(join(folder, 'enquiries-soon.backup'), join(folder, foreign[2]!));
    writeFileSync(join(folder, foreign[3]!), 'shared', { mode: 0o644 });
    // The next backup into the folder, under another name (a nightly backup is named by its date), removes the partial copy
    // once it has not been written to for ten minutes, and nothing else.
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const name of [...left, ...foreign]) lutimesSync(join(folder, name), hourAgo, hourAgo);
    const again = await runCli(['enquiries', 'backup', '--to', join(folder, 'enquiries-next.backup'), '--data', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(folder).sort()).toEqual([...foreign, 'enquiries-next.backup', 'enquiries-soon.backup'].sort());
    expect(again.stdout).toMatch(/Wrote 9000 enquiries/);
  });

  it('backs up without a server too; refuses a backup cut short, a record that is not an enquiry (naming it), and the PostgreSQL store (pg_dump does that)', async () => {
    const dir = inboxDir();
    await fill(dir, [newEnquiry(), newEnquiry()]);
    const out = join(inboxDir(), 'b.backup');
    expect((await runCli(['enquiries', 'backup', '--to', out, '--data', dir])).code).toBe(0);
    const bytes = readFileSync(out);
    const cut = join(inboxDir(), 'cut.backup');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 3000));
    const r = await runCli(['enquiries', 'restore-backup', cut, '--data', join(inboxDir(), 'x')]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/cut\.backup cannot be restored: .*nothing was restored/)]);
    const changed = join(inboxDir(), 'changed.backup');
    writeFileSync(changed, bytes);
    const db = new DatabaseSync(changed);
    db.prepare('UPDATE enquiries SET email = ? WHERE id = 2').run(`${'x'.repeat(300)}@example.org`);
    db.close();
    const target = join(inboxDir(), 'y');
    const bad = await runCli(['enquiries', 'restore-backup', changed, '--data', target]);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringMatching(/changed\.backup cannot be restored: enquiry 2 is not an enquiry \(email: .*\); nothing was restored/),
    ]);
    expect(existsSync(join(target, DATABASE_FILE))).toBe(false);
    const published = await runCli(['enquiries', 'backup', '--to', join(dist, 'assets', 'enquiries.backup'), '--data', dir]);
    expect([published.code, published.stderr]).toEqual([2, expect.stringMatching(/a site that is served on the web/)]);
    const pg = await runCli(['enquiries', 'backup', '--to', join(inboxDir(), 'pg.backup'), '--database', 'postgres://studio@127.0.0.1:1/studio']);
    expect([pg.code, pg.stderr]).toEqual([2, expect.stringMatching(/backed up with pg_dump/)]);
  });
});
