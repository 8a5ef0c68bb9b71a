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
