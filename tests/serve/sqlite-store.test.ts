import { describe, expect, it } from 'vitest';
import { SqliteStore, SWEEP_SQL } from '../../cli/serve/store/sqlite-store.ts';
import { tempData } from '../helpers/serve.ts';
import { mailContract, newEnquiry, personalDataContract, storeContract } from './store-contract.ts';

const sqlite = async () => {
  const data = tempData();
  return { open: async () => SqliteStore.open(data.dir), cleanup: data.cleanup };
};

describe('the SQLite store keeps the enquiry store contract', () => {
  storeContract(sqlite);
});
describe('the SQLite store keeps the e-mail contract', () => {
  mailContract(sqlite);
});
describe('the SQLite store keeps the personal data contract', () => {
  personalDataContract(sqlite);
});

describe('show --email and erase --id on SQLite read by index (issue 36)', () => {
  /** Every statement the store prepares while `work` runs, with its query plan (EXPLAIN QUERY PLAN, each parameter 1). */
  async function plansOf(store: SqliteStore, work: () => Promise<unknown>): Promise<Record<string, string[]>> {
    const db = store.db;
    const seen: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      await work();
    } finally {
      db.prepare = prepare;
    }
    const plans: Record<string, string[]> = {};
    for (const sql of seen.filter((s) => !/^\s*PRAGMA/.test(s)))
      plans[sql.replace(/\s+/g, ' ').trim()] = (
        prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from(sql.matchAll(/\?/g), () => 1)) as { detail: string }[]
      ).map((r) => r.detail);
    return plans;
  }

  it('finds one address and erases one enquiry without reading a whole table of enquiries, keys, the duplicate window or e-mail jobs', async () => {
    const data = tempData();
    const store = await SqliteStore.open(data.dir);
    try {
      await Promise.all(Array.from({ length: 30 }, (_, i) => store.add(newEnquiry({ email: `person${i}@example.org`, name: `Person ${i}`, notify: true }))));
      const found = await plansOf(store, () => store.find({ email: 'PERSON7@example.org' }));
      const byId = await plansOf(store, () => store.find({ ids: [20, 21] }));
      const erased = await plansOf(store, () => store.erase([20], 'test'));
      expect(Object.values(found)).toEqual([['SEARCH e USING INDEX enquiries_email (email_fold=?)', 'SEARCH m USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN']]);
      expect(Object.values(byId)).toEqual([['SEARCH e USING INTEGER PRIMARY KEY (rowid=?)', 'SEARCH m USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN']]);
      const erasing = Object.entries(erased)
        .filter(([sql]) => sql.startsWith('DELETE'))
        .map(([, plan]) => plan);
      expect(erasing).toEqual([
        ['SEARCH enquiry_keys USING INDEX enquiry_keys_enquiry (enquiry_id=?)'],
        ['SEARCH enquiry_recent USING INDEX enquiry_recent_enquiry (enquiry_id=?)'],
        ['SEARCH enquiry_mail USING INTEGER PRIMARY KEY (rowid=?)'],
        ['SEARCH enquiries USING INTEGER PRIMARY KEY (rowid=?)'],
        ['SEARCH damaged USING INDEX damaged_enquiry (enquiry_id=?)'],
      ]);
      expect(Object.values(await plansOf(store, () => store.damaged({ ids: [20] })))).toEqual([['SEARCH damaged USING INDEX damaged_enquiry (enquiry_id=?)']]);
      for (const plan of [...Object.values(found), ...Object.values(byId), ...Object.values(erased)]) for (const d of plan) expect(d).not.toMatch(/^SCAN/);
      // And they did what they say.
      expect((await store.find({ email: 'person7@EXAMPLE.org' })).map((e) => e.name)).toEqual(['Person 7']);
      expect([store.count(), (await store.find({ ids: [20] })).length]).toEqual([29, 0]);
    } finally {
      await store.close();
      data.cleanup();
    }
  });
});

describe('the hourly retention sweep on SQLite (issue 36)', () => {
  it('finds what expired by an index on its time, never by reading a whole table (EXPLAIN QUERY PLAN of each of its statements)', async () => {
    const data = tempData();
    const store = await SqliteStore.open(data.dir);
    try {
      const day = 86_400_000;
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.add(newEnquiry(), new Date(Date.now() - i * 10 * day))));
      const plans = Object.fromEntries(
        Object.entries(SWEEP_SQL).map(([name, sql]) => [
          name,
          (
            store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(
              ...sql
                .split('?')
                .slice(1)
                .map(() => 1),
            ) as { detail: string }[]
          ).map((r) => r.detail),
        ]),
      );
      expect(plans).toEqual({
        expired: ['SEARCH enquiries USING COVERING INDEX enquiries_received (received_at<?)'],
        damagedExpired: ['SEARCH damaged USING COVERING INDEX damaged_received (received_at<?)'],
        damagedErase: ['SEARCH damaged USING INDEX damaged_received (received_at<?)'],
        windowEnded: ['SEARCH enquiry_recent USING COVERING INDEX enquiry_recent_received (received_at<?)'],
        windowErase: [
          'SEARCH enquiry_recent USING PRIMARY KEY (content_hash=?)',
          'LIST SUBQUERY 1',
          'SEARCH enquiry_recent USING COVERING INDEX enquiry_recent_received (received_at<?)',
        ],
      });
      for (const details of Object.values(plans)) for (const d of details) expect(d).not.toMatch(/^SCAN/);
      // And it removes only what expired: 180 days keeps the 18 enquiries of the last 180 days.
      const erased = await store.eraseOlderThan(new Date(Date.now() - 175 * day), 'test');
      expect([erased.length, store.count()]).toEqual([22, 18]);
    } finally {
      await store.close();
      data.cleanup();
    }
  });
});
