import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { replaceFile } from './durable-file.ts';
import { IDS_FILE, INBOX_FILE, type InboxSnapshot, idsFileText, RETENTION_FILE, readInbox } from './inbox.ts';
import { takeLock } from './inbox-lock.ts';
import { MAIL_LOG } from './mail-log.ts';

const FORMAT = 'studio-enquiries-backup';

/**
 * A backup file: one header line (what it is, when, the highest id ever given, how many lines
 * of each part follow), then the inbox's lines, then the mail log's, each exactly as stored.
 */
export function backupText(s: InboxSnapshot, now = new Date()): string {
  const count = (text: string) => (text ? text.split('\n').length - 1 : 0);
  const header = {
    format: FORMAT,
    version: 1,
    createdAt: now.toISOString(),
    lastId: s.lastId,
    ...(s.retentionDays ? { retentionDays: s.retentionDays } : {}),
    enquiryLines: count(s.enquiries),
    mailLines: count(s.mailLog),
  };
  return `${JSON.stringify(header)}\n${s.enquiries}${s.mailLog}`;
}

/** Reads a backup file back, or says why it is not one (cut short, changed, not ours). */
export function parseBackup(text: string, file: string): InboxSnapshot & { createdAt: string; enquiryCount: number } {
  const notOurs = (why: string) =>
    new UsageError(`${file} is not a whole backup of an enquiry inbox: ${why}`, 'give a file written by "content enquiries backup"');
  const lines = text.split('\n');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    throw notOurs('its first line is not the header');
  }
  if (header.format !== FORMAT || header.version !== 1) throw notOurs('its header names another format');
  const { enquiryLines, mailLines, lastId } = header as { enquiryLines: number; mailLines: number; lastId: number };
  if (![enquiryLines, mailLines, lastId].every((n) => Number.isSafeInteger(n) && n >= 0)) throw notOurs('its header is damaged');
  if (lines.length !== 1 + enquiryLines + mailLines + 1 || lines.at(-1) !== '') throw notOurs('it is cut short or has lines added');
  const part = (from: number, n: number) =>
    lines
      .slice(from, from + n)
      .map((l) => `${l}\n`)
      .join('');
  const enquiries = part(1, enquiryLines);
  let enquiryCount = 0;
  for (const [i, line] of lines.slice(1, 1 + enquiryLines).entries()) {
    try {
      const e = JSON.parse(line) as { id?: unknown };
      if (typeof e.id !== 'number' || e.id > lastId) throw new Error();
      enquiryCount++;
    } catch {
      throw notOurs(`line ${i + 2} is not an enquiry`);
    }
  }
  return {
    enquiries,
    mailLog: part(1 + enquiryLines, mailLines),
    lastId,
    ...(typeof header.retentionDays === 'number' ? { retentionDays: header.retentionDays } : {}),
    createdAt: String(header.createdAt),
    enquiryCount,
  };
}

/**
 * Restores a backup into `dir`, which must hold no enquiries (a restore never replaces an
 * inbox: restore into a new folder and point `content serve --data` at it). Holds the inbox
 * lock while it writes, so no server starts on the folder half-restored; every file is written
 * as the inbox writes (temp file, sync, rename, directory sync), the inbox itself last.
 */
export async function restoreBackup(dir: string, s: InboxSnapshot): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
  const lock = await takeLock(dir, () => {});
  try {
    const inbox = join(dir, INBOX_FILE);
    if (existsSync(inbox) && (readInbox(dir).enquiries.length || readFileSync(inbox).length))
      throw new UsageError(
        `${dir} already holds an enquiry inbox; a restore never replaces one`,
        'restore into a new folder, then start "content serve --data" on it',
      );
    await replaceFile(join(dir, IDS_FILE), Buffer.from(idsFileText(s.lastId)));
    await replaceFile(join(dir, MAIL_LOG), Buffer.from(s.mailLog));
    if (s.retentionDays) await replaceFile(join(dir, RETENTION_FILE), Buffer.from(`${JSON.stringify({ days: s.retentionDays })}\n`));
    await replaceFile(inbox, Buffer.from(s.enquiries));
  } finally {
    await lock.release();
  }
}
