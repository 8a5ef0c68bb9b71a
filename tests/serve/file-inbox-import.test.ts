// Issue 36: the file inbox of an earlier release is imported into the SQLite store on the first
// start, nothing lost, every record read back and compared; torn lines kept as damaged records
// that show and erase reach; the old files set aside (0600) for the admin.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { postJson, readStored, type ServeProcess, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(dir: string): Promise<ServeProcess> {
  const s = await spawnServe(['--out', dist, '--data', dir, '--rate-limit', '0'], { STUDIO_SMTP_URL: '', STUDIO_NOTIFY_TO: '' });
  cleanups.push(async () => {
    s.child.kill('SIGTERM');
    await s.exited;
  });
  return s;
}

/** Records as the file inbox wrote them: its field order, one JSON line each. */
const record = (id: number, name: string, email: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    receivedAt: new Date(Date.now() - (10 - id) * 60_000).toISOString(),
    name,
    course: 'music',
    message: `Nachricht von ${name}\nzweite Zeile`,
    email,
    locale: 'de',
    page: '/de/vocal',
    idempotencyKey: `importkey${id}xxxxxx`,
    via: 'json',
    notify: true,
    ...extra,
  });

describe('the file inbox of an earlier release', () => {
  it('is imported on the first start: every enquiry with its id, key and e-mail state; torn lines kept and erasable; the old files set aside, 0600', async () => {
    const data = tempData();
    cleanups.push(data.cleanup);
    const dir = data.dir;
    const lines = [
      record(1, 'Anna', 'anna@example.org'),
      record(3, 'Bruno', 'bruno@example.org'),
      record(4, 'Carla', 'carla@example.org', { spam: 'too_fast', notify: false }),
    ];
    // Enquiry 2 was erased; a crash cut the last line (id 5, Dora) off.
    const torn = '{"id":5,"receivedAt":"2026-12-01T10:00:00.000Z","name":"Dora Damaged","course":"mus';
    writeFileSync(join(dir, 'enquiries.jsonl'), `${lines.join('\n')}\n${torn}`, { mode: 0o644 });
    writeFileSync(join(dir, 'notified.jsonl'), `${JSON.stringify({ id: 1, sentAt: '2026-12-01T10:00:00.000Z' })}\n`);
    writeFileSync(join(dir, 'enquiries.last-id'), `${'6'.padStart(20, '0')}\n`); // 6 was given and refused (503)
    writeFileSync(join(dir, 'torn-1700000000000.txt'), '{"id":6,"receivedAt":"2026-12-01T11:00:00.000Z","name":"Emil","email":"emil@exa');
    const before = readFileSync(join(dir, 'enquiries.jsonl'));

    const server = await serve(dir);
    await new Promise((r) => setTimeout(r, 200));
    expect(server.output()).toMatch(/Imported the file inbox of the earlier release into .*enquiries\.db: 3 enquiries, each read back and compared/);
    expect(server.output()).toMatch(/enquiries\.jsonl:4 is not a whole enquiry .*kept as a damaged record of enquiry 5/);
    expect(server.output()).toMatch(/The old files are kept aside, readable by this user only, until you delete them/);
    // Every enquiry exactly as the file held it, byte for byte.
    expect(readStored(dir).map((e) => JSON.stringify(e))).toEqual(lines);
    // The old files, renamed and private; the inbox's bytes unchanged.
    expect(existsSync(join(dir, 'enquiries.jsonl'))).toBe(false);
    expect(readFileSync(join(dir, 'enquiries.jsonl.imported'))).toEqual(before);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.imported'))) expect([f, statSync(join(dir, f)).mode & 0o777]).toEqual([f, 0o600]);
    expect(readdirSync(dir).filter((f) => /^torn-\d+\.txt$/.test(f))).toEqual([]);

    // Ids go on after the highest ever given; the e-mail states and spam came along.
    const next = (await (await postJson(server.url, validEnquiry({ name: 'New' }))).json()) as { id: number };
    expect(next.id).toBe(7);
    const listed = JSON.parse((await runCli(['enquiries', 'list', '--format', 'json', '--data', dir, '--out', dist])).stdout) as {
      id: number;
      emailSent: boolean;
    }[];
    expect(listed.map((e) => [e.id, e.emailSent])).toEqual([
      [1, true],
      [3, false],
      [7, false],
    ]);
    // Its form key is known: sent again, it is the same enquiry.
    const again = await postJson(server.url, {
      ...JSON.parse(lines[1]!),
      id: undefined,
      receivedAt: undefined,
      via: undefined,
      notify: undefined,
      website: '',
      fillMs: 9000,
    });
    expect(((await again.json()) as { id: number; duplicate: boolean }).duplicate).toBe(true);

    // The torn lines: shown by show (by id, by address) and erased by erase, then gone from the database.
    const shown = await runCli(['enquiries', 'show', '--id', '5', '--data', dir]);
    expect(shown.stdout).toMatch(/Damaged record enquiries\.jsonl:4 \(enquiry 5\)[\s\S]*Dora Damaged/);
    const byAddress = await runCli(['enquiries', 'show', '--email', 'EMIL@exa', '--data', dir]);
    expect(byAddress.stdout).toMatch(/Damaged record torn-1700000000000\.txt:1 \(enquiry 6\)[\s\S]*"name":"Emil"/);
    const erased = await runCli(['enquiries', 'erase', '--id', '5', '--yes', '--data', dir]);
    expect(erased.code, erased.stderr).toBe(0);
    expect((await runCli(['enquiries', 'show', '--id', '5', '--data', dir])).stdout).toMatch(/Nothing is stored about these enquiries/);
    expect(readFileSync(join(dir, 'enquiries.db')).toString('latin1')).not.toContain('Dora Damaged');

    // A restart imports nothing again.
    server.child.kill('SIGTERM');
    await server.exited;
    const second = await serve(dir);
    expect(second.output()).not.toMatch(/Imported/);
    expect(readStored(dir).map((e) => e.id)).toEqual([1, 3, 4, 7]);
  });

  it('refuses to start while the old server still runs on the folder (its lock is fresh), and changes nothing', async () => {
    const data = tempData();
    cleanups.push(data.cleanup);
    writeFileSync(join(data.dir, 'enquiries.jsonl'), `${record(1, 'Anna', 'anna@example.org')}\n`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(data.dir, 'serve.lock'));
    const r = await runCli(['serve', '--out', dist, '--data', data.dir, '--port', '0']);
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/still in use by the file inbox of an earlier "content serve"[\s\S]*hint: stop that server first/),
    ]);
    expect(existsSync(join(data.dir, 'enquiries.jsonl'))).toBe(true);
  });
});
