import { relative } from 'node:path';
import type { Logger } from '../logger.ts';
import { UsageError } from '../report/problem.ts';
import type { ServeEvent } from '../serve/events.ts';
import { Inbox, readInbox } from '../serve/inbox.ts';
import { readManifest } from '../serve/manifest.ts';
import { PgOutbox } from '../serve/pg-outbox.ts';
import { redactUrl } from '../serve/pg-store.ts';
import { DEFAULT_KEEP_DAYS } from '../serve/retention.ts';
import type { ServeOptions } from '../serve/server.ts';
import { EXIT } from './common.ts';
import { databaseUrl } from './database.ts';
import { checkBuiltSite, checkDataDir, parseNumber, parseWholeNumber } from './options.ts';
import type { ServeCommandOptions } from './usage.ts';

/**
 * E-mail settings come from the site facts (whether, to whom) and the environment (how: the
 * SMTP server and its password), never from content. Returns why e-mail is off, if it is.
 */
async function mailFromEnvironment(dir: string): Promise<{ mail?: ServeOptions['mail']; off?: string }> {
  const manifest = readManifest(dir);
  if (!manifest?.notify) return { off: 'off (form.notify is not set in site.yaml)' };
  const to = process.env.STUDIO_NOTIFY_TO || manifest.notify.to;
  if (!to) return { off: "off: the studio's e-mail address in site.yaml is still a placeholder (or set STUDIO_NOTIFY_TO)" };
  const url = process.env.STUDIO_SMTP_URL;
  if (!url) return { off: 'off: set STUDIO_SMTP_URL (e.g. smtps://user:password@mail.example.org:465) to send each enquiry to the studio' };
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error('protocol');
  } catch {
    throw new UsageError('STUDIO_SMTP_URL is not an smtp:// or smtps:// address', 'e.g. smtps://user:password@mail.example.org:465');
  }
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(url);
  const from = process.env.STUDIO_SMTP_FROM || `"${manifest.siteName.replaceAll('"', '')}" <${to}>`;
  return { mail: { mailer: transport, to, from } };
}

/** `--keep-days`, else STUDIO_KEEP_DAYS, else the default: whole days, at least 1. */
function keepDaysOf(flag: string | undefined): number {
  if (flag !== undefined) return parseWholeNumber(flag, '--keep-days', 1);
  const env = process.env.STUDIO_KEEP_DAYS;
  return env ? parseWholeNumber(env, 'STUDIO_KEEP_DAYS', 1) : DEFAULT_KEEP_DAYS;
}

/** Runs until SIGTERM or SIGINT, then shuts down gracefully. */
export async function serveCommand(opts: ServeCommandOptions, log: Logger): Promise<number> {
  checkBuiltSite(opts.out);
  const database = databaseUrl(opts.database);
  // With a database, --data is not used.
  if (!database) checkDataDir(opts.data, opts.out);
  const { startServer } = await import('../serve/server.ts');
  const { mail, off } = await mailFromEnvironment(opts.out);
  const p = log.paint;
  const events = (e: ServeEvent) => {
    // Never the visitor's name or address in the log: the inbox is the only place for them.
    if (e.kind === 'stored') !opts.quiet && log.info(`${p.green('✓')} enquiry ${e.id} ${e.duplicate ? 'was already stored (sent twice)' : 'stored'}`);
    else if (e.kind === 'suspected')
      !opts.quiet &&
        log.info(
          `· enquiry ${e.id} ${e.duplicate ? 'was already kept' : 'kept aside'} as suspected spam (${e.reason === 'honeypot' ? 'hidden field filled' : 'sent too fast'}); not e-mailed: content enquiries list --spam, restore ${e.id}`,
        );
    else if (e.kind === 'mail-sent') !opts.quiet && log.info(`${p.green('✓')} e-mail for enquiry ${e.id} sent`);
    else if (e.kind === 'mail-failed') log.warn(`e-mail for enquiry ${e.id} failed (${e.error}); trying again in ${Math.round(e.retryInMs / 1000)} s`);
    else if (e.kind === 'mail-refused')
      log.warn(`the mail server refused the e-mail for enquiry ${e.id} for good (${e.error}); marked failed: content enquiries resend ${e.id} sends it again`);
    else if (e.kind === 'expired')
      !opts.quiet && log.info(`· deleted ${e.ids.length} enquir${e.ids.length === 1 ? 'y' : 'ies'} older than ${e.days} days (ids ${e.ids.join(', ')})`);
    else if (e.kind === 'error') log.warn(e.error);
  };
  const server = await startServer({
    dir: opts.out,
    data: opts.data,
    database,
    host: opts.host,
    port: opts.port,
    rateLimit: { max: parseNumber(opts.rateLimit, '--rate-limit', 0), windowMs: 10 * 60_000 },
    minFillMs: parseNumber(opts.minFillSeconds, '--min-fill-seconds', 0) * 1000,
    origins: opts.origin,
    trustProxy: typeof opts.trustProxy === 'string' ? parseWholeNumber(opts.trustProxy, '--trust-proxy', 1) : !!opts.trustProxy,
    keepDays: keepDaysOf(opts.keepDays),
    mail,
    log: events,
  });
  const inbox = server.inbox;
  log.info(`Serving ${opts.out}/ at ${server.url}   (${server.manifest.locales.map((l) => (l === server.manifest.defaultLocale ? '/' : `/${l}`)).join(' ')})`);
  if (inbox instanceof Inbox) {
    const inboxFile = relative(process.cwd(), `${inbox.dir}/enquiries.jsonl`) || 'enquiries.jsonl';
    if (inbox.recovered) log.warn(`the inbox ended in a half-written line (a crash); it was never acknowledged and is kept in ${inbox.recovered}`);
    log.info(`Enquiries: POST ${server.manifest.endpoint} → ${inboxFile} (${readInbox(inbox.dir).enquiries.length} stored so far)`);
  } else {
    const health = inbox.health();
    log.info(`Enquiries: POST ${server.manifest.endpoint} → PostgreSQL ${redactUrl(database!)}`);
    if (!health.ok) log.warn(`${health.reason}; enquiries are answered 503 until it answers (checked every 2 s)`);
  }
  const owed = server.outbox instanceof PgOutbox ? await server.outbox.count().catch(() => 0) : (server.outbox?.pending ?? 0);
  const days = server.inbox.health().retentionDays ?? keepDaysOf(opts.keepDays);
  log.info(`Enquiries are deleted ${days} days after they arrive (--keep-days).`);
  log.info(`E-mail to the studio: ${mail ? `on, to ${mail.to}${owed ? ` (${owed} still owed)` : ''}` : off}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('Stopping: finishing the requests under way…');
  await server.close();
  log.info(`Stopped; every acknowledged enquiry is ${inbox instanceof Inbox ? 'on disk' : 'in the database'}.`);
  return EXIT.ok;
}
