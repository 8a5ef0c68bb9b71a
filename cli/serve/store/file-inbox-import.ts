import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StatementSync } from 'node:sqlite';
import { UsageError } from '../../report/problem.ts';
import { ENQUIRY_COLUMNS, ENQUIRY_FIELDS, foldAddress, recordFromRow, rowValues } from './enquiry-record.ts';
import { INBOX_FILE } from './sqlite-schema.ts';
import { contentHash, DUPLICATE_WINDOW_MS, type MailState, type StoredEnquiry } from './store.ts';
import { recordProblem } from './stored-record.ts';

/** The file inbox of earlier releases: one enquiry per JSON line. */
export { INBOX_FILE };
/** Its e-mail log: one event per line, the last one of an id says where its e-mail stands. */
export const MAIL_LOG = 'notified.jsonl';
/** What the file inbox kept beside it, imported with it: the highest id given, the retention period, the audit, lines torn by a crash. */
const SIDE_FILES = ['enquiries.last-id', 'retention.json', 'audit.log', MAIL_LOG];
const TORN = /^torn-\d+\.txt$/;
/** The old inbox's lock (a directory whose mtime a running server renews every 2 s). */
const OLD_LOCK = 'serve.lock';
/** What the imported files are renamed to: `enquiries.jsonl` → `enquiries.jsonl.imported`. */
export const IMPORTED_SUFFIX = '.imported';

export interface ImportReport {
  /** Enquiries taken in, each read back from the database and compared with its line. */
  enquiries: number;
  /** Lines that were not a whole enquiry (a crash cut them off), kept as damaged records. */
  damaged: { source: string; line: number; id?: number; why: string }[];
  /** The files set aside (renamed, readable by their owner only) for the admin to delete. */
  keptAside: string[];
}

/** Lines of a file, read a MiB at a time (an inbox may be larger than a string can be); `torn`: the last one has no line break. */
function* linesOf(file: string, hash: ReturnType<typeof createHash>): Generator<{ text: string; torn: boolean }> {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let rest = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      let bytes = Buffer.concat([rest, chunk.subarray(0, n)]);
      for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a)) {
        yield { text: bytes.subarray(0, end).toString('utf8'), torn: false };
        bytes = bytes.subarray(end + 1);
      }
      rest = Buffer.from(bytes);
    }
    if (rest.length) yield { text: rest.toString('utf8'), torn: true };
  } finally {
    closeSync(fd);
  }
}

/** Where each e-mail stood, as the old mail log says (its last line for an id wins). */
function readMailLog(dir: string): Map<number, MailState> {
  const states = new Map<number, MailState>();
  const file = join(dir, MAIL_LOG);
  if (!existsSync(file)) return states;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let event: { id?: unknown; sentAt?: unknown; failedAt?: unknown; error?: unknown; resentAt?: unknown };
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

/**
 * As much of a line cut off by a crash as can be read: the fields before the cut
 * (`{"id":15,"receivedAt":"…","name":"Anna","cour` gives id, receivedAt and name).
 */
export function readableFields(text: string): Record<string, unknown> {
  for (let cut = text.lastIndexOf(',"'); cut > 0; cut = text.lastIndexOf(',"', cut - 1)) {
    try {
      const value = JSON.parse(`${text.slice(0, cut)}}`);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {}
  }
  return {};
}

/** The record with its fields in the order the store writes them (for the byte check). */
const canonical = (e: StoredEnquiry) => {
  const { id, receivedAt } = e;
  const out: Record<string, unknown> = { id, receivedAt };
  for (const f of ENQUIRY_FIELDS) if (e[f.key] !== undefined) out[f.key] = e[f.key];
  return JSON.stringify(out);
};

/**
 * Imports the file inbox of an earlier release in the store's folder, once, on the first
 * start after the upgrade: every enquiry with its id, idempotency key, e-mail state, the
 * retention period, the audit lines and the highest id ever given (so no id is given again).
 * Every enquiry is read back from the database in the same transaction and compared with
 * its line; any difference undoes the whole import and stops the start. Lines that are not a
 * whole enquiry (cut off by a crash, also those set aside in torn-*.txt) are kept as damaged
 * records with what can be read of them. Afterwards the old files are renamed (`.imported`,
 * mode 0600) and left for the admin to delete. Returns undefined when there is nothing to import.
 */
/** What the import needs of the SQLite store (sqlite-store.ts, which calls it when it opens). */
export interface ImportTarget {
  readonly dir: string;
  sql(text: string): StatementSync;
  transaction<T>(work: () => T): T;
  count(): number;
}

export function importFileInbox(store: ImportTarget): ImportReport | undefined {
  const { dir } = store;
  const file = join(dir, INBOX_FILE);
  if (!existsSync(file)) return undefined;
  refuseWhileInboxServes(dir);
  const hash = createHash('sha256');
  const report: ImportReport = { enquiries: 0, damaged: [], keptAside: [] };
  const alreadyImported = (digest: string) =>
    (store.sql("SELECT value FROM settings WHERE name = 'file_inbox_imported'").get() as { value?: string } | undefined)?.value === digest;

  const mail = readMailLog(dir);
  const now = new Date();
  const insertDamaged = store.sql('INSERT INTO damaged (source, line, enquiry_id, received_at, text) VALUES (?, ?, ?, ?, ?)');
  let highest = 0;
  const keepDamaged = (source: string, line: number, text: string, why: string) => {
    const fields = readableFields(text);
    const id = typeof fields.id === 'number' && Number.isSafeInteger(fields.id) && fields.id > 0 ? fields.id : undefined;
    if (id) highest = Math.max(highest, id);
    const at = typeof fields.receivedAt === 'string' && !Number.isNaN(Date.parse(fields.receivedAt)) ? fields.receivedAt : now.toISOString();
    insertDamaged.run(source, line, id ?? null, at, text);
    report.damaged.push({ source, line, ...(id ? { id } : {}), why });
  };

  let digest = '';
  store.transaction(() => {
    if (store.count() > 0 || store.sql("SELECT 1 FROM sqlite_sequence WHERE name = 'enquiries' AND seq > 0").get()) {
      // Imported before, and the process stopped before the files were set aside: only that is left to do.
      for (const _ of linesOf(file, hash));
      digest = hash.digest('hex');
      if (alreadyImported(digest)) return;
      throw new UsageError(
        `${dir} holds both the enquiry database and a file inbox (${INBOX_FILE}) that was not imported into it`,
        `move ${INBOX_FILE} into a folder of its own, start "content serve --data" there once to import it, then compare the two with "content enquiries list"`,
      );
    }
    const insert = store.sql(
      `INSERT INTO enquiries (id, received_at, ${ENQUIRY_COLUMNS.join(', ')}, content_hash, email_fold)
       VALUES (?, ?, ${ENQUIRY_COLUMNS.map(() => '?').join(', ')}, ?, ?)`,
    );
    const readBack = store.sql('SELECT * FROM enquiries WHERE id = ?');
    const since = new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString();
    let lineNo = 0;
    for (const { text, torn } of linesOf(file, hash)) {
      lineNo++;
      if (!text && !torn) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        keepDamaged(INBOX_FILE, lineNo, text, torn ? 'cut off by a crash (never acknowledged)' : 'not a JSON line');
        continue;
      }
      const problem = recordProblem(value);
      const e = value as StoredEnquiry;
      if (problem || readBack.get(e.id)) {
        keepDamaged(INBOX_FILE, lineNo, text, problem ?? `a second record with id ${e.id}`);
        continue;
      }
      const hashOf = contentHash(e);
      insert.run(e.id, e.receivedAt, ...rowValues(e), hashOf, foldAddress(e.email));
      // The byte check: what the database gives back is the line, field by field and byte by byte.
      const back = canonical(recordFromRow(readBack.get(e.id) as Record<string, unknown>));
      if (back !== canonical(e)) throw new Error(`line ${lineNo} of ${file} (enquiry ${e.id}) did not read back from the database as it was written`);
      highest = Math.max(highest, e.id);
      insertBeside(store, e, hashOf, since, mail);
      report.enquiries++;
    }
    digest = hash.digest('hex');
    for (const f of readdirSync(dir)
      .filter((f) => TORN.test(f))
      .sort())
      keepDamaged(f, 1, readFileSync(join(dir, f), 'utf8'), 'set aside by an earlier start after a crash (never acknowledged)');
    importSideFiles(store, highest);
    store.sql("INSERT OR REPLACE INTO settings (name, value) VALUES ('file_inbox_imported', ?)").run(digest);
  });
  report.keptAside.push(...setAside(dir));
  return report;
}

/** A file inbox whose lock an earlier server still renews is not imported from under it. */
function refuseWhileInboxServes(dir: string): void {
  const lock = statSync(join(dir, OLD_LOCK), { throwIfNoEntry: false });
  if (lock && Date.now() - lock.mtimeMs < 30_000)
    throw new UsageError(
      `${dir} is still in use by the file inbox of an earlier "content serve" (its ${OLD_LOCK} is renewed)`,
      'stop that server first; the next start imports its enquiries into the database',
    );
}

/** An imported enquiry's rows beside it: its idempotency key, its duplicate key while recent, and its e-mail job as the mail log left it. */
function insertBeside(store: ImportTarget, e: StoredEnquiry, hashOf: string, since: string, mail: ReturnType<typeof readMailLog>): void {
  if (e.idempotencyKey)
    store.sql('INSERT INTO enquiry_keys (key, content_hash, enquiry_id) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING').run(e.idempotencyKey, hashOf, e.id);
  if (e.receivedAt > since)
    store
      .sql(
        `INSERT INTO enquiry_recent (content_hash, received_at, enquiry_id) VALUES (?, ?, ?)
         ON CONFLICT (content_hash) DO UPDATE SET received_at = excluded.received_at, enquiry_id = excluded.enquiry_id`,
      )
      .run(hashOf, e.receivedAt, e.id);
  if (e.notify && !e.spam) {
    const m = mail.get(e.id) ?? { state: 'owed' };
    store
      .sql('INSERT INTO enquiry_mail (enquiry_id, sent_at, failed_at, last_error) VALUES (?, ?, ?, ?)')
      .run(e.id, m.state === 'sent' ? m.at : null, m.state === 'failed' ? m.at : null, m.state === 'failed' ? m.error : null);
  }
}

/** What the inbox kept beside its enquiries: the last id handed out (no id is given twice), the retention period, the audit log. */
function importSideFiles(store: ImportTarget, highestSeen: number): void {
  const { dir } = store;
  const lastId = Number(readText(join(dir, 'enquiries.last-id')) ?? 0) || 0;
  const highest = Math.max(highestSeen, lastId);
  if (highest > 0) {
    if (store.sql("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'enquiries'").run(highest).changes === 0)
      store.sql("INSERT INTO sqlite_sequence (name, seq) VALUES ('enquiries', ?)").run(highest);
  }
  const days = (() => {
    try {
      return (JSON.parse(readText(join(dir, 'retention.json')) ?? '') as { days?: unknown }).days;
    } catch {
      return undefined;
    }
  })();
  if (typeof days === 'number' && days > 0) store.sql("INSERT OR REPLACE INTO settings (name, value) VALUES ('retention_days', ?)").run(String(days));
  for (const line of (readText(join(dir, 'audit.log')) ?? '').split('\n').filter(Boolean))
    store.sql('INSERT INTO audit (at, line) VALUES (?, ?)').run(line.slice(0, 24), line);
}

/** Once committed: the old files are set aside for the admin, readable by their owner only; returns where they went. */
function setAside(dir: string): string[] {
  const kept: string[] = [];
  for (const f of [INBOX_FILE, ...SIDE_FILES, ...readdirSync(dir).filter((f) => TORN.test(f))]) {
    const from = join(dir, f);
    if (!existsSync(from)) continue;
    let to = `${from}${IMPORTED_SUFFIX}`;
    if (existsSync(to)) to = `${from}${IMPORTED_SUFFIX}-${Date.now()}`;
    chmodSync(from, 0o600);
    renameSync(from, to);
    kept.push(to);
  }
  return kept;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}
