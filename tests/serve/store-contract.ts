import { expect, it } from 'vitest';
import { DUPLICATE_WINDOW_MS, EnquiryConflict, type EnquiryStore, type NewEnquiry } from '../../cli/serve/store.ts';

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
      const [first, again] = await Promise.all([store.add(e), store.add({ ...e })]);
      const later = await store.add({ ...e, via: 'form' });
      expect(first.duplicate).toBe(false);
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
      const results = await Promise.allSettled([store.add(f), store.add({ ...f, message: 'changed' })]);
      expect(results[0]!.status).toBe('fulfilled');
      expect(results[1]!.status === 'rejected' && results[1]!.reason instanceof EnquiryConflict).toBe(true);
      expect((await store.list()).map((x) => x.name)).toEqual(['First Person', f.name]);
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
    'refuses enquiries once closed, and says so in health()',
    withStore(async (store) => {
      await store.close();
      expect(store.health().ok).toBe(false);
      await expect(store.add(newEnquiry())).rejects.toThrow();
    }),
  );
}
