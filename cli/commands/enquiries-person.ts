import type { Logger } from '../logger.ts';
import { UsageError } from '../report/problem.ts';
import type { FormFieldName } from '../schema/enquiry-rules.ts';
import { escapeForTerminal, safeJson } from '../serve/personal-data/visible.ts';
import type { DamagedRecord, Selection } from '../serve/store/sqlite-store.ts';
import type { ListedEnquiry } from '../serve/store/store.ts';
import { EXIT } from './common.ts';
import { parseIds } from './enquiries-admin.ts';
import { change, find, type StoreChoice, storeName } from './enquiries-store.ts';
import type { EraseOptions, ShowOptions } from './enquiries-usage.ts';

/**
 * The address to look for, as typed. It is text from anyone (pasted from an e-mail, a script):
 * control, format and blank characters are refused, never matched or printed raw.
 */
export function parseAddress(text: string): string {
  const shown = escapeForTerminal(text.slice(0, 300));
  if (/[\p{Cc}\p{Cf}\p{Z}]/u.test(text) || text.length > 254 || !/^[^@]+@[^@]+$/.test(text))
    throw new UsageError(
      `--email ${JSON.stringify(shown)} is not an e-mail address as the form stores one`,
      'give the address exactly as it is in "content enquiries list" (no spaces or control characters; upper and lower case do not matter)',
    );
  return text;
}

/** What `--email` or `--id` names: the same address as foldAddress compares it (no trimming, no other likeness), or these numbers. */
function selectionOf(opts: { email?: string; id?: string[] }): Selection {
  if ((opts.email === undefined) === (opts.id === undefined)) throw new UsageError('say whose data: --email ADDRESS or --id N (one of them)');
  if (opts.email !== undefined) return { email: parseAddress(opts.email) };
  return { ids: parseIds(opts.id!) };
}

/** The enquiries (and damaged records of an imported file inbox) `--email` or `--id` name, found by the store's index. */
function select(opts: StoreChoice & { email?: string; id?: string[] }): Promise<{ found: ListedEnquiry[]; damaged: DamagedRecord[] }> {
  return find(opts, selectionOf(opts));
}

const MAIL = {
  none: 'none asked for',
  owed: 'still owed (sent when the mail server takes it)',
  sent: 'sent',
  failed: 'refused by the mail server',
} as const;

/** `content enquiries show`: everything the store holds about one person, field by field. */
export async function showCommand(opts: ShowOptions, log: Logger): Promise<number> {
  const { found, damaged } = await select(opts);
  if (opts.format === 'json') {
    log.out(safeJson(damaged.length ? [...found, ...damaged.map((d) => ({ damaged: true, ...d }))] : found));
    return EXIT.ok;
  }
  if (!found.length && !damaged.length) {
    log.info(`Nothing is stored about ${opts.email !== undefined ? 'this address' : 'these enquiries'} in ${storeName(opts)}.`);
    return EXIT.ok;
  }
  const t = (s: string | undefined) => escapeForTerminal(s ?? '');
  for (const e of found) {
    log.out(log.paint.bold(`Enquiry ${e.id}`));
    // Each field the visitor filled in (a field missing here does not compile); the message, long, comes last.
    const filledIn: Record<Exclude<FormFieldName, 'message'>, [string, string]> = {
      name: ['name', t(e.name)],
      email: ['e-mail', t(e.email)],
      phone: ['phone', t(e.phone) || '—'],
      course: ['course', t(e.course)],
    };
    const rows: [string, string][] = [
      ['received', e.receivedAt],
      ...Object.values(filledIn),
      ['language', t(e.locale)],
      ['page', t(e.page)],
      ['sent by', e.via === 'json' ? 'the form with its script' : 'the plain form'],
      ['form key', t(e.idempotencyKey) || '—'],
      ['suspected spam', e.spam ? (e.spam === 'honeypot' ? 'yes (hidden field filled)' : 'yes (sent too fast)') : 'no'],
      [
        'e-mail to studio',
        `${MAIL[e.mail.state]}${e.mail.state === 'sent' || e.mail.state === 'failed' ? ` at ${e.mail.at}` : ''}${e.mail.state === 'failed' ? `: ${t(e.mail.error)}` : ''}`,
      ],
    ];
    for (const [k, v] of rows) log.out(`  ${k.padEnd(17)}${v}`);
    log.out(
      `  message\n${escapeForTerminal(e.message, { keepNewlines: true })
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}`,
    );
  }
  for (const d of damaged) {
    log.out(log.paint.bold(`Damaged record ${d.source}:${d.line}${d.id ? ` (enquiry ${d.id})` : ''}`));
    log.out(`  ${'received'.padEnd(17)}${d.receivedAt}`);
    log.out(`  as it was kept, cut off by a crash\n    ${escapeForTerminal(d.text, { keepNewlines: true }).split('\n').join('\n    ')}`);
  }
  log.info(
    `${found.length} enquir${found.length === 1 ? 'y' : 'ies'}${damaged.length ? ` and ${damaged.length} damaged record${damaged.length === 1 ? '' : 's'} of the old file inbox` : ''} in ${storeName(opts)}. Copies may also be in the studio's mailbox and in backups of the inbox.`,
  );
  return EXIT.ok;
}

/** Asks on the terminal; no terminal: no. */
async function askOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim().toLowerCase() === 'yes';
  } finally {
    rl.close();
  }
}

/**
 * `content enquiries erase`: removes every trace of the enquiries one person sent (or the ones
 * named by id): from the database (its log checkpointed, so no copy stays there), the e-mail
 * queue, the idempotency keys and the duplicate window. Only what was shown and confirmed is erased; an enquiry from the
 * same address that arrives meanwhile is kept and reported, never erased unseen.
 */
export async function eraseCommand(opts: EraseOptions, log: Logger, ask = askOnTerminal): Promise<number> {
  const { found, damaged } = await select(opts);
  const ids = found.map((e) => e.id);
  if (!ids.length && !damaged.length) {
    log.info(`Nothing is stored about ${opts.email !== undefined ? 'this address' : 'these enquiries'} in ${storeName(opts)}; nothing erased.`);
    return EXIT.ok;
  }
  const what = `${ids.length} enquir${ids.length === 1 ? 'y' : 'ies'} (${ids.map((id) => `#${id}`).join(', ')})${damaged.length ? ` and ${damaged.length} damaged record${damaged.length === 1 ? '' : 's'} of the old file inbox` : ''}`;
  log.info(
    `Erases ${what} from ${storeName(opts)}, with ${ids.length === 1 ? 'its e-mail job and duplicate keys' : 'their e-mail jobs and duplicate keys'}. This cannot be undone.`,
  );
  if (!opts.yes) {
    if (!(await ask('Type "yes" to erase them: ')))
      throw new UsageError(
        `nothing erased: not confirmed${process.stdin.isTTY ? '' : ' (no terminal to ask on)'}`,
        'run it in a terminal and type yes, or add --yes in a script',
      );
  }
  const erased = await change(opts, { op: 'erase', ids, damaged, why: 'on request (content enquiries erase)' });
  log.info(`erased ${erased.length} enquir${erased.length === 1 ? 'y' : 'ies'}, ids ${erased.join(', ') || '—'}, at ${new Date().toISOString()}`);
  const gone = new Set(erased);
  const missed = ids.filter((id) => !gone.has(id));
  if (missed.length) log.warn(`${missed.map((id) => `#${id}`).join(', ')} ${missed.length === 1 ? 'was' : 'were'} already gone (erased meanwhile)`);
  if (opts.email !== undefined) {
    const later = (await select(opts)).found;
    if (later.length)
      log.warn(
        `${later.length} more enquir${later.length === 1 ? 'y' : 'ies'} from this address arrived meanwhile (${later.map((e) => `#${e.id}`).join(', ')}), not erased: run the command again`,
      );
  }
  log.info("Copies may remain in the studio's mailbox and in backups of the inbox: delete them there too.");
  return EXIT.ok;
}
