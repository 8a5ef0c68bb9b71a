import type { PgStore } from '../store/pg-store.ts';
import { SqliteStore } from '../store/sqlite-store.ts';
import type { EnquiryStore, StoredEnquiry } from '../store/store.ts';
import type { MailSettings } from './outbox.ts';
import type { PgOutbox } from './pg-outbox.ts';
import { SqliteOutbox } from './sqlite-outbox.ts';

export type { MailSettings } from './outbox.ts';

/** What the server needs of an outbox, whichever store it belongs to. */
export interface AnyOutbox {
  push(enquiry: StoredEnquiry): void;
  readonly pending: number;
  close(): Promise<void>;
}

/** The e-mail outbox of a store: a table beside the enquiries, in SQLite or in PostgreSQL. */
export function outboxFor(store: EnquiryStore, settings: MailSettings & { pollMs?: number }): SqliteOutbox | PgOutbox {
  if (store instanceof SqliteStore) return new SqliteOutbox(store, settings);
  // The PostgreSQL store makes its own: only a server on PostgreSQL loads the client.
  if ('outbox' in store && 'pool' in store) return (store as PgStore).outbox(settings);
  throw new Error('e-mail needs the SQLite or the PostgreSQL store');
}
