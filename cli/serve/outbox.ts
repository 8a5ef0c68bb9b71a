import { existsSync, readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { notification } from './email.ts';
import type { StoredEnquiry } from './inbox.ts';
import type { EnquiryManifest } from './manifest.ts';

export const SENT_FILE = 'notified.jsonl';

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

export interface OutboxOptions {
  dir: string;
  manifest: EnquiryManifest;
  mailer: Mailer;
  to: string;
  from: string;
  /** First retry delay and the most it grows to (doubling), in milliseconds. */
  retry?: { initialMs: number; maxMs: number };
  onEvent?: (event: { kind: 'sent'; id: number } | { kind: 'failed'; id: number; error: string; retryInMs: number }) => void;
}

/** Ids of the enquiries whose e-mail went out, from the outbox's own log. */
export function readSent(dir: string): Set<number> {
  const file = join(dir, SENT_FILE);
  const sent = new Set<number>();
  if (!existsSync(file)) return sent;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id === 'number') sent.add(id);
    } catch {
      // a torn last line: that e-mail is sent again, which is better than not at all
    }
  }
  return sent;
}

/**
 * E-mail to the studio for every stored enquiry that asks for it. The inbox is the outbox:
 * an enquiry whose id is not yet in `notified.jsonl` is owed an e-mail, so a restart, a
 * crash or an SMTP outage only delays it. One e-mail at a time, in order; a failure is
 * retried with a doubling delay, forever (an e-mail may be sent twice after a crash between
 * sending and recording, never not at all).
 */
export class Outbox {
  private readonly queue: StoredEnquiry[] = [];
  private readonly sent: Set<number>;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private stopped = false;
  private delay: number;

  constructor(
    private readonly options: OutboxOptions,
    backlog: StoredEnquiry[],
  ) {
    this.sent = readSent(options.dir);
    this.delay = this.retry.initialMs;
    for (const e of backlog) if (e.notify && !this.sent.has(e.id)) this.queue.push(e);
    this.start();
  }

  private get retry() {
    return this.options.retry ?? { initialMs: 5_000, maxMs: 10 * 60_000 };
  }

  /** E-mails still owed. */
  get pending(): number {
    return this.queue.length;
  }

  push(enquiry: StoredEnquiry): void {
    if (!enquiry.notify || this.sent.has(enquiry.id) || this.queue.some((e) => e.id === enquiry.id)) return;
    this.queue.push(enquiry);
    this.start(); // during an outage it waits for the next retry like the others
  }

  private start(): void {
    if (this.stopped) return;
    this.running ??= this.run().finally(() => {
      this.running = undefined;
      if (this.queue.length && !this.stopped) this.start();
    });
  }

  private async run(): Promise<void> {
    while (this.queue.length && !this.stopped) {
      const enquiry = this.queue[0]!;
      try {
        const mail = notification(enquiry, this.options.manifest);
        await this.options.mailer.sendMail({ from: this.options.from, to: this.options.to, ...mail });
        await appendFile(join(this.options.dir, SENT_FILE), `${JSON.stringify({ id: enquiry.id, sentAt: new Date().toISOString() })}\n`);
        this.sent.add(enquiry.id);
        this.queue.shift();
        this.delay = this.retry.initialMs;
        this.options.onEvent?.({ kind: 'sent', id: enquiry.id });
      } catch (error) {
        const retryInMs = this.delay;
        this.options.onEvent?.({ kind: 'failed', id: enquiry.id, error: (error as Error).message, retryInMs });
        this.delay = Math.min(this.delay * 2, this.retry.maxMs);
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.timer = setTimeout(resolve, retryInMs);
        });
        this.wake = undefined;
      }
    }
  }

  /**
   * Stops after the e-mail being sent now, waiting for it at most a few seconds (an SMTP server
   * that does not answer must not hold up a shutdown); what is still owed is sent after a restart.
   */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
    await Promise.race([this.running, new Promise((r) => setTimeout(r, 5000).unref())]);
    this.options.mailer.close?.();
  }
}
