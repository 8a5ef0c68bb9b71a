// Issue 24 point 9 and issue 25 "Exports": which store a command reads, and exports that are
// private files, never inside a served folder, and keep every byte a visitor wrote.
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import { runCli } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { tempData } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

const dist = inject('siteDir');
let data: ReturnType<typeof tempData>;
const MESSAGE = 'Zeile eins\r\nZeile zwei; mit "Anführung"\rnur CR\nnur LF';

beforeAll(async () => {
  data = tempData();
  const store = await SqliteStore.open(join(data.dir, 'inbox'));
  await store.add(newEnquiry({ name: 'Jürgen Groß', course: 'music', message: MESSAGE, email: 'j@example.de', locale: 'de' }));
  await store.add(newEnquiry({ name: 'Анна', course: 'piano', message: 'простой текст', email: 'a@example.org' }));
  await store.close();
});
afterAll(() => data?.cleanup());

const inbox = () => ['--data', join(data.dir, 'inbox'), '--out', dist];
const saved = process.env.STUDIO_DATABASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.STUDIO_DATABASE_URL;
  else process.env.STUDIO_DATABASE_URL = saved;
});

describe('#24 point 9: which store an enquiries command reads', () => {
  it('an explicit --data wins over STUDIO_DATABASE_URL, and the command says on stderr what it read', async () => {
    process.env.STUDIO_DATABASE_URL = `postgres://nobody@127.0.0.1:${await freePort()}/nothing`;
    const r = await runCli(['enquiries', 'list', ...inbox()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Jürgen Groß');
    expect(r.stderr).toMatch(/read .*inbox\/enquiries\.db/);
    const e = await runCli(['enquiries', 'export', '--format', 'json', ...inbox()]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stderr).toMatch(/read .*enquiries\.db/);
  });

  it('without --data, STUDIO_DATABASE_URL is read and named (without its password)', async () => {
    process.env.STUDIO_DATABASE_URL = `postgres://nobody:hunter22@127.0.0.1:${await freePort()}/nothing`;
    const r = await runCli(['enquiries', 'list', '--out', dist]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PostgreSQL .*STUDIO_DATABASE_URL/);
    expect(r.stderr).not.toContain('hunter22');
  });
});

describe('#24 point 9 and #25: enquiries export', () => {
  it('keeps a carriage return a carriage return when standard output is not a terminal', async () => {
    const csv = await runCli(['enquiries', 'export', '--format', 'csv', ...inbox()]);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain(`"${MESSAGE.replaceAll('"', '""')}"`);
    expect(csv.stdout).not.toContain('\\u000D');
    const json = await runCli(['enquiries', 'export', '--format', 'json', ...inbox()]);
    expect((JSON.parse(json.stdout) as { message: string }[])[0]!.message).toBe(MESSAGE);
  });

  it('writes a private file (0600), as German Excel opens it: UTF-8 mark, semicolons, CRLF, quoted line breaks', async () => {
    const out = join(data.dir, 'export.csv');
    const r = await runCli(['enquiries', 'export', '--format', 'csv', '--output', out, ...inbox()]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const [head, first] = text.split('\r\n');
    expect(head).toBe('id;receivedAt;name;course;courseLabel;email;phone;locale;message;page;via;emailSent');
    expect(first).toMatch(/^1;\d{4}-[^;]+;Jürgen Groß;music;Вокал;j@example\.de;;de;"Zeile eins$/);
    // Every byte the visitor wrote, inside one quoted cell.
    expect(text).toContain(`;"${MESSAGE.replaceAll('"', '""')}";`);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('never writes into a served folder: the site, a folder with a site mark, or through a symlink to one', async () => {
    const r = await runCli(['enquiries', 'export', '--output', join(dist, 'leak.csv'), ...inbox()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/served/);
    expect(existsSync(join(dist, 'leak.csv'))).toBe(false);
    mkdirSync(join(data.dir, 'links'), { recursive: true });
    symlinkSync(join(dist, 'assets'), join(data.dir, 'links', 'assets'));
    const linked = await runCli(['enquiries', 'export', '--output', join(data.dir, 'links', 'assets', 'leak.json'), ...inbox()]);
    expect(linked.code).toBe(2);
    expect(existsSync(join(dist, 'assets', 'leak.json'))).toBe(false);
    // Another site (a copy being deployed), known by its mark.
    const other = join(data.dir, 'www', 'site');
    mkdirSync(join(other, 'en'), { recursive: true });
    writeFileSync(join(other, '.studio-site.json'), '{}');
    const marked = await runCli(['enquiries', 'export', '--output', join(other, 'en', 'leak.csv'), ...inbox()]);
    expect(marked.code).toBe(2);
    expect(marked.stderr).toMatch(/served on the web/);
    expect(existsSync(join(other, 'en', 'leak.csv'))).toBe(false);
  });
});
