import { recordFromRow } from '../store/enquiry-record.ts';
import type { SqliteStore } from '../store/sqlite-store.ts';
import { isPermanentMailError, type StoredEnquiry } from '../store/store.ts';
import { notification } from './email.ts';
import { type MailEvent, type MailSettings, oneLineError } from './outbox.ts';

/** The e-mail settings, and how often to look for e-mail owed (a retry that is due, a `resend` or `restore` by a command). */
export type SqliteOutboxOptions = MailSettings & { pollMs?: number };

/** How long a server holds an e-mail it is sending; one killed meanwhile leaves it to be sent again after this. */
const CLAIM_MS = 2 * 60_000;

/**
 * The e-mail outbox in the SQLite store: `enquiry_mail` holds a row for each e-mail owed,
 * written in the enquiry's own transaction. Each row is its own job with its own backoff (its
 * next attempt time is in the row, so retries survive a restart); one the mail server refuses
 * for good (a 5xx reply) gets `failed_at` and the reply and waits for `content enquiries
 * resend`. A row is claimed (`claimed_until`) before it is sent, so a second server on the
 * same database does not send it too. A crash after the mail server took the message and
 * before it was marked sends it again after CLAIM_MS: twice rather than never.
 */
export class SqliteOutbox {
  private stopped = false;
  private readonly running: Promise<void>;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: SqliteStore,
    private readonly options: SqliteOutboxOptions,
  ) {
    this.running = this.loop();
  }

  private get retry() {
    return this.options.retry ?? { initialMs: 5_000, maxMs: 10 * 60_000 };
  }

  /** E-mails still owed now. */
  get pending(): number {
    try {
      return Number((this.store.sql('SELECT count(*) AS n FROM enquiry_mail WHERE sent_at IS NULL AND failed_at IS NULL').get() as { n: number }).n);
    } catch {
      return 0;
    }
  }

  /** A new enquiry was stored: look now rather than at the next poll. */
  push(enquiry: StoredEnquiry): void {
    if (enquiry.notify) this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let tried = false;
      try {
        tried = await this.sendNext();
      } catch {
        // The database cannot be written now: the store's health says so; try again at the next poll.
      }
      if (!tried && !this.stopped)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.options.pollMs ?? 1_000);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.wake = done;
        });
      this.wake = undefined;
    }
  }

  /** Claims the e-mail due first (the oldest enquiry among those due), sends it and records how it went. */
  private async sendNext(): Promise<boolean> {
    const now = Date.now();
    const row = this.store.transaction(() => {
      const due = this.store
        .sql(
          `SELECT e.*, m.attempts FROM enquiry_mail m JOIN enquiries e ON e.id = m.enquiry_id
           WHERE m.sent_at IS NULL AND m.failed_at IS NULL AND m.next_at <= ? AND (m.claimed_until IS NULL OR m.claimed_until < ?)
           ORDER BY m.next_at, m.enquiry_id LIMIT 1`,
        )
        .get(now, now) as Record<string, unknown> | undefined;
      if (due) this.store.sql('UPDATE enquiry_mail SET claimed_until = ? WHERE enquiry_id = ?').run(now + CLAIM_MS, due.id as number);
      return due;
    });
    if (!row || this.stopped) return false;
    const enquiry = recordFromRow(row);
    const attempts = Number(row.attempts) + 1;
    let event: MailEvent;
    try {
      const mail = notification(enquiry, this.options.manifest);
      await this.options.mailer.sendMail({ from: this.options.from, to: this.options.to, ...mail });
      event = { kind: 'sent', id: enquiry.id };
    } catch (error) {
      const message = oneLineError(error);
      if (isPermanentMailError(error)) event = { kind: 'refused', id: enquiry.id, error: message };
      else {
        const retryInMs = Math.min(this.retry.initialMs * 2 ** Math.min(attempts - 1, 30), this.retry.maxMs);
        event = { kind: 'failed', id: enquiry.id, error: message, retryInMs };
      }
    }
    const at = new Date().toISOString();
    // Recorded after sending; an enquiry erased meanwhile has no row left to mark.
    const mark = () => {
      if (event.kind === 'sent')
        this.store
          .sql('UPDATE enquiry_mail SET sent_at = ?, attempts = ?, last_error = NULL, claimed_until = NULL WHERE enquiry_id = ?')
          .run(at, attempts, enquiry.id);
      else if (event.kind === 'refused')
        this.store
          .sql('UPDATE enquiry_mail SET failed_at = ?, attempts = ?, last_error = ?, claimed_until = NULL WHERE enquiry_id = ?')
          .run(at, attempts, event.error, enquiry.id);
      else
        this.store
          .sql('UPDATE enquiry_mail SET next_at = ?, attempts = ?, last_error = ?, claimed_until = NULL WHERE enquiry_id = ?')
          .run(Date.now() + event.retryInMs, attempts, event.error, enquiry.id);
    };
    this.store.transaction(mark);
    this.options.onEvent?.(event);
    return true;
  }

  /** Stops after the e-mail being sent now, waiting for it at most a few seconds; what is still owed is sent after a restart. */
  async close(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await Promise.race([this.running, new Promise((r) => setTimeout(r, 5000).unref())]);
    this.options.mailer.close?.();
  }
}
