import { createTransport } from 'nodemailer';
import { expect, it } from 'vitest';
import type { MailEvent } from '../../cli/serve/mail/outbox.ts';
import { outboxFor } from '../../cli/serve/mail/outboxes.ts';
import type { EnquiryManifest } from '../../cli/serve/manifest.ts';
import { optionsMemory } from '../../cli/serve/store/options-memory.ts';
import { DUPLICATE_WINDOW_MS, EnquiryConflict, type EnquiryStore, type NewEnquiry } from '../../cli/serve/store/store.ts';
import { freePort } from '../helpers/free-port.ts';
import { startSmtp, until } from '../helpers/smtp.ts';

/** A store under test: `open` opens the same store again (after `close`), as a restarted server would. */
export interface StoreFixture {
  open(): Promise<EnquiryStore>;
  cleanup(): Promise<void> | void;
}

let n = 0;
export function newEnquiry(overrides: Partial<NewEnquiry> = {}): NewEnquiry {
  n++;
  return {
    name: `Visitor ${n}`,
    course: 'music',
    message: `Enquiry number ${n}`,
    email: `visitor${n}@example.org`,
    locale: 'ru',
    page: '/vocal',
    idempotencyKey: `contract${n}x${Math.random().toString(36).slice(2, 10)}`,
    via: 'json',
    notify: false,
    ...overrides,
  };
}

/** What every enquiry store promises (the file inbox now, PostgreSQL later). Call inside a describe(). */
export function storeContract(make: () => Promise<StoreFixture>): void {
  const withStore = (test: (store: EnquiryStore, fixture: StoreFixture) => Promise<void>) => async () => {
    const fixture = await make();
    const store = await fixture.open();
    try {
      await test(store, fixture);
    } finally {
      await store.close();
      await fixture.cleanup();
    }
  };

  it(
    'gives ids 1, 2, 3… and lists what it stored, oldest first',
    withStore(async (store) => {
      expect(store.health()).toMatchObject({ ok: true });
      const a = await store.add(newEnquiry({ name: 'A' }));
      const b = await store.add(newEnquiry({ name: 'B' }));
      expect([a.enquiry.id, b.enquiry.id, a.duplicate, b.duplicate]).toEqual([1, 2, false, false]);
      expect((await store.list()).map((e) => [e.id, e.name])).toEqual([
        [1, 'A'],
        [2, 'B'],
      ]);
    }),
  );

  it(
    'stores a resubmission with the same idempotency key once',
    withStore(async (store) => {
      const e = newEnquiry();
      // Sent twice at once: one of them is stored (with several connections, either may come first), the other is it.
      const both = await Promise.all([store.add(e), store.add({ ...e })]);
      const first = both.find((r) => !r.duplicate)!;
      const again = both.find((r) => r !== first)!;
      const later = await store.add({ ...e, via: 'form' });
      expect(both.filter((r) => !r.duplicate)).toHaveLength(1);
      expect([again.duplicate, again.enquiry.id, later.duplicate, later.enquiry.id]).toEqual([true, first.enquiry.id, true, first.enquiry.id]);
      expect(await store.list()).toHaveLength(1);
    }),
  );

  it(
    'refuses an idempotency key reused with different content (EnquiryConflict), and keeps the first',
    withStore(async (store) => {
      const e = newEnquiry({ name: 'First Person', message: 'first' });
      await store.add(e);
      await expect(store.add({ ...e, name: 'Someone Else', message: 'second' })).rejects.toBeInstanceOf(EnquiryConflict);
      // Also while the first is still being written.
      const f = newEnquiry();
      const g = { ...f, name: `${f.name} changed`, message: 'changed' };
      const results = await Promise.allSettled([store.add(f), store.add(g)]);
      // Whichever claimed the key first is stored; the other is refused.
      const kept = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.enquiry.name] : []));
      expect(kept).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof EnquiryConflict)).toHaveLength(1);
      expect((await store.list()).map((x) => x.name)).toEqual(['First Person', kept[0]]);
    }),
  );

  it(
    'stores identical enquiries within the window once, with or without a key (a no-JS form sent twice)',
    withStore(async (store) => {
      const t0 = new Date('2026-11-23T10:00:00Z');
      const form = newEnquiry({ idempotencyKey: undefined, via: 'form' });
      const first = await store.add(form, t0);
      const twice = await store.add({ ...form }, new Date(t0.getTime() + 60_000));
      const withKey = await store.add({ ...form, via: 'json', idempotencyKey: 'anotherkey123' }, new Date(t0.getTime() + 120_000));
      expect([twice.duplicate, twice.enquiry.id, withKey.duplicate, withKey.enquiry.id]).toEqual([true, first.enquiry.id, true, first.enquiry.id]);
      // Sent at the same moment, several times: stored once.
      const burst = newEnquiry({ idempotencyKey: undefined });
      const all = await Promise.all(Array.from({ length: 5 }, () => store.add({ ...burst }, t0)));
      expect(new Set(all.map((r) => r.enquiry.id)).size).toBe(1);
      expect(all.filter((r) => !r.duplicate)).toHaveLength(1);
      // A different enquiry from the same person is a new one; the same one after the window too.
      expect((await store.add({ ...form, message: 'something else' }, t0)).duplicate).toBe(false);
      const after = await store.add({ ...form }, new Date(t0.getTime() + DUPLICATE_WINDOW_MS + 1));
      expect(after.duplicate).toBe(false);
      expect(await store.list()).toHaveLength(4);
    }),
  );

  it(
    "remembers the form's options of the build served and of the one before it across a restart (a publish renamed a course)",
    withStore(async (store, fixture) => {
      const option = (value: string) => ({ value, label: value, labels: { ru: value, en: value, de: value } });
      const memory = await optionsMemory(store);
      expect(memory.recall()).toBeUndefined();
      memory.remember({ current: [option('music')], before: [] });
      memory.remember({ current: [option('rhythm')], before: [option('logorhythmics')] });
      await store.close();
      const again = await fixture.open();
      try {
        expect((await optionsMemory(again)).recall()).toEqual({ current: [option('rhythm')], before: [option('logorhythmics')] });
      } finally {
        await again.close();
      }
    }),
  );

  it(
    'after a restart goes on with the next id and still knows keys and recent enquiries',
    withStore(async (store, fixture) => {
      const keyed = newEnquiry();
      const plain = newEnquiry({ idempotencyKey: undefined });
      await store.add(keyed);
      await store.add(plain);
      await store.close();
      const again = await fixture.open();
      try {
        expect((await again.add({ ...keyed })).enquiry.id).toBe(1);
        await expect(again.add({ ...keyed, message: 'other' })).rejects.toBeInstanceOf(EnquiryConflict);
        expect(await again.add({ ...plain })).toMatchObject({ duplicate: true, enquiry: { id: 2 } });
        expect((await again.add(newEnquiry())).enquiry.id).toBe(3);
      } finally {
        await again.close();
      }
    }),
  );

  it(
    'keeps an optional phone with its enquiry, across a restart; without one there is none; a phone alone does not make the same text another enquiry',
    withStore(async (store, fixture) => {
      const t0 = new Date('2026-11-23T10:00:00Z');
      const withPhone = await store.add(newEnquiry({ phone: '+49 (0)30 123-45/67', idempotencyKey: undefined }), t0);
      const without = await store.add(newEnquiry({ idempotencyKey: undefined }), t0);
      expect(withPhone.enquiry.phone).toBe('+49 (0)30 123-45/67');
      expect(without.enquiry).not.toHaveProperty('phone');
      // The same person sending the same text again, this time with a phone: the enquiry they sent.
      const { id: _id, receivedAt: _at, ...sent } = without.enquiry;
      const again = await store.add({ ...sent, phone: '8 900 123.45.67' }, new Date(t0.getTime() + 60_000));
      expect([again.duplicate, again.enquiry.id]).toEqual([true, without.enquiry.id]);
      await store.close();
      const reopened = await fixture.open();
      try {
        const listed = await reopened.list();
        expect(listed.map((e) => e.phone)).toEqual(['+49 (0)30 123-45/67', undefined]);
        expect(Object.keys(listed[0]!)).toContain('phone');
        expect(Object.keys(listed[1]!)).not.toContain('phone');
        expect((await reopened.listWithMail())[0]).toMatchObject({ phone: '+49 (0)30 123-45/67' });
      } finally {
        await reopened.close();
      }
    }),
  );

  it(
    'refuses enquiries once closed, and says so in health()',
    withStore(async (store) => {
      await store.close();
      expect(store.health().ok).toBe(false);
      await expect(store.add(newEnquiry())).rejects.toThrow();
    }),
  );
}

/** What the e-mail to the studio needs of a built site, no more. */
const MANIFEST = {
  options: [{ value: 'music', label: 'Вокал' }],
  notify: { subject: { ru: 'Новая заявка' } },
  baseUrl: 'https://studio.example',
} as unknown as EnquiryManifest;

const nameIn = (m: { text?: string }) => /Имя: (\S+)/.exec(m.text ?? '')?.[1];

/**
 * What every store promises about the e-mail to the studio, with a real SMTP server: each
 * e-mail its own job, a refusal for good marked and never holding back another, across a
 * restart. Call inside a describe().
 */
export function mailContract(make: () => Promise<StoreFixture>): void {
  const mailTo = (port: number, onEvent?: (e: MailEvent) => void) => ({
    manifest: MANIFEST,
    mailer: createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }),
    to: 'studio@example.org',
    from: 'website@example.org',
    retry: { initialMs: 50, maxMs: 200 },
    pollMs: 50,
    onEvent,
  });

  it('marks an e-mail the mail server refuses for good (554) failed with its reply, sends every other one, also after a restart; resend sends it', async () => {
    const fixture = await make();
    const port = await freePort();
    let filter = true;
    const smtp = await startSmtp(port, (m) =>
      filter && (m.text ?? '').includes('FILTER-BAIT') ? { code: 554, text: '5.7.1 Rejected by the content filter' } : undefined,
    );
    const events: MailEvent[] = [];
    let store = await fixture.open();
    let outbox = outboxFor(
      store,
      mailTo(port, (e) => events.push(e)),
    );
    try {
      for (const name of ['Anna', 'Bait', 'Clara']) {
        const { enquiry } = await store.add(newEnquiry({ name, message: name === 'Bait' ? 'FILTER-BAIT' : 'Hello', notify: true }));
        outbox.push(enquiry);
      }
      await until(async () => (await store.listWithMail()).every((e) => e.mail.state !== 'owed'));
      expect(smtp.received.map(nameIn).sort()).toEqual(['Anna', 'Clara']);
      expect(events.filter((e) => e.kind === 'refused')).toHaveLength(1);
      const bait = (await store.listWithMail()).find((e) => e.name === 'Bait')!;
      expect(bait.mail).toMatchObject({ state: 'failed', error: expect.stringMatching(/554.*content filter/) });
      await until(() => store.health().mail?.failed === 1 && store.health().mail?.oldestOwedAt === undefined);

      await outbox.close();
      await store.close();
      store = await fixture.open();
      outbox = outboxFor(store, mailTo(port));
      const { enquiry: dora } = await store.add(newEnquiry({ name: 'Dora', notify: true }));
      outbox.push(dora);
      await until(() => smtp.received.length === 3);
      await new Promise((r) => setTimeout(r, 300)); // room for a retry of the refused one, if there were one
      expect(smtp.received.map(nameIn)).toEqual([expect.any(String), expect.any(String), 'Dora']);
      expect(smtp.refused).toBe(1);

      filter = false; // the studio let it through its filter
      expect(await store.resend(bait.id)).toBe('done');
      expect(await store.resend(bait.id)).toBe('not-applicable'); // owed now, not failed
      expect(await store.resend(dora.id)).toBe('not-applicable');
      expect(await store.resend(9999)).toBe('not-found');
      await until(() => smtp.received.length === 4);
      expect(nameIn(smtp.received[3]!)).toBe('Bait');
      await until(async () => (await store.listWithMail()).every((e) => e.mail.state === 'sent'));
      await until(() => store.health().mail?.failed === 0);
    } finally {
      await outbox.close();
      await store.close();
      await smtp.close();
      await fixture.cleanup();
    }
  });

  it('tries again, with backoff, an e-mail the mail server defers (451), while the others go out', async () => {
    const fixture = await make();
    const port = await freePort();
    let deferrals = 0;
    const smtp = await startSmtp(port, (m) => ((m.text ?? '').includes('SLOW') && deferrals++ < 2 ? { code: 451, text: '4.7.1 Try again later' } : undefined));
    const events: MailEvent[] = [];
    const store = await fixture.open();
    const outbox = outboxFor(
      store,
      mailTo(port, (e) => events.push(e)),
    );
    try {
      for (const name of ['Slow', 'Quick'])
        outbox.push((await store.add(newEnquiry({ name, message: name === 'Slow' ? 'SLOW' : 'hi', notify: true }))).enquiry);
      await until(() => smtp.received.length === 2);
      expect(smtp.received.map(nameIn)).toEqual(['Quick', 'Slow']);
      expect(events.filter((e) => e.kind === 'failed').map((e) => e.kind === 'failed' && e.retryInMs)).toEqual([50, 100]);
      await until(async () => (await store.listWithMail()).every((e) => e.mail.state === 'sent'));
    } finally {
      await outbox.close();
      await store.close();
      await smtp.close();
      await fixture.cleanup();
    }
  });

  it('never sends the e-mail of an enquiry erased while its e-mail was still owed', async () => {
    const fixture = await make();
    const port = await freePort(); // no mail server there yet: the e-mails wait
    const events: MailEvent[] = [];
    const store = await fixture.open();
    const outbox = outboxFor(
      store,
      mailTo(port, (e) => events.push(e)),
    );
    let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      const { enquiry: erased } = await store.add(newEnquiry({ name: 'Erased', notify: true }));
      outbox.push(erased);
      outbox.push((await store.add(newEnquiry({ name: 'Kept', notify: true }))).enquiry);
      await until(() => events.filter((e) => e.kind === 'failed').length >= 2);
      expect(await store.erase([erased.id], 'on request')).toEqual([erased.id]);
      smtp = await startSmtp(port);
      await until(async () => (await store.listWithMail()).every((e) => e.mail.state === 'sent'));
      await new Promise((r) => setTimeout(r, 300)); // room for the erased one, if it were sent
      expect(smtp.received.map(nameIn)).toEqual(['Kept']);
    } finally {
      await outbox.close();
      await store.close();
      await smtp?.close();
      await fixture.cleanup();
    }
  });

  it('keeps suspected spam aside without e-mailing it; restore takes it back and queues its e-mail', async () => {
    const fixture = await make();
    const port = await freePort();
    const smtp = await startSmtp(port);
    const store = await fixture.open();
    const outbox = outboxFor(store, mailTo(port));
    try {
      const { enquiry: spam } = await store.add(newEnquiry({ name: 'Fast', notify: false, spam: 'too_fast' }));
      outbox.push(spam);
      outbox.push((await store.add(newEnquiry({ name: 'Normal', notify: true }))).enquiry);
      await until(async () => (await store.listWithMail())[1]?.mail.state === 'sent');
      expect((await store.listWithMail()).map((e) => [e.name, e.spam, e.mail.state])).toEqual([
        ['Fast', 'too_fast', 'none'],
        ['Normal', undefined, 'sent'],
      ]);
      expect(await store.restore(spam.id)).toBe('done');
      expect(await store.restore(spam.id)).toBe('not-applicable');
      expect(await store.restore(9999)).toBe('not-found');
      await until(() => smtp.received.length === 2);
      expect(nameIn(smtp.received[1]!)).toBe('Fast');
      const restored = (await store.list()).find((e) => e.id === spam.id)!;
      expect([restored.spam, restored.notify]).toEqual([undefined, true]);
    } finally {
      await outbox.close();
      await store.close();
      await smtp.close();
      await fixture.cleanup();
    }
  });
}

/** What every store promises about personal data: erasure and the retention period. Call inside a describe(). */
export function personalDataContract(make: () => Promise<StoreFixture>): void {
  const withStore = (test: (store: EnquiryStore, fixture: StoreFixture) => Promise<void>) => async () => {
    const fixture = await make();
    const store = await fixture.open();
    try {
      await test(store, fixture);
    } finally {
      await store.close();
      await fixture.cleanup();
    }
  };

  it(
    'erases enquiries with every trace: their e-mail jobs, idempotency keys and duplicate window; ids are not given again',
    withStore(async (store, fixture) => {
      const anna = newEnquiry({ name: 'Anna', email: 'Anna@Example.org', notify: true });
      const boris = newEnquiry({ name: 'Boris', notify: true });
      const a = await store.add(anna);
      await store.add(boris);
      const dupe = await store.add({ ...anna, idempotencyKey: 'secondkeyofanna1' }); // a second key naming Anna's enquiry
      expect(dupe.duplicate).toBe(true);
      expect(await store.erase([a.enquiry.id, 777], 'on request')).toEqual([a.enquiry.id]);
      expect((await store.listWithMail()).map((e) => [e.name, e.mail.state])).toEqual([['Boris', 'owed']]);
      expect(await store.erase([a.enquiry.id], 'again')).toEqual([]);
      // Nothing of Anna's is remembered: her key and her fields are new again, with a new id.
      const again = await store.add({ ...anna });
      expect([again.duplicate, again.enquiry.id]).toEqual([false, 3]);
      expect((await store.add({ ...anna, idempotencyKey: 'secondkeyofanna1', message: 'other' })).duplicate).toBe(false);
      await store.close();
      const reopened = await fixture.open();
      try {
        expect((await reopened.list()).map((e) => e.id)).toEqual([2, 3, 4]);
        expect((await reopened.add(newEnquiry())).enquiry.id).toBe(5);
        await until(() => reopened.health().mail?.oldestOwedAt !== undefined);
        expect(reopened.health().mail?.oldestOwedAt).toBe((await reopened.list())[0]!.receivedAt);
      } finally {
        await reopened.close();
      }
    }),
  );

  it(
    'loses no enquiry that arrives while it erases',
    withStore(async (store) => {
      const target = await store.add(newEnquiry({ name: 'Target' }));
      for (let i = 0; i < 20; i++) await store.add(newEnquiry());
      const arriving = Array.from({ length: 40 }, () => newEnquiry());
      const [erased, ...added] = await Promise.all([store.erase([target.enquiry.id], 'on request'), ...arriving.map((e) => store.add(e))]);
      expect(erased).toEqual([target.enquiry.id]);
      const ids = new Set((await store.list()).map((e) => e.id));
      expect(ids.size).toBe(60);
      for (const r of added) expect(ids.has(r.enquiry.id)).toBe(true);
    }),
  );

  it(
    'deletes what is older than the retention period, and remembers the period',
    withStore(async (store) => {
      const t0 = new Date('2026-01-10T10:00:00Z');
      const old = newEnquiry({ name: 'Old', notify: true });
      await store.add(old, t0);
      await store.add(newEnquiry({ name: 'New' }), new Date('2026-06-01T10:00:00Z'));
      expect(await store.retention()).toBeUndefined();
      await store.setRetention(90);
      expect(await store.retention()).toBe(90);
      await until(() => store.health().retentionDays === 90);
      expect(await store.eraseOlderThan(new Date('2026-03-01T00:00:00Z'), 'kept longer than 90 days')).toEqual([1]);
      expect((await store.listWithMail()).map((e) => e.name)).toEqual(['New']);
      expect((await store.add({ ...old }, new Date('2026-06-01T10:01:00Z'))).duplicate).toBe(false); // its key went with it
    }),
  );
}
