import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { postJson, serveSite, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');
let server: Awaited<ReturnType<typeof serveSite>>;
const inbox = () => ['--data', server.data, '--out', dist];

beforeAll(async () => {
  server = await serveSite(dist);
  for (const e of [
    validEnquiry({ name: 'Анна Иванова', course: 'piano', message: 'Можно ли в субботу?\nСпасибо, "Анна"', email: 'anna@example.org', locale: 'ru' }),
    validEnquiry({ name: '=HYPERLINK("http://evil.example","click")', course: 'music', message: '+1 call me, please', email: 'eve@example.org', locale: 'en' }),
    validEnquiry({ name: 'Term\u001b[31mRED\u001b[0m', course: 'chess', message: 'bell\u0007', email: 'term@example.org', locale: 'de' }),
  ])
    expect((await postJson(server.url, e)).status).toBe(201);
});
afterAll(() => server?.stop());

describe('content enquiries', () => {
  it('lists the inbox as a table with the course names, safe for a terminal', async () => {
    const r = await runCli(['enquiries', 'list', ...inbox()]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^#\s+received \(UTC\)\s+name\s+course\s+e-mail\s+lang\s+message$/);
    expect(lines[1]).toMatch(/^1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}Анна Иванова\s+Фортепиано\s+anna@example\.org\s+ru\s+Можно ли в субботу\? Спасибо, "Анна"$/);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
    expect(r.stdout).toContain('Term [31mRED [0m');
    expect(r.stdout).toContain('3 enquiries.');
  });

  it('lists as JSON for programs', async () => {
    const r = await runCli(['enquiries', 'list', '--format', 'json', ...inbox()]);
    const rows = JSON.parse(r.stdout) as { id: number; courseLabel: string; message: string }[];
    expect(rows.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(rows[0]).toMatchObject({ courseLabel: 'Фортепиано', message: 'Можно ли в субботу?\nСпасибо, "Анна"', emailSent: false, via: 'json' });
  });

  it('exports CSV a spreadsheet opens correctly: UTF-8 mark, quoting, and no formulas run', async () => {
    const out = join(server.data, 'export.csv');
    const r = await runCli(['enquiries', 'export', '--format', 'csv', '--output', out, ...inbox()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote 3 enquiries');
    const csv = readFileSync(out, 'utf8');
    expect(csv.startsWith('\uFEFFid,receivedAt,name,course,courseLabel,email,locale,message,page,via,emailSent\r\n')).toBe(true);
    expect(csv).toContain(',Анна Иванова,piano,Фортепиано,anna@example.org,ru,"Можно ли в субботу?\nСпасибо, ""Анна""",/vocal,json,false\r\n');
    expect(csv).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",music,Вокал,`);
    expect(csv).toContain(`,"'+1 call me, please",`);
    // Records end in CRLF; the line break inside a quoted message stays as typed.
    expect(csv.trimEnd().split('\r\n')).toHaveLength(1 + 3);
  });

  it('exports JSON to standard output, and only what came since a date', async () => {
    const all = await runCli(['enquiries', 'export', '--format', 'json', ...inbox()]);
    expect(JSON.parse(all.stdout)).toHaveLength(3);
    const none = await runCli(['enquiries', 'export', '--format', 'json', '--since', '2999-01-01', ...inbox()]);
    expect(JSON.parse(none.stdout)).toEqual([]);
    const bad = await runCli(['enquiries', 'list', '--since', 'yesterday', ...inbox()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a date like 2026-09-01');
  });

  it('says where to look when there is no inbox', async () => {
    const r = await runCli(['enquiries', 'list', '--data', join(server.data, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/there is no enquiry inbox in .*nope/);
    expect(r.stderr).toContain('--data');
  });
});
