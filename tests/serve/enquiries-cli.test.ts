import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import { runCli } from '../helpers/cli.ts';
import { tempData } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

const dist = inject('siteDir');
let data: ReturnType<typeof tempData>;
const inbox = () => ['--data', data.dir, '--out', dist];

/** What a hostile visitor types to act on a staff member's terminal: clear screen, window title, a hidden link, C1 CSI, a bidi override. */
const TERMINAL_ATTACKS = {
  name: 'Term\u001b[31mRED\u001b[0m\u001b[2J',
  message:
    'title\u001b]0;pwned\u0007 link \u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\ csi\u009b2J bidi \u202Egnp.exe\u202C bell\u0007 del\u007f',
};
/** Cells a spreadsheet would evaluate, some hidden behind blanks or a line break. */
const FORMULAS = [
  '=HYPERLINK("http://evil.example","click")',
  '+1 call me, please',
  ' =1+1',
  '\u00a0=1+1',
  '\u3000@SUM(A1)',
  'fine\n=1+1',
  '\t=1',
  '\r=1',
  '-2+3',
];

const RAW_UNSAFE = /(?!\n)[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

beforeAll(async () => {
  data = tempData();
  const store = await SqliteStore.open(data.dir);
  const t0 = new Date('2026-11-20T10:00:00Z');
  const add = (e: Parameters<typeof store.add>[0], minutes: number) => store.add(e, new Date(t0.getTime() + minutes * 60_000));
  await add(newEnquiry({ name: 'Анна Иванова', course: 'piano', message: 'Можно ли в субботу?\nСпасибо, "Анна"', email: 'anna@example.org', locale: 'ru' }), 0);
  await add(newEnquiry({ name: FORMULAS[0]!, course: 'music', message: FORMULAS[1]!, email: 'eve@example.org', locale: 'en' }), 1);
  await add(newEnquiry({ ...TERMINAL_ATTACKS, course: 'chess', email: 'term@example.org', locale: 'de' }), 2);
  for (const [i, f] of FORMULAS.slice(2).entries()) await add(newEnquiry({ name: `Formula ${i}`, message: f, email: `f${i}@example.org` }), 3 + i);
  await store.close();
});
afterAll(() => data?.cleanup());

describe('content enquiries', () => {
  it('lists the inbox as a table with the course names, safe for a terminal', async () => {
    const r = await runCli(['enquiries', 'list', ...inbox()]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^#\s+received \(UTC\)\s+name\s+course\s+e-mail\s+phone\s+lang\s+message$/);
    expect(lines[1]).toMatch(/^ 1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}Анна Иванова\s+Фортепиано\s+anna@example\.org\s+ru\s+Можно ли в субботу\? Спасибо, "Анна"$/);
    expect(r.stdout).not.toMatch(RAW_UNSAFE);
    // Escaped visibly, so staff see that something was hidden there.
    expect(r.stdout).toContain('Term\\u001B[31mRED\\u001B[0m\\…'); // cut to the column's width
    expect(r.stdout).toContain('title\\u001B]0;pwned\\u0007 link \\u001B]8;;http://evil.exampl…');
    expect(r.stdout).toContain('10 enquiries.');
  });

  it('lists as JSON for programs, with control and bidi characters as \\u escapes that parse back to what was typed', async () => {
    const r = await runCli(['enquiries', 'list', '--format', 'json', ...inbox()]);
    expect(r.stdout).not.toMatch(RAW_UNSAFE);
    expect(r.stdout).toContain('\\u009B2J bidi \\u202Egnp.exe\\u202C');
    const rows = JSON.parse(r.stdout) as { id: number; courseLabel: string; name: string; message: string }[];
    expect(rows.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows[0]).toMatchObject({ courseLabel: 'Фортепиано', message: 'Можно ли в субботу?\nСпасибо, "Анна"', emailSent: false, via: 'json' });
    expect(rows[2]).toMatchObject(TERMINAL_ATTACKS);
  });

  it('exports CSV a spreadsheet opens correctly: UTF-8 mark, quoting, and no formulas run', async () => {
    const out = join(data.dir, 'export.csv');
    const r = await runCli(['enquiries', 'export', '--format', 'csv', '--output', out, ...inbox()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote 10 enquiries');
    const csv = readFileSync(out, 'utf8');
    // Semicolons: what Excel in a German locale splits at (see SEPARATOR in cli/commands/enquiries.ts).
    expect(csv.startsWith('\uFEFFid;receivedAt;name;course;courseLabel;email;phone;locale;message;page;via;emailSent\r\n')).toBe(true);
    expect(csv).toContain(';Анна Иванова;piano;Фортепиано;anna@example.org;;ru;"Можно ли в субботу?\nСпасибо, ""Анна""";/vocal;json;false\r\n');
    expect(csv).toContain(`;"'=HYPERLINK(""http://evil.example"",""click"")";music;Вокал;`);
    expect(csv).toContain(`;'+1 call me, please;`);
    // Every other formula, also behind a blank, an NBSP, an ideographic space or a line break.
    for (const [i, cell] of [`' =1+1`, `'\u00a0=1+1`, `'\u3000@SUM(A1)`, `"fine\n'=1+1"`, `'\t=1`, `"'\r=1"`, `'-2+3`].entries())
      expect(csv).toContain(`;Formula ${i};music;Вокал;f${i}@example.org;;ru;${cell};`);
    // The file keeps what the visitor typed otherwise.
    expect(csv).toContain(TERMINAL_ATTACKS.name);
  });

  it('never replaces a file with --output: exit 2, and the file keeps its bytes', async () => {
    const out = join(data.dir, 'kept.csv');
    writeFileSync(out, 'my own spreadsheet');
    const r = await runCli(['enquiries', 'export', '--output', out, ...inbox()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --output .*kept\.csv already exists/m);
    expect(readFileSync(out, 'utf8')).toBe('my own spreadsheet');
  });

  it('exports CSV and JSON to a terminal without raw control or bidi characters', async () => {
    const onTerminal = async (argv: string[]) => {
      let stdout = '';
      const code = await main(argv, { out: (t) => (stdout += `${t}\n`), err: () => {}, isTTY: true, stdoutIsTTY: true, color: false });
      return { code, stdout };
    };
    const csv = await onTerminal(['enquiries', 'export', '--format', 'csv', ...inbox()]);
    expect(csv.code).toBe(0);
    expect(csv.stdout.replaceAll('\r\n', '\n')).not.toMatch(RAW_UNSAFE);
    expect(csv.stdout).toContain('Term\\u001B[31mRED\\u001B[0m\\u001B[2J');
    expect(csv.stdout).toContain(`"fine\n'=1+1"`);
    const json = await onTerminal(['enquiries', 'export', '--format', 'json', ...inbox()]);
    expect(json.stdout).not.toMatch(RAW_UNSAFE);
    expect((JSON.parse(json.stdout) as unknown[])[2]).toMatchObject(TERMINAL_ATTACKS);
  });

  it('exports only what came since a date', async () => {
    const none = await runCli(['enquiries', 'export', '--format', 'json', '--since', '2999-01-01', ...inbox()]);
    expect(JSON.parse(none.stdout)).toEqual([]);
    const bad = await runCli(['enquiries', 'list', '--since', 'yesterday', ...inbox()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a real date written YYYY-MM-DD');
    // Not a day of the calendar: refused, not read as the 2nd of March.
    const impossible = await runCli(['enquiries', 'list', '--since', '2026-02-30', ...inbox()]);
    expect(impossible.code).toBe(2);
    expect(impossible.stderr).toMatch(/^error: --since .*\nhint: /);
    const all = await runCli(['enquiries', 'export', '--format', 'json', '--since', '2000-01-01', ...inbox()]);
    expect((JSON.parse(all.stdout) as unknown[]).length).toBe(10);
  });

  it('says where to look when there is no inbox', async () => {
    const r = await runCli(['enquiries', 'list', '--data', join(data.dir, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/there are no enquiries in .*nope/);
    expect(r.stderr).toContain('--data');
  });
});
