import { afterEach, describe, expect, inject, it } from 'vitest';
import type { ServeEvent } from '../../cli/serve/events.ts';
import { runCli } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { postJson, readSent, readStored, serveSite, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';
import { mailTo, startSmtp, until } from '../helpers/smtp.ts';

const dist = inject('siteDir');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('content serve: e-mail to the studio', () => {
  it('stores enquiries while SMTP is down and e-mails each one exactly once when it is back', async () => {
    const port = await freePort();
    const events: ServeEvent[] = [];
    const data = tempData();
    cleanups.push(data.cleanup);
    const server = await serveSite(dist, {
      data: data.dir,
      mail: mailTo(port),
      log: (e) => events.push(e),
    });
    cleanups.push(() => server.close());

    const hostile = validEnquiry({ name: `Eve <img src=x onerror=alert(1)>\r\nBcc: victim@example.org`, message: '<script>alert("x")</script> & <b>bold</b>' });
    const batch = [hostile, ...Array.from({ length: 4 }, () => validEnquiry({ locale: 'de' }))];
    for (const e of batch) expect((await postJson(server.url, e)).status).toBe(201);
    expect(readStored(data.dir)).toHaveLength(5);
    await until(() => events.filter((e) => e.kind === 'mail-failed').length >= 2);
    expect(readSent(data.dir).size).toBe(0);

    const smtp = await startSmtp(port);
    cleanups.push(smtp.close);
    await until(() => smtp.received.length >= 5);
    await until(() => readSent(data.dir).size === 5);
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up, if there were one
    expect(smtp.received).toHaveLength(5);
    expect(smtp.envelopes.every((to) => to.join() === 'studio@example.org')).toBe(true);

    const ids = readStored(data.dir).map((e) => e.id);
    const mailed = smtp.received.map((m) => Number(/№ (\d+)/.exec(m.text ?? '')?.[1]));
    expect(mailed.sort()).toEqual(ids.sort());
    // One Message-ID per enquiry, made from it: a copy sent again after a crash carries the same one.
    const stored = readStored(data.dir);
    for (const m of smtp.received) {
      const e = stored.find((x) => x.id === Number(/№ (\d+)/.exec(m.text ?? '')?.[1]))!;
      expect(m.messageId).toBe(`<enquiry-${e.id}.${Date.parse(e.receivedAt)}@studio.example>`);
    }

    const evil = smtp.received.find((m) => (m.text ?? '').includes('Eve'))!;
    // The visitor's text: verbatim in the text part, escaped in the HTML part, never a header.
    expect(evil.text).toContain('<script>alert("x")</script> & <b>bold</b>');
    expect(evil.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(evil.html).not.toMatch(/<script|<img|<b>bold/);
    expect(evil.subject).not.toMatch(/[\r\n]/);
    expect(evil.headers.get('bcc')).toBeUndefined();
    expect(evil.replyTo?.text).toBe(hostile.email);
    expect(evil.subject).toMatch(/^Новая заявка с сайта: Eve/);
    expect(evil.text).toContain('Курс: Вокал');
  });

  it('#37 point 6: the e-mail names the phone a visitor gave (text and HTML part), and says there is none when none was given', async () => {
    const port = await freePort();
    const smtp = await startSmtp(port);
    cleanups.push(smtp.close);
    const server = await serveSite(dist, { mail: mailTo(port) });
    cleanups.push(server.stop); // the server and its inbox
    const withPhone = validEnquiry({ name: 'Mit Telefon', phone: '+49 (0)30 123-45/67', locale: 'de' });
    const without = validEnquiry({ name: 'Ohne Telefon', locale: 'de' });
    for (const e of [withPhone, without]) expect((await postJson(server.url, e)).status).toBe(201);
    await until(() => smtp.received.length >= 2);
    const mail = (name: string) => smtp.received.find((m) => (m.text ?? '').includes(`Имя: ${name}`))!;
    expect(mail('Mit Telefon').text).toMatch(/^E-mail: .+\nТелефон: \+49 \(0\)30 123-45\/67\n/m);
    expect(mail('Mit Telefon').html).toContain('<tr><th align="left">Телефон</th><td>+49 (0)30 123-45/67</td></tr>');
    expect(mail('Ohne Telefon').text).toContain('\nТелефон: —\n');
  });

  it('sends after a restart what it still owed when it was stopped', async () => {
    const port = await freePort();
    const data = tempData();
    cleanups.push(data.cleanup);
    const mail = () => mailTo(port, { initialMs: 50, maxMs: 100 });
    const before = await serveSite(dist, { data: data.dir });
    expect((await postJson(before.url, validEnquiry({ name: 'Before' }))).status).toBe(201);
    await before.close();
    const down = await serveSite(dist, { data: data.dir, mail: mail() });
    const e = validEnquiry({ name: 'Owed' });
    expect((await postJson(down.url, e)).status).toBe(201);
    await down.close();

    const smtp = await startSmtp(port);
    cleanups.push(smtp.close);
    const up = await serveSite(dist, { data: data.dir, mail: mail() });
    cleanups.push(() => up.close());
    await until(() => readSent(data.dir).size === 1);
    await new Promise((r) => setTimeout(r, 300));
    // Only the one owed: an enquiry from before e-mail was switched on is not e-mailed after the fact.
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.text).toContain('Имя: Owed');
    expect(readStored(data.dir).map((x) => [x.name, x.notify])).toEqual([
      ['Before', false],
      ['Owed', true],
    ]);
  });

  it('an e-mail the mail server rejects for good (554) is marked failed and never holds back the later ones, across a restart', async () => {
    const port = await freePort();
    // The studio's mail server refuses one message for what the visitor wrote (a spam or virus filter).
    const smtp = await startSmtp(port, (m) =>
      (m.text ?? '').includes('FILTER-BAIT') ? { code: 554, text: '5.7.1 Message rejected: content looks like spam' } : undefined,
    );
    cleanups.push(smtp.close);
    const data = tempData();
    cleanups.push(data.cleanup);
    const mail = () => mailTo(port);
    const events: ServeEvent[] = [];
    const first = await serveSite(dist, { data: data.dir, mail: mail(), log: (e) => events.push(e) });
    for (const name of ['Anna', 'Bait', 'Clara'])
      expect((await postJson(first.url, validEnquiry({ name, message: name === 'Bait' ? 'FILTER-BAIT' : 'Hello' }))).status).toBe(201);
    const names = () => smtp.received.map((m) => /Имя: (\S+)/.exec(m.text ?? '')?.[1]);
    await until(() => names().includes('Anna') && names().includes('Clara'));
    await until(() => events.some((e) => e.kind === 'mail-refused'));
    expect(events.filter((e) => e.kind === 'mail-failed')).toEqual([]); // refused for good: not retried
    await first.close();

    const second = await serveSite(dist, { data: data.dir, mail: mail() });
    cleanups.push(() => second.close());
    expect((await postJson(second.url, validEnquiry({ name: 'Dora' }))).status).toBe(201);
    await until(() => names().includes('Dora'));
    await new Promise((r) => setTimeout(r, 300)); // room for a retry of the rejected one, if there were one
    expect(names().sort()).toEqual(['Anna', 'Clara', 'Dora']);
    expect(smtp.refused).toBe(1); // refused for good: not tried again, not after the restart either

    // The studio sees it, with the mail server's reason.
    const list = await runCli(['enquiries', 'list', '--data', data.dir, '--out', dist, '--format', 'json']);
    const rows = JSON.parse(list.stdout) as { name: string; emailSent: boolean; emailFailed?: string }[];
    expect(rows.find((r) => r.name === 'Bait')).toMatchObject({ emailSent: false, emailFailed: expect.stringMatching(/554.*rejected/) });
    expect(second.inbox.health()).toMatchObject({ ok: true, mail: { failed: 1 } });
    // …and so does anyone watching the server: enquiries are still taken (200), in words why it is degraded.
    const health = await fetch(`${second.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      ok: true,
      status: 'degraded',
      reasons: [expect.stringMatching(/refused one e-mail to the studio for good.*content enquiries resend/)],
      mailFailed: 1,
      retentionDays: expect.any(Number),
    });
  });

  it('a person who sent too fast and then sends the same once more is e-mailed: the enquiry kept aside is taken back, stored once', async () => {
    const port = await freePort();
    const smtp = await startSmtp(port);
    cleanups.push(smtp.close);
    const server = await serveSite(dist, { mail: mailTo(port) });
    cleanups.push(server.stop); // the server and its inbox
    const hasty = validEnquiry({ name: 'Hasty', fillMs: 400 });
    expect((await postJson(server.url, hasty)).status).toBe(201);
    expect(await server.inbox.list()).toEqual([expect.objectContaining({ name: 'Hasty', spam: 'too_fast' })]);
    const again = await postJson(server.url, { ...hasty, fillMs: 9_000 });
    expect(again.status).toBe(200); // the same enquiry: stored once
    await until(() => smtp.received.some((m) => (m.text ?? '').includes('Имя: Hasty')));
    const [only, ...more] = await server.inbox.list();
    expect(more).toEqual([]);
    expect(only).toMatchObject({ name: 'Hasty', notify: true });
    expect(only!.spam).toBeUndefined();
  });

  it('`content serve` takes the SMTP server from STUDIO_SMTP_URL and the recipient from STUDIO_NOTIFY_TO', async () => {
    const port = await freePort();
    const smtp = await startSmtp(port);
    cleanups.push(smtp.close);
    const data = tempData();
    cleanups.push(data.cleanup);
    const server = await spawnServe(['--out', dist, '--data', data.dir], {
      STUDIO_SMTP_URL: `smtp://127.0.0.1:${port}`,
      STUDIO_NOTIFY_TO: 'office@example.org',
    });
    cleanups.push(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    expect(server.output()).toMatch(/E-mail to the studio: on, to office@example\.org/);
    expect((await postJson(server.url, validEnquiry({ name: 'Via env' }))).status).toBe(201);
    await until(() => smtp.received.length === 1);
    expect(smtp.envelopes[0]).toEqual(['office@example.org']);
    expect(smtp.received[0]!.text).toContain('Имя: Via env');
    await until(() => /e-mail for enquiry 1 sent/.test(server.output()));
  });

  it('says why e-mail is off when it is', async () => {
    const data = tempData();
    cleanups.push(data.cleanup);
    const server = await spawnServe(['--out', dist, '--data', data.dir], { STUDIO_SMTP_URL: '', STUDIO_NOTIFY_TO: '' });
    // Issue 36: the health check says so too, in words; enquiries are still taken (200).
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      status: 'degraded',
      reasons: [expect.stringMatching(/^e-mail to the studio is off \(the studio's e-mail address in site.yaml is still a placeholder.*no one is told/)],
    });
    server.child.kill('SIGTERM');
    await server.exited;
    expect(server.output()).toMatch(/E-mail to the studio: off: the studio's e-mail address in site.yaml is still a placeholder/);
  });
});
