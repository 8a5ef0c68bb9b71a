import type { EnquiryManifest } from '../manifest.ts';

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

/** What an outbox of either store is made with, but the store it belongs to. */
export interface MailSettings {
  manifest: EnquiryManifest;
  mailer: Mailer;
  to: string;
  from: string;
  /** First retry delay and the most it grows to (doubling per failed attempt of that e-mail), in milliseconds. */
  retry?: { initialMs: number; maxMs: number };
  onEvent?: (event: MailEvent) => void;
}

/** A mail server's reply as one short line (it may quote what it refused). */
export function oneLineError(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim()
    .slice(0, 500);
}
