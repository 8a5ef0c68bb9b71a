import type pg from 'pg';
import { recordFromRow } from './enquiry-record.ts';
import type { StoredEnquiry } from './store.ts';

// What the PostgreSQL store and its e-mail outbox (mail/pg-outbox.ts) both do with a connection and a row.

type Row = Record<string, unknown>;

/**
 * A connection from the pool. pg-pool stops listening for a connection's errors while it is
 * checked out, so a database that goes away during a transaction would end the process with
 * an unhandled 'error' event: the query under way fails with that error anyway, so it is ignored here.
 */
export async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const ignore = () => {};
  client.on('error', ignore);
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    client.removeListener('error', ignore);
    return release(error);
  };
  return client;
}

/** `work` in one transaction on a connection of the pool: committed when it returns, rolled back when it throws. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = error as Error;
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release(broken);
  }
}

/** A row as the file inbox would have written it (same fields, same order: ENQUIRY_FIELDS). */
export function fromRow(r: Row): StoredEnquiry {
  return recordFromRow({ ...r, received_at: (r.received_at as Date).toISOString() });
}
