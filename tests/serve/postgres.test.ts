// Everything that needs a real PostgreSQL, in one file: one throwaway cluster for all of it
// (tests/helpers/postgres.ts), started once and removed afterwards. The tests run in order;
// the last one stops and starts the cluster.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PgStore } from '../../cli/serve/pg-store.ts';
import { type Cluster, startPostgres } from '../helpers/postgres.ts';
import { storeContract } from './store-contract.ts';

const started = await startPostgres();
if ('unavailable' in started) {
  if (process.env.CI) throw new Error(`CI needs PostgreSQL for these tests: ${started.unavailable}`);
  console.log(`PostgreSQL tests skipped: ${started.unavailable}`);
}
const cluster = 'unavailable' in started ? undefined : started;
const pgDescribe = cluster ? describe : describe.skip;
afterAll(async () => cluster?.remove());
const db = cluster as Cluster;

pgDescribe('the PostgreSQL store keeps the enquiry store contract', () => {
  storeContract(async () => {
    const url = db.url(await db.createDatabase());
    return { open: () => PgStore.open(url), cleanup: () => {} };
  });
});
