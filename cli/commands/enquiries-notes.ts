import { DEFAULT_KEEP_DAYS } from '../schema/legal.ts';
import type { StoredEnquiry } from '../serve/store/store.ts';
import { readRetention, type StoreChoice } from './enquiries-store.ts';

/** What `content enquiries list` says under the table: suspected spam kept aside, and how long enquiries are kept. */
export async function inboxNotes(opts: StoreChoice & { spam?: boolean }, all: StoredEnquiry[]): Promise<string[]> {
  const notes: string[] = [];
  const spam = all.filter((e) => e.spam).length;
  if (spam && !opts.spam) notes.push(`${spam} suspected spam kept aside, not e-mailed: content enquiries list --spam`);
  const days = await readRetention(opts).catch(() => undefined);
  if (!days) notes.push(`Kept for ${DEFAULT_KEEP_DAYS} days unless "content serve --keep-days" says otherwise (no server has recorded its period here yet).`);
  else {
    const oldest = all.reduce<StoredEnquiry | undefined>((a, e) => (!a || e.receivedAt < a.receivedAt ? e : a), undefined);
    const next = oldest ? `; the next to go: #${oldest.id} on ${new Date(Date.parse(oldest.receivedAt) + days * 86_400_000).toISOString().slice(0, 10)}` : '';
    notes.push(`Enquiries are deleted ${days} days after they arrive (content serve --keep-days)${next}.`);
  }
  return notes;
}
