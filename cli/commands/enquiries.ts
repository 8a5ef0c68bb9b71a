import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import { allListed, type FormFieldName } from '../schema/enquiry-rules.ts';
import { readManifest } from '../serve/manifest.ts';
import { escapeForTerminal, neutraliseFormula, safeJson } from '../serve/personal-data/visible.ts';
import { DATABASE_FILE } from '../serve/store/sqlite-store.ts';
import type { ListedEnquiry, StoredEnquiry } from '../serve/store/store.ts';
import { EXIT } from './common.ts';
import { storeNote } from './database.ts';
import { inboxNotes } from './enquiries-notes.ts';
import { readAll, storeName } from './enquiries-store.ts';
import { writePrivateFile } from './private-file.ts';
import type { ExportOptions, InboxOptions, ListOptions } from './usage.ts';

interface Row extends StoredEnquiry {
  courseLabel: string;
  emailSent: boolean;
  /** The mail server's reply when it refused the e-mail for good (`content enquiries resend ID` sends it again). */
  emailFailed?: string;
}

async function load(opts: InboxOptions, log: Logger): Promise<Row[]> {
  log.note(storeNote(opts, join(opts.data, DATABASE_FILE)));
  return rows(opts, await readAll(opts));
}

/** `--since` (a real date, checked by its parser): its first millisecond, in UTC. */
function sinceOf(opts: InboxOptions): number | undefined {
  return opts.since ? Date.parse(`${opts.since}T00:00:00Z`) : undefined;
}

function rows(opts: InboxOptions, enquiries: ListedEnquiry[], since = sinceOf(opts)): Row[] {
  const labels = new Map(readManifest(opts.out)?.options.map((o) => [o.value, o.label]));
  return enquiries
    .filter((e) => since === undefined || Date.parse(e.receivedAt) >= since)
    .map(({ mail, ...e }) => ({
      ...e,
      courseLabel: labels.get(e.course) ?? e.course,
      emailSent: mail.state === 'sent',
      ...(mail.state === 'failed' ? { emailFailed: mail.error } : {}),
    }));
}

/** What a visitor typed, as one table cell safe for a terminal: line breaks and tabs as spaces, other controls shown as \uXXXX. */
const visible = (s: string, max: number) => {
  const t = escapeForTerminal(
    String(s ?? '')
      .replace(/[\r\n\t]+/g, ' ')
      .trim(),
  );
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** `content enquiries list`: the newest last, as a table for people or JSON for programs; `--spam`: the suspected spam kept aside. */
export async function listCommand(opts: ListOptions, log: Logger): Promise<number> {
  const all = await load(opts, log);
  const rows = all.filter((r) => !!r.spam === !!opts.spam);
  if (opts.format === 'json') {
    log.out(safeJson(rows));
    return EXIT.ok;
  }
  const notes = await inboxNotes(opts, all);
  if (!rows.length) {
    log.info(`No ${opts.spam ? 'suspected spam' : 'enquiries'} in ${where(opts)}${opts.since ? ` since ${opts.since}` : ''}.`);
    for (const note of notes) log.info(note);
    return EXIT.ok;
  }
  const table = rows.map((r) => [
    String(r.id),
    visible(r.receivedAt.slice(0, 16).replace('T', ' '), 16),
    visible(r.name, 28),
    visible(r.courseLabel, 28),
    visible(r.email, 32),
    visible(r.phone ?? '', 20),
    visible(r.locale, 4),
    visible(r.message, 60),
  ]);
  const head = ['#', 'received (UTC)', 'name', 'course', 'e-mail', 'phone', 'lang', 'message'];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  log.out(log.paint.bold(line(head)));
  for (const row of table) log.out(line(row));
  const owed = rows.filter((r) => r.notify && !r.emailSent && !r.emailFailed).length;
  const kind = opts.spam ? 'suspected spam' : `enquir${rows.length === 1 ? 'y' : 'ies'}`;
  log.info(`${rows.length} ${kind}${owed ? `; ${owed} e-mail${owed === 1 ? '' : 's'} to the studio still owed` : ''}.`);
  for (const r of rows.filter((x) => x.emailFailed))
    log.warn(
      `the mail server refused the e-mail for enquiry ${r.id} for good: ${visible(r.emailFailed!, 200)} (content enquiries resend ${r.id} sends it again)`,
    );
  if (opts.spam) log.info(`Not e-mailed to the studio. If one is a person's: content enquiries restore ID (it is then e-mailed).`);
  for (const note of notes) log.info(note);
  return EXIT.ok;
}

const COLUMNS = ['id', 'receivedAt', 'name', 'course', 'courseLabel', 'email', 'phone', 'locale', 'message', 'page', 'via', 'emailSent'] as const;
// Every field a visitor fills in is a column.
allListed<Exclude<FormFieldName, (typeof COLUMNS)[number]>>();

/**
 * The CSV separator: a semicolon, as Excel in a German locale expects. Excel splits a CSV it
 * opens by double-click at the list separator of the Windows region settings, which is `;`
 * wherever the decimal mark is a comma (Germany, Austria, Switzerland, Russia); with `,` the
 * whole row lands in column A there. No `sep=;` line instead: Excel then ignores the UTF-8 mark
 * (umlauts and Cyrillic turn into mojibake), and every other program reads that line as data.
 */
const SEPARATOR = ';';

/**
 * RFC 4180 cell (quoted when it holds the separator, a quote, CR or LF; a quote doubled): every
 * character the visitor wrote stays as it is, a carriage return included. The one exception: a
 * text a spreadsheet would run as a formula gets a leading apostrophe (see neutraliseFormula).
 * On a terminal, control and bidi characters are shown as \uXXXX instead of acting on it.
 */
function csvCell(value: unknown, forTerminal: boolean): string {
  let s = value === undefined ? '' : String(value);
  if (typeof value === 'string') s = neutraliseFormula(s);
  if (forTerminal) s = escapeForTerminal(s, { keepNewlines: true });
  return /[";\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** `content enquiries export`: every field of every enquiry, as CSV (for a spreadsheet) or JSON. */
export async function exportCommand(opts: ExportOptions, log: Logger): Promise<number> {
  const rows = await load(opts, log);
  // Only a terminal gets control and bidi characters as \uXXXX; a file or a pipe, on standard
  // output as with --output, gets every byte the visitor wrote.
  const forTerminal = !opts.output && log.outIsTerminal;
  const text =
    opts.format === 'json'
      ? `${forTerminal ? safeJson(rows) : JSON.stringify(rows, null, 2)}\n`
      : // A byte-order mark: without it Excel reads the file in the Windows code page, not UTF-8.
        `\uFEFF${[COLUMNS.join(SEPARATOR), ...rows.map((r) => COLUMNS.map((c) => csvCell(r[c], forTerminal)).join(SEPARATOR))].join('\r\n')}\r\n`;
  if (opts.output) {
    writePrivateFile(opts.output, text, { flag: '--output', sites: [opts.out] });
    log.info(`Wrote ${rows.length} enquir${rows.length === 1 ? 'y' : 'ies'} to ${opts.output} (readable only by you).`);
  } else log.out(text.replace(/\r?\n$/, ''));
  return EXIT.ok;
}

/** The store a command reads, for people: the database file, or PostgreSQL without its password. */
const where = storeName;
