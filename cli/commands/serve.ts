import { relative } from 'node:path';
import type { Logger } from '../logger.ts';
import { UsageError } from '../report/problem.ts';
import { DEFAULT_KEEP_DAYS } from '../schema/legal.ts';
import { type LogStream, readableLines } from '../serve/http/log-lines.ts';
import { readManifest } from '../serve/manifest.ts';
import type { ServeOptions } from '../serve/server.ts';
import { redactUrl } from '../serve/store/redact-url.ts';
import { SqliteStore } from '../serve/store/sqlite-store.ts';
import { EXIT } from './common.ts';
import { databaseFor } from './database.ts';
import { checkBuiltSite, checkDataDir, parseNumber, parseWholeNumber } from './options.ts';
import type { ServeCommandOptions } from './usage.ts';

/**
 * E-mail settings come from the site facts (whether, to whom) and the environment (how: the
 * SMTP server and its password), never from content. Returns why e-mail is off, if it is, in
 * words /api/health shows anyone (so never the address or the password).
 */
async function mailFromEnvironment(dir: string): Promise<{ mail?: ServeOptions['mail']; off?: string }> {
  const manifest = readManifest(dir);
  if (!manifest?.notify) return { off: 'form.notify is not set in site.yaml' };
  const to = process.env.STUDIO_NOTIFY_TO || manifest.notify.to;
  if (!to) return { off: "the studio's e-mail address in site.yaml is still a placeholder (or set STUDIO_NOTIFY_TO)" };
  const url = process.env.STUDIO_SMTP_URL;
  if (!url) return { off: 'no mail server is set in the environment variable STUDIO_SMTP_URL (smtp:// or smtps://)' };
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

/**
 * `--keep-days`, else STUDIO_KEEP_DAYS, else the period the built site's privacy page states
 * (site.yaml form.keepDays, in the manifest), else the default: whole days, at least 1.
 */
function keepDaysOf(flag: string | undefined, stated: number | undefined): number {
  if (flag !== undefined) return parseWholeNumber(flag, '--keep-days', 1);
  const env = process.env.STUDIO_KEEP_DAYS;
  return env ? parseWholeNumber(env, 'STUDIO_KEEP_DAYS', 1) : (stated ?? DEFAULT_KEEP_DAYS);
}

/**
 * Until SIGTERM, SIGINT or SIGHUP, or until the process that started this one is gone. Under
 * `npx content serve` or `npm run serve`, npm passes a SIGTERM on to the shell it started
 * (`sh -c content serve`), which ends without passing it on: this process is then left to init
 * (its parent changes), and takes that as the signal it never got. Checked twice a second, and
 * only when npm started it: a server an admin started in the background by hand (`nohup … &`)
 * rightly outlives the shell that started it.
 */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const stop = (why: string) => {
      clearInterval(watch);
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeListener(signal, onSignal);
      resolve(why);
    };
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);
    const watch = process.env.npm_execpath
      ? setInterval(() => {
          if (process.ppid !== parent) stop('the process that started it ended');
        }, 500)
      : undefined;
  });
}

/** Runs until SIGTERM, SIGINT or SIGHUP (or its parent ends), then shuts down gracefully. */
export async function serveCommand(opts: ServeCommandOptions, log: Logger): Promise<number> {
  checkBuiltSite(opts.out);
  // An explicit --data wins over STUDIO_DATABASE_URL; with a database, --data is not used.
  const database = databaseFor(opts);
  if (!database) checkDataDir(opts.data, opts.out);
  const { inheritedSocket, startServer } = await import('../serve/server.ts');
  // Started by studio-serve.socket (systemd socket activation): its socket, not --host and --port.
  const listenFd = inheritedSocket();
  const { mail, off } = await mailFromEnvironment(opts.out);
  const stated = readManifest(opts.out)?.keepDays;
  const keepDays = keepDaysOf(opts.keepDays, stated);
  // One log: JSON lines for machines (systemd's journal, a file), short lines on a terminal.
  const logStream: LogStream = log.outIsTerminal ? readableLines(log.out, log.paint) : { write: (line) => log.out(line.replace(/\n$/, '')) };
  const server = await startServer({
    dir: opts.out,
    data: opts.data,
    database,
    host: opts.host,
    port: opts.port,
    listenFd,
    rateLimit: { max: parseNumber(opts.rateLimit, '--rate-limit', 0), windowMs: 10 * 60_000 },
    minFillMs: parseNumber(opts.minFillSeconds, '--min-fill-seconds', 0) * 1000,
    origins: opts.origin,
    trustProxy: typeof opts.trustProxy === 'string' ? parseWholeNumber(opts.trustProxy, '--trust-proxy', 1) : !!opts.trustProxy,
    keepDays,
    mail,
    mailOff: off,
    logStream,
    quiet: opts.quiet,
  });
  const inbox = server.inbox;
  const logger = server.logger;
  logger.info(
    `Serving ${opts.out}/ at ${server.url}   (${server.manifest.locales.map((l) => (l === server.manifest.defaultLocale ? '/' : `/${l}`)).join(' ')})`,
  );
  if (listenFd !== undefined)
    logger.info('Listening on the socket systemd passed (studio-serve.socket): it stays open while this server restarts, and requests wait for the next one.');
  if (inbox instanceof SqliteStore) {
    const where = relative(process.cwd(), inbox.where) || inbox.where;
    const imported = server.imported;
    if (imported) {
      logger.info(
        `Imported the file inbox of the earlier release into ${where}: ${imported.enquiries} enquir${imported.enquiries === 1 ? 'y' : 'ies'}, each read back and compared.`,
      );
      for (const d of imported.damaged)
        logger.warn(
          `${d.source}:${d.line} is not a whole enquiry (${d.why}); kept as a damaged record${d.id ? ` of enquiry ${d.id}` : ''}: content enquiries show --id${d.id ? ` ${d.id}` : ''} shows it, erase removes it`,
        );
      logger.warn(
        `The old files are kept aside, readable by this user only, until you delete them (they hold personal data that erasure no longer reaches): ${imported.keptAside.map((f) => relative(process.cwd(), f) || f).join(', ')}`,
      );
    }
    // Not a count: that reads a whole index (0.2 s at a million enquiries), the newest number is one row.
    const last = inbox.lastId();
    logger.info(`Enquiries: POST ${server.manifest.endpoint} → ${where} (SQLite; ${last ? `the last enquiry number given is ${last}` : 'no enquiries yet'})`);
  } else {
    const health = inbox.health();
    logger.info(`Enquiries: POST ${server.manifest.endpoint} → PostgreSQL ${redactUrl(database!)}`);
    if (!health.ok) logger.warn(`${health.reason}; enquiries are answered 503 until it answers (checked every 2 s)`);
  }
  const outbox = server.outbox as { count?: () => Promise<number>; pending: number } | undefined;
  const owed = outbox?.count ? await outbox.count().catch(() => 0) : (outbox?.pending ?? 0);
  const days = server.inbox.health().retentionDays ?? keepDays;
  logger.info(`Enquiries are deleted ${days} days after they arrive (--keep-days).`);
  if (stated !== undefined && days !== stated)
    logger.warn(`the privacy page says enquiries are deleted after ${stated} days: set form.keepDays: ${days} in site.yaml and rebuild, or drop --keep-days`);
  logger.info(`E-mail to the studio: ${mail ? `on, to ${mail.to}${owed ? ` (${owed} still owed)` : ''}` : `off: ${off}`}`);
  const why = await untilStopped();
  logger.info(`Stopping (${why}): finishing the requests under way…`);
  await server.close();
  logger.info('Stopped; every acknowledged enquiry is in the database.');
  return EXIT.ok;
}
