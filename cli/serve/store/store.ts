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
  phone?: string;
  locale: string;
  page?: string;
  idempotencyKey?: string;
  /** `json` from the hydrated form, `form` from the plain HTML form. */
  via: 'json' | 'form';
  /** Whether an e-mail to the studio is owed for it. */
  notify: boolean;
  /**
   * Set when the spam trap suspected it (a hidden field filled, sent faster than a person types):
   * kept aside, not e-mailed, until `content enquiries restore` says it is a person's.
   */
  spam?: SpamReason;
}

export type SpamReason = 'honeypot' | 'too_fast';

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

/** Where the e-mails to the studio stand (for health and `content enquiries list`). */
export interface MailHealth {
  /** E-mails the mail server refused for good (a 5xx reply): marked failed, not tried again until `content enquiries resend`. */
  failed: number;
  /** When the enquiry of the oldest e-mail still owed arrived (none owed: absent). */
  oldestOwedAt?: string;
}

/** What the store says about itself besides whether it can store. */
export interface StoreDetails {
  mail?: MailHealth;
  /** Enquiries older than this are deleted (set by `content serve --keep-days`). */
  retentionDays?: number;
}

/** Whether the store can take an enquiry now (the server's health endpoint reports it), and how its e-mails and retention stand. */
export type StoreHealth = ({ ok: true } | { ok: false; reason: string }) & StoreDetails;

/** Where one enquiry's e-mail to the studio stands. */
export type MailState =
  | { state: 'none' }
  | { state: 'owed' }
  | { state: 'sent'; at: string }
  /** Refused for good by the mail server, with its reply. */
  | { state: 'failed'; at: string; error: string };

export type ListedEnquiry = StoredEnquiry & { mail: MailState };

/** What `restore` and `resend` did. */
export type AdminResult = 'done' | 'not-found' | 'not-applicable';

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
  /** Every stored enquiry (suspected spam too), oldest first. */
  list(): Promise<StoredEnquiry[]>;
  /** Every stored enquiry with where its e-mail stands, oldest first. */
  listWithMail(): Promise<ListedEnquiry[]>;
  /** Takes a suspected spam enquiry back among the others and queues its e-mail ('not-applicable': it is not suspected). */
  restore(id: number): Promise<AdminResult>;
  /** Queues an e-mail the mail server refused once more ('not-applicable': it has not failed). */
  resend(id: number): Promise<AdminResult>;
  /**
   * Removes these enquiries and every trace of them (their e-mail jobs, idempotency keys and
   * duplicate-window entries); returns the ids it removed. Their ids are never given again.
   * Leaves an audit line that names only the ids, the time and `why` (no personal data).
   */
  erase(ids: readonly number[], why: string): Promise<number[]>;
  /** Erases every enquiry received before `cutoff` (storage limitation); returns their ids. */
  eraseOlderThan(cutoff: Date, why: string): Promise<number[]>;
  /** Remembers the retention period `content serve` enforces, so that `content enquiries list` can say it. */
  setRetention(days: number): Promise<void>;
  retention(): Promise<number | undefined>;
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

/** The audit line of an erasure: ids, time and why, nothing a visitor wrote. */
export function auditLine(ids: readonly number[], why: string, now = new Date()): string {
  return `${now.toISOString()} erased ${ids.length} enquir${ids.length === 1 ? 'y' : 'ies'} (ids ${ids.join(', ')}): ${why}`;
}

/** Whether a mail server's refusal is for good (a 5xx reply to the message or its envelope), not worth trying again as it is. */
export function isPermanentMailError(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  // A refused login (535) is a setting to mend, and every e-mail would fail alike: retried, and shown in the log.
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH';
}
