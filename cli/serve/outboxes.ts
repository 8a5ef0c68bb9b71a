import { Inbox } from './inbox.ts';
import { Outbox, type OutboxOptions } from './outbox.ts';
import { PgOutbox } from './pg-outbox.ts';
import { PgStore } from './pg-store.ts';
import type { EnquiryStore, StoredEnquiry } from './store.ts';

/** What an outbox of either store is made with, but the store it belongs to. */
export type MailSettings = Omit<OutboxOptions, 'inbox'>;

/** What the server needs of an outbox, whichever store it belongs to. */
export interface AnyOutbox {
  push(enquiry: StoredEnquiry): void;
  readonly pending: number;
  close(): Promise<void>;
}

/** The e-mail outbox of a store: in the database beside the PostgreSQL store, in the mail log beside the file inbox. */
export function outboxFor(store: EnquiryStore, settings: MailSettings & { pollMs?: number }): Outbox | PgOutbox {
  if (store instanceof PgStore) return new PgOutbox(store.pool, settings);
  if (store instanceof Inbox) return new Outbox({ inbox: store, ...settings });
  throw new Error('e-mail needs the file inbox or the PostgreSQL store');
}
