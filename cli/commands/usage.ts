import { LOCALES, localeList, TRANSLATED_LOCALES } from '../locales.ts';
import { commonOptions, FORMATS, formatOption } from './common.ts';
import { defineCommand, type OptionsOf } from './option-table.ts';
import { parseBaseUrl, parseDate, parseOrigin, parsePort, parseToday } from './options.ts';

/**
 * What every command is called, what it does and which options it takes, declared once:
 * main.ts makes the commander program from these, and each command in this folder takes the
 * type of its parsed options from here. This module stays light (no compiler behind it), as
 * main.ts loads it for every run and the commands themselves only when they run.
 */

const today = { flag: '--today <date>', description: 'the date banners expire against (YYYY-MM-DD); default: today', parse: parseToday } as const;
const verbose = { flag: '--verbose', description: 'list every placeholder in full instead of one line per file' } as const;
const host = { flag: '--host <host>', description: 'address to listen on', default: '127.0.0.1' } as const;
const database = (description: string) => ({ flag: '--database <url>', description }) as const;
const THE_DATABASE = 'the database (or STUDIO_DATABASE_URL; the password in PGPASSWORD)';

export const VALIDATE = defineCommand({
  name: 'validate',
  description: 'Check every content file against its schema and the other files; print every problem with its place.',
  options: {
    ...commonOptions(FORMATS),
    today,
    verbose,
    strict: { flag: '--strict', description: 'fail (exit 1) on any warning too, placeholders included: the gate before publishing' },
  },
});
export type ValidateOptions = OptionsOf<typeof VALIDATE.options>;

export const BUILD = defineCommand({
  name: 'build',
  description: 'Validate, then prerender every route in every locale to static HTML.',
  options: {
    ...commonOptions(FORMATS),
    out: { flag: '--out <dir>', description: 'the output directory', default: 'dist' },
    baseUrl: { flag: '--base-url <url>', description: "the site's public address (default: baseUrl in site.yaml)", parse: parseBaseUrl },
    today,
    renderer: {
      flag: '--renderer <renderer>',
      description: 'react: fast, in parallel; vike: every page through Vike (the reference, slower)',
      choices: ['react', 'vike'],
      default: 'react',
    },
    verbose,
    strict: { flag: '--strict', description: 'refuse to build while there is any warning, placeholders included: the gate before publishing' },
  },
});
export type BuildCommandOptions = OptionsOf<typeof BUILD.options>;

export const I18N = defineCommand({
  name: 'i18n',
  description: `Report translation coverage of ${localeList(TRANSLATED_LOCALES)} against the Russian source: missing, stale, mismatched texts.`,
  options: {
    ...commonOptions([...FORMATS, 'markdown']),
    locale: { flag: '--locale <locale>', description: `check one locale only (${localeList(TRANSLATED_LOCALES, 'or')})` },
    strict: { flag: '--strict', description: 'exit with 1 when a translation is missing or stale (for CI)' },
    confirm: { flag: '--confirm', description: 'record that the current translations were checked against the current Russian texts' },
    file: {
      flag: '--file <file[:line]>',
      description: 'with --confirm: only the texts of this file, or the one text at this line (content/faq.yaml:42)',
    },
  },
  helpAfter: `
Confirm what you checked, not more (a translation is stale when its Russian text changed since):
  content i18n --confirm --locale de                 every German translation
  content i18n --confirm --file content/faq.yaml     every translation of one file
  content i18n --confirm --file content/faq.yaml:42  one text: the line of its ${localeList(LOCALES, 'or')}, as the report gives it
                                                     (a line of a translation confirms that language only)`,
});
export type I18nOptions = OptionsOf<typeof I18N.options>;

export const DEV = defineCommand({
  name: 'dev',
  description: 'Live preview for editing content: every page in every locale, reloaded when a file is saved.',
  // No --format: the preview is for a person at a terminal, and shows problems in the page too.
  options: {
    content: commonOptions(FORMATS).content,
    quiet: commonOptions(FORMATS).quiet,
    host,
    port: { flag: '--port <port>', description: 'port to listen on', parse: parsePort, default: 4173 },
  },
});
export type DevOptions = OptionsOf<typeof DEV.options>;

export const SERVE = defineCommand({
  name: 'serve',
  description: 'Serve the built site and receive the enquiry form into a database on disk (and e-mail the studio).',
  options: {
    out: { flag: '--out <dir>', description: 'the built site', default: 'dist' },
    host,
    port: { flag: '--port <port>', description: 'port to listen on (0: any free port)', parse: parsePort, default: 8080 },
    data: { flag: '--data <dir>', description: 'the folder of the enquiry database (SQLite, enquiries.db)', default: '.enquiries' },
    /** Without it STUDIO_DATABASE_URL; without both, the SQLite database in --data. */
    database: database('keep enquiries in PostgreSQL instead (postgres://user@host/db; the password in PGPASSWORD)'),
    // Kept as text: serveCommand checks the numbers (parseNumber).
    rateLimit: { flag: '--rate-limit <n>', description: 'enquiries one address may send in 10 minutes (0: no limit)', default: '20' },
    minFillSeconds: {
      flag: '--min-fill-seconds <s>',
      description: 'an enquiry sent sooner after the form appeared is kept aside as suspected spam (not e-mailed)',
      default: '3',
    },
    origin: {
      flag: '--origin <url...>',
      description: "more origins allowed to post enquiries (the server's own address and baseUrl always are)",
      parse: parseOrigin,
    },
    /** Alone: true (one proxy); with a value: the number of proxies in front. */
    trustProxy: {
      flag: '--trust-proxy [hops]',
      description: 'behind reverse proxies (default: one): the client address is the one the outermost trusted proxy appended to X-Forwarded-For',
    },
    /** Kept as text: serveCommand checks it (parseWholeNumber); without it STUDIO_KEEP_DAYS, else DEFAULT_KEEP_DAYS. */
    keepDays: {
      flag: '--keep-days <n>',
      description: 'delete enquiries this many days after they arrive (default: form.keepDays of the built site, 180 unless set; or STUDIO_KEEP_DAYS)',
    },
    quiet: { flag: '--quiet', description: 'log only problems' },
  },
  helpAfter: `
E-mail to the studio (optional; form.notify in site.yaml turns it on):
  STUDIO_SMTP_URL    the SMTP server with its credentials, e.g. smtps://user:password@mail.example.org:465
  STUDIO_SMTP_FROM   the sender (default: the studio's own address)
  STUDIO_NOTIFY_TO   the recipient, instead of the address in site.yaml

Storage limitation (GDPR): enquiries are deleted --keep-days after they arrive (checked hourly), with their e-mail
jobs and duplicate keys; STUDIO_KEEP_DAYS sets it when --keep-days is not given.

Enquiries in PostgreSQL (several instances share one database):
  STUDIO_DATABASE_URL  the database, e.g. postgres://studio:password@db.example.org/studio (instead of --database)
  PGPASSWORD           the password for an address given with --database`,
});
export type ServeCommandOptions = OptionsOf<typeof SERVE.options>;

/** `content enquiries` has only subcommands. */
export const ENQUIRIES = { name: 'enquiries', description: 'Read and look after the enquiries that "content serve" keeps.' };

/** Where `list` and `export` read the enquiries from. */
const inbox = {
  data: { flag: '--data <dir>', description: 'the folder of the enquiry database (enquiries.db)', default: '.enquiries' },
  /** Read from PostgreSQL instead of the SQLite database in `data`. */
  database: database('read from PostgreSQL instead (or STUDIO_DATABASE_URL; the password in PGPASSWORD)'),
  out: { flag: '--out <dir>', description: 'the built site (for the course names)', default: 'dist' },
  since: { flag: '--since <date>', description: 'only enquiries received on or after this date (YYYY-MM-DD, UTC)', parse: parseDate('--since') },
} as const;
export type InboxOptions = OptionsOf<typeof inbox>;

export const ENQUIRIES_LIST = defineCommand({
  name: 'list',
  description: 'Show the enquiries as a table.',
  options: {
    ...inbox,
    format: formatOption(['human', 'json'], 'human'),
    spam: { flag: '--spam', description: 'show the suspected spam kept aside instead (not e-mailed; "content enquiries restore ID" takes one back)' },
  },
});
export type ListOptions = OptionsOf<typeof ENQUIRIES_LIST.options>;

export const ENQUIRIES_EXPORT = defineCommand({
  name: 'export',
  description: 'Write every enquiry as CSV (for a spreadsheet) or JSON.',
  options: {
    ...inbox,
    format: formatOption(['csv', 'json'], 'csv'),
    output: { flag: '--output <file>', description: 'write to this file instead of standard output' },
  },
});
export type ExportOptions = OptionsOf<typeof ENQUIRIES_EXPORT.options>;

export const ENQUIRIES_MIGRATE = defineCommand({
  name: 'migrate',
  description: 'Create or upgrade the enquiry tables in PostgreSQL ("content serve --database" also does it when it starts).',
  options: { database: database(THE_DATABASE) },
});
export type MigrateOptions = OptionsOf<typeof ENQUIRIES_MIGRATE.options>;

export const ENQUIRIES_IMPORT = defineCommand({
  name: 'import',
  description: 'Copy the enquiries of --data (the SQLite database, or an old file inbox) into PostgreSQL; safe to run again (nothing is imported twice).',
  options: {
    data: { flag: '--data <dir>', description: 'the folder of the enquiry database (or of an old file inbox)', default: '.enquiries' },
    database: database(THE_DATABASE),
  },
});
export type ImportOptions = OptionsOf<typeof ENQUIRIES_IMPORT.options>;
