import { createHash } from 'node:crypto';

/** One stored enquiry: what the visitor sent, plus what the server knows about it. */
export interface StoredEnquiry {
  /** Sequential, starting at 1, never given twice: "enquiry 57" is easy to say on the phone. */
  id: number;
  receivedAt: string;
  name: string;
  course: string;
  message: string;
  email: string;
  locale: string;
  page?: string;
  idempotencyKey?: string;
  /** `json` from the hydrated form, `form` from the plain HTML form. */
  via: 'json' | 'form';
  /** Whether an e-mail to the studio is owed for it. */
  notify: boolean;
}

export type NewEnquiry = Omit<StoredEnquiry, 'id' | 'receivedAt'>;

export interface Added {
  enquiry: StoredEnquiry;
  /** The enquiry was stored before (same idempotency key, or the same fields within the window): this is that one. */
  duplicate: boolean;
}

/** An idempotency key sent again with a different enquiry: answered 409, never stored over the first. */
export class EnquiryConflict extends Error {}

/** The store could not keep an enquiry now (disk full, I/O error, lock lost): answered 503, never "ok". */
export class StoreUnavailable extends Error {}

/** Whether the store can take an enquiry now (the server's health endpoint reports it). */
export type StoreHealth = { ok: true } | { ok: false; reason: string };

/**
 * Where enquiries are kept: the file inbox (one machine) or, later, PostgreSQL (several
 * instances). Both pass the contract tests in tests/serve/store-contract.ts.
 */
export interface EnquiryStore {
  /**
   * Resolves only once the enquiry is durably stored. Rejects with `EnquiryConflict` when its
   * idempotency key was stored with other fields, and with another error (`StoreUnavailable`)
   * when it could not be stored; it is then not stored.
   */
  add(input: NewEnquiry, now?: Date): Promise<Added>;
  health(): StoreHealth;
  /** Every stored enquiry, oldest first. */
  list(): Promise<StoredEnquiry[]>;
  /** Waits for the writes under way, then lets go of the store. */
  close(): Promise<void>;
}

/** The same enquiry sent again within this time (a double click, a reload, a no-JS form sent twice) is stored once. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/**
 * What makes two enquiries the same: everything the visitor filled in. Not the idempotency key,
 * the time, how it was sent (script or plain form) or whether it is e-mailed.
 */
export function contentHash(e: NewEnquiry | StoredEnquiry): string {
  const fields = [e.name, e.email, e.course, e.message, e.locale, e.page ?? ''];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}
