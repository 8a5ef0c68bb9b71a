// Issue #37 point 6: an optional phone number, stored, shown, exported and checked like the
// other fields (the SQLite store here; the store contract runs the same for PostgreSQL).

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DATABASE_FILE, MIGRATIONS } from '../../cli/serve/store/sqlite-schema.ts';
import { SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import { runCli } from '../helpers/cli.ts';
import { postJson, serveSite, tempData, validEnquiry } from '../helpers/serve.ts';
import { newEnquiry } from './store-contract.ts';

const dist = inject('siteDir');
let server: Awaited<ReturnType<typeof serveSite>>;

beforeAll(async () => {
  server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
});
afterAll(() => server?.stop());

const inbox = () => ['--data', server.data, '--out', dist];

function postForm(fields: Record<string, string>) {
  return fetch(`${server.url}/api/enquiry`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

describe('#37 point 6: the phone field through the SQLite store', () => {
  it('a phone sent with the form is stored, shown by show --email, listed and exported (CSV and JSON); an enquiry without one is fine', async () => {
    const withPhone = await postJson(server.url, validEnquiry({ email: 'phone.parent@example.org', phone: ' +49 (0)30 123-45/67 ' }));
    expect(withPhone.status).toBe(201);
    // The plain form sends the empty field: no phone, not an empty one.
    const plain = await postForm({ name: 'Ohne Telefon', course: 'music', message: '', email: 'no.phone@example.org', phone: '', locale: 'de' });
    expect(plain.status).toBe(303);
    const json = await postJson(server.url, validEnquiry({ email: 'json.nophone@example.org' }));
    expect(json.status).toBe(201);

    const show = await runCli(['enquiries', 'show', '--email', 'phone.parent@example.org', '--data', server.data]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^ {2}phone +\+49 \(0\)30 123-45\/67$/m);
    const shownWithout = await runCli(['enquiries', 'show', '--email', 'no.phone@example.org', '--data', server.data]);
    expect(shownWithout.stdout).toMatch(/^ {2}phone +—$/m);

    const list = await runCli(['enquiries', 'list', ...inbox()]);
    expect(list.stdout.split('\n')[0]).toMatch(/e-mail +phone +lang/);
    expect(list.stdout).toContain('+49 (0)30 123-45/67');

    const csv = await runCli(['enquiries', 'export', '--format', 'csv', ...inbox()]);
    const [head, ...lines] = csv.stdout.replace(/^\uFEFF/, '').split('\r\n');
    const columns = head!.split(';');
    const phoneOf = (email: string) => lines.find((l) => l.includes(email))?.split(';')[columns.indexOf('phone')];
    expect(columns).toContain('phone');
    // A leading + is a formula to a spreadsheet: the export's rule for every cell keeps it text.
    expect(phoneOf('phone.parent@example.org')).toBe("'+49 (0)30 123-45/67");
    expect(phoneOf('no.phone@example.org')).toBe('');

    const exported = JSON.parse((await runCli(['enquiries', 'export', '--format', 'json', ...inbox()])).stdout) as Record<string, unknown>[];
    expect(exported.find((e) => e.email === 'phone.parent@example.org')).toMatchObject({ phone: '+49 (0)30 123-45/67' });
    expect(exported.find((e) => e.email === 'no.phone@example.org')).not.toHaveProperty('phone');
  });

  it('a malformed phone is answered 422 with the message of the visitor’s language, tied to the field', async () => {
    for (const phone of ['call me maybe', '12', '+49 30 1234567890123456789012345']) {
      const res = await postJson(server.url, validEnquiry({ phone, locale: 'de' }));
      expect(res.status, phone).toBe(422);
      const body = (await res.json()) as { errors: Record<string, string> };
      expect(Object.keys(body.errors)).toEqual(['phone']);
      expect(body.errors.phone).toMatch(phone.length > 30 ? /^Höchstens 30 Zeichen$/ : /^Bitte geben Sie die Nummer in Ziffern an/);
    }
    const ru = (await (await postJson(server.url, validEnquiry({ phone: 'звоните', locale: 'ru' }))).json()) as { errors: Record<string, string> };
    expect(ru.errors.phone).toMatch(/^Укажите номер цифрами/);

    // Without JavaScript: the form again, the number as typed, its error beside it.
    const page = await postForm({ name: 'Anna', course: 'music', message: '', email: 'anna@example.org', phone: 'abc<1>', locale: 'en' });
    expect(page.status).toBe(422);
    const html = await page.text();
    expect(html).toContain(
      '<input id="again-phone" name="phone" aria-invalid="true" aria-describedby="again-phone-error" type="tel" autocomplete="tel" value="abc&lt;1&gt;">',
    );
    expect(html).toMatch(/<p class="field-error" id="again-phone-error">Please enter the number in digits[^<]*<\/p>/);
    expect(html).toContain('<label for="again-phone">Phone (optional)</label>');
    expect(html).toContain('<li><b>Phone (optional)</b>: Please enter the number in digits');
  });
});

describe('#37 point 6: a SQLite database made before the phone field', () => {
  it('gets the phone column when opened, and keeps its enquiries', async () => {
    const data = tempData();
    try {
      const old = new DatabaseSync(join(data.dir, DATABASE_FILE));
      old.exec(MIGRATIONS[0]!);
      old.exec('PRAGMA user_version = 1');
      old.exec(
        `INSERT INTO enquiries (received_at, name, course, message, email, locale, via, notify, content_hash, email_fold)
         VALUES ('2026-12-01T10:00:00.000Z', 'Old', 'music', '', 'old@example.org', 'ru', 'json', 0, 'h', 'old@example.org')`,
      );
      old.close();
      const store = await SqliteStore.open(data.dir);
      try {
        await store.add(newEnquiry({ phone: '030 1234567' }));
        expect((await store.list()).map((e) => [e.name, e.phone])).toEqual([
          ['Old', undefined],
          [expect.stringMatching(/^Visitor/), '030 1234567'],
        ]);
      } finally {
        await store.close();
      }
    } finally {
      data.cleanup();
    }
  });
});
