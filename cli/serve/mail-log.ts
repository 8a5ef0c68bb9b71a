import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from './durable-file.ts';
import type { ListedEnquiry, MailState, StoredEnquiry } from './store.ts';

/** The file inbox's e-mail log, beside `enquiries.jsonl`: one event per line, the last one of an id says where its e-mail stands. */
export const MAIL_LOG = 'notified.jsonl';

/** One line of the log: sent, refused for good (with the mail server's reply), or queued again by `content enquiries resend`. */
export type MailEvent = { id: number; sentAt: string } | { id: number; failedAt: string; error: string } | { id: number; resentAt: string };

/** What the log says of each id it names: sent, failed, or owed again (resent). */
export function readMailLog(dir: string): Map<number, MailState> {
  const file = join(dir, MAIL_LOG);
  const states = new Map<number, MailState>();
  if (!existsSync(file)) return states;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let event: Partial<MailEvent & { sentAt: string; failedAt: string; error: string; resentAt: string }>;
    try {
      event = JSON.parse(line);
    } catch {
      continue; // a torn last line: that e-mail is sent again, which is better than not at all
    }
    if (typeof event?.id !== 'number') continue;
    if (typeof event.sentAt === 'string') states.set(event.id, { state: 'sent', at: event.sentAt });
    else if (typeof event.failedAt === 'string') states.set(event.id, { state: 'failed', at: event.failedAt, error: String(event.error ?? '') });
    else if (typeof event.resentAt === 'string') states.set(event.id, { state: 'owed' });
  }
  return states;
}

/** Where an enquiry's e-mail stands, from its record and the log. */
export function mailStateOf(e: StoredEnquiry, log: Map<number, MailState>): MailState {
  if (!e.notify || e.spam) return { state: 'none' };
  return log.get(e.id) ?? { state: 'owed' };
}

export function withMail(enquiries: StoredEnquiry[], log: Map<number, MailState>): ListedEnquiry[] {
  return enquiries.map((e) => ({ ...e, mail: mailStateOf(e, log) }));
}

/** Rewrites the log without the lines of the ids `drop` names (erased enquiries); durably, as the inbox is written. */
export async function pruneMailLog(dir: string, drop: (id: number) => boolean): Promise<void> {
  const file = join(dir, MAIL_LOG);
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8').split('\n');
  const kept = lines.filter((l) => l && !drop(Number(/^\{"id":(\d+)[,}]/.exec(l)?.[1])));
  if (kept.length === lines.filter(Boolean).length) return;
  await replaceFile(file, Buffer.from(kept.map((l) => `${l}\n`).join('')));
}
