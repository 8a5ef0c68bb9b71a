import { linkSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachesOff, folderCacheFile, storeCacheFile } from '../cache/policy.ts';

/**
 * What a build wrote of each page's share card, kept for the next build into the same folder: the
 * card's file and key (none: the page has no card) and the file's inode, size and mtime when written.
 * A page the next build takes over without resolving it (its declared inputs unchanged:
 * cli/cache/page-inputs.ts, which cover the pictures' bytes and the compiler) has the same model,
 * so the same card: its file is hard-linked from the previous site while it is still exactly that file.
 */
export interface CardRecord {
  card?: string;
  key?: string;
  ino?: number;
  size?: number;
  mtimeMs?: number;
}
export type CardRecords = Record<string, CardRecord>;

const recordsFile = (out: string) => folderCacheFile('card-records', out, 'json');

export function readCardRecords(out: string): CardRecords {
  if (cachesOff()) return {};
  try {
    return JSON.parse(readFileSync(recordsFile(out), 'utf8')) as CardRecords;
  } catch {
    return {};
  }
}

/** Links the recorded card of a page from the previous site into `staging`; false when it is not there as written (then the page is resolved). */
export function linkRecordedCard(previous: string, staging: string, record: CardRecord, made: Set<string>): boolean {
  if (!record.card) return true;
  try {
    const from = join(previous, record.card);
    const st = statSync(from);
    if (st.ino !== record.ino || st.size !== record.size || st.mtimeMs !== record.mtimeMs) return false;
    const to = join(staging, record.card);
    if (!made.has(dirname(to))) {
      mkdirSync(dirname(to), { recursive: true });
      made.add(dirname(to));
    }
    linkSync(from, to);
    return true;
  } catch {
    return false;
  }
}

/** Records the cards of the site now in `out` (after the swap), each with its file's identity there (read anew for the cards written by this build). */
export function writeCardRecords(out: string, cards: Map<string, CardRecord>): void {
  const records: CardRecords = {};
  for (const [page, record] of cards) {
    const { card, key } = record;
    if (!card || record.ino !== undefined) {
      records[page] = card ? record : {};
      continue;
    }
    try {
      const st = statSync(join(out, card));
      records[page] = { card, key, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    } catch {}
  }
  storeCacheFile(recordsFile(out), JSON.stringify(records), 50);
}
