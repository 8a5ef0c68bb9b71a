import { notification } from './email.ts';
import type { Inbox } from './inbox.ts';
import { readMailLog } from './mail-log.ts';
import type { EnquiryManifest } from './manifest.ts';
import { isPermanentMailError, type StoredEnquiry } from './store.ts';

export { MAIL_LOG as SENT_FILE } from './mail-log.ts';

/** What sends one e-mail; nodemailer's transport in production, anything alike in a test. */
export interface Mailer {
  sendMail(message: {
    from: string;
    to: string;
    replyTo: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
  }): Promise<{ messageId?: string }>;
  close?(): void;
}

/** What the outboxes report: an e-mail sent, one that failed and is tried again later, one the mail server refused for good. */
export type MailEvent =
  | { kind: 'sent'; id: number }
  | { kind: 'failed'; id: number; error: string; retryInMs: number }
  | { kind: 'refused'; id: number; error: string };

export interface OutboxOptions {
  inbox: Inbox;
  manifest: EnquiryManifest;
  mailer: Mailer;
  to: string;
  from: string;
  /** First retry delay and the most it grows to (doubling per failed attempt of that e-mail), in milliseconds. */
  retry?: { initialMs: number; maxMs: number };
  onEvent?: (event: MailEvent) => void;
}

/** Ids of the enquiries whose e-mail went out, from the outbox's own log. */
export function readSent(dir: string): Set<number> {
  return new Set([...readMailLog(dir)].filter(([, m]) => m.state === 'sent').map(([id]) => id));
}

interface Job {
  enquiry: StoredEnquiry;
  attempts: number;
  /** When it is tried next (ms since the epoch). */
  dueAt: number;
}

/**
 * E-mail to the studio for every enquiry of the file inbox that asks for it. Each e-mail is its
 * own job: one that fails is tried again with its own doubling delay while the others go out,
 * and one the mail server refuses for good (a 5xx reply: a spam or virus filter) is marked
 * failed in the mail log with the server's reply and left alone until `content enquiries
 * resend`. What is owed is in the inbox and its mail log, so a restart, a crash or an SMTP outage
 * only delays it (an e-mail may be sent twice after a crash between sending and recording,
 * never not at all).
 */
export class Outbox {
  private readonly jobs = new Map<number, Job>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly options: OutboxOptions) {
    for (const e of options.inbox.owedMail()) this.push(e);
    options.inbox.onOwed = (e) => this.push(e);
  }

  private get retry() {
    return this.options.retry ?? { initialMs: 5_000, maxMs: 10 * 60_000 };
  }

  /** E-mails still owed. */
  get pending(): number {
    return this.jobs.size;
  }

  push(enquiry: StoredEnquiry): void {
    if (!enquiry.notify || enquiry.spam || this.jobs.has(enquiry.id)) return;
    this.jobs.set(enquiry.id, { enquiry, attempts: 0, dueAt: 0 });
    this.start();
  }

  private start(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wake?.(); // a new job may be due before the one it sleeps for
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.jobs.size && !this.stopped) this.start();
    });
  }

  /** The job due first: the oldest enquiry among those due now, else the one due soonest. */
  private next(): Job | undefined {
    let best: Job | undefined;
    for (const job of this.jobs.values()) if (!best || job.dueAt < best.dueAt || (job.dueAt === best.dueAt && job.enquiry.id < best.enquiry.id)) best = job;
    return best;
  }

  private async run(): Promise<void> {
    while (this.jobs.size && !this.stopped) {
      const job = this.next()!;
      const wait = job.dueAt - Date.now();
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.timer = setTimeout(resolve, wait);
        });
        clearTimeout(this.timer);
        this.wake = undefined;
        continue;
      }
      await this.send(job);
    }
  }

  private async send(job: Job): Promise<void> {
    const { enquiry } = job;
    const { inbox, onEvent } = this.options;
    if (!inbox.isOwed(enquiry.id)) {
      this.jobs.delete(enquiry.id); // erased (or its period ended) while it waited: its text goes nowhere
      return;
    }
    try {
      const mail = notification(enquiry, this.options.manifest);
      await this.options.mailer.sendMail({ from: this.options.from, to: this.options.to, ...mail });
    } catch (error) {
      const message = oneLineError(error);
      if (isPermanentMailError(error)) {
        await inbox.recordMail(enquiry.id, { state: 'failed', at: new Date().toISOString(), error: message }).catch(() => {});
        this.jobs.delete(enquiry.id);
        onEvent?.({ kind: 'refused', id: enquiry.id, error: message });
        return;
      }
      job.attempts++;
      const retryInMs = Math.min(this.retry.initialMs * 2 ** Math.min(job.attempts - 1, 30), this.retry.maxMs);
      job.dueAt = Date.now() + retryInMs;
      onEvent?.({ kind: 'failed', id: enquiry.id, error: message, retryInMs });
      return;
    }
    this.jobs.delete(enquiry.id);
    // Recorded after sending: a crash in between sends it again rather than never.
    await inbox.recordMail(enquiry.id, { state: 'sent', at: new Date().toISOString() }).catch(() => {});
    onEvent?.({ kind: 'sent', id: enquiry.id });
  }

  /**
   * Stops after the e-mail being sent now, waiting for it at most a few seconds (an SMTP server
   * that does not answer must not hold up a shutdown); what is still owed is sent after a restart.
   */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
    if (this.options.inbox.onOwed) this.options.inbox.onOwed = undefined;
    await Promise.race([this.running, new Promise((r) => setTimeout(r, 5000).unref())]);
    this.options.mailer.close?.();
  }
}

/** A mail server's reply as one short line (it may quote what it refused). */
export function oneLineError(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim()
    .slice(0, 500);
}
