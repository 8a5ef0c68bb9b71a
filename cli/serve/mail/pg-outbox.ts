import type pg from 'pg';
import type { EnquiryManifest } from '../manifest.ts';
import { fromRow, transaction } from '../store/pg-transaction.ts';
import { isPermanentMailError, type StoredEnquiry } from '../store/store.ts';
import { notification } from './email.ts';
import { type MailEvent, type Mailer, oneLineError } from './outbox.ts';

export interface PgOutboxOptions {
  manifest: EnquiryManifest;
  mailer: Mailer;
  to: string;
  from: string;
  /** First retry delay and the most it grows to (doubling per failed attempt of that e-mail), in milliseconds. */
  retry?: { initialMs: number; maxMs: number };
  /** How often to look for e-mail owed (another instance's, or a retry that is due). */
  pollMs?: number;
  /** E-mails this instance sends at the same time (each its own row, locked): a backlog after an outage drains sooner. */
  concurrency?: number;
  onEvent?: (event: MailEvent) => void;
}

/**
 * The e-mail outbox in PostgreSQL: `studio_enquiry_mail` holds a row for each e-mail owed,
 * written in the enquiry's own transaction. Any instance takes the next row that is due with
 * `FOR UPDATE SKIP LOCKED`, keeps it locked while it sends, and marks it sent in the same
 * transaction: two instances never send one e-mail, and a failure's next attempt time is in
 * the row, so retries survive restarts of every instance. (A crash after the SMTP server took
 * the message and before the commit sends it again: twice rather than never.) Each row is its
 * own job with its own backoff; one the mail server refuses for good (a 5xx reply) gets
 * `failed_at` and the reply, and is not tried again until `content enquiries resend`.
 */
export class PgOutbox {
  private stopped = false;
  private running: Promise<void>;
  private readonly wakers = new Set<() => void>();
  private owed = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PgOutboxOptions,
  ) {
    this.running = Promise.all(Array.from({ length: options.concurrency ?? 4 }, () => this.loop())).then(() => {});
  }

  private get retry() {
    return this.options.retry ?? { initialMs: 5_000, maxMs: 10 * 60_000 };
  }

  /** E-mails still owed, as last counted. */
  get pending(): number {
    return this.owed;
  }

  /** Counts what is owed now (at start, for the log). */
  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM studio_enquiry_mail WHERE sent_at IS NULL AND failed_at IS NULL');
    this.owed = Number(rows[0]?.n ?? 0);
    return this.owed;
  }

  /** A new enquiry was stored here: look now rather than at the next poll. */
  push(enquiry: StoredEnquiry): void {
    if (enquiry.notify) for (const wake of [...this.wakers]) wake();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let sentOrTried = false;
      try {
        sentOrTried = await this.sendNext();
      } catch {
        // The database is away: the store reports that; try again at the next poll.
      }
      if (!sentOrTried && !this.stopped) {
        await this.count().catch(() => {});
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, this.options.pollMs ?? 1_000);
          this.wakers.add(wake);
        });
      }
    }
  }

  /** Sends the next e-mail that is due, if there is one no other instance holds. */
  private async sendNext(): Promise<boolean> {
    // The row stays locked while the e-mail is sent; what became of it is reported once committed.
    const event = await transaction(this.pool, async (client): Promise<MailEvent | undefined> => {
      const { rows } = await client.query(
        `SELECT e.*, m.attempts FROM studio_enquiry_mail m JOIN studio_enquiries e ON e.id = m.enquiry_id
         WHERE m.sent_at IS NULL AND m.failed_at IS NULL AND m.next_at <= now()
         ORDER BY m.next_at, m.enquiry_id LIMIT 1
         FOR UPDATE OF m SKIP LOCKED`,
      );
      const row = rows[0];
      if (!row || this.stopped) return undefined;
      const enquiry = fromRow(row);
      try {
        const mail = notification(enquiry, this.options.manifest);
        await this.options.mailer.sendMail({ from: this.options.from, to: this.options.to, ...mail });
      } catch (error) {
        const attempts = Number(row.attempts) + 1;
        const retryInMs = Math.min(this.retry.initialMs * 2 ** Math.min(attempts - 1, 30), this.retry.maxMs);
        const message = oneLineError(error);
        if (isPermanentMailError(error)) {
          await client.query('UPDATE studio_enquiry_mail SET attempts = $2, failed_at = now(), last_error = $3 WHERE enquiry_id = $1', [
            enquiry.id,
            attempts,
            message,
          ]);
          return { kind: 'refused', id: enquiry.id, error: message };
        }
        await client.query(
          "UPDATE studio_enquiry_mail SET attempts = $2, next_at = now() + $3 * interval '1 millisecond', last_error = $4 WHERE enquiry_id = $1",
          [enquiry.id, attempts, retryInMs, message],
        );
        return { kind: 'failed', id: enquiry.id, error: message, retryInMs };
      }
      await client.query('UPDATE studio_enquiry_mail SET sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE enquiry_id = $1', [enquiry.id]);
      return { kind: 'sent', id: enquiry.id };
    });
    if (!event) return false;
    this.options.onEvent?.(event);
    return true;
  }

  /** Stops after the e-mail being sent now, waiting for it at most a few seconds; the rest is sent by another instance or after a restart. */
  async close(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.wakers]) wake();
    await Promise.race([this.running, new Promise((r) => setTimeout(r, 5000).unref())]);
    this.options.mailer.close?.();
  }
}
