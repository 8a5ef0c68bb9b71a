import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { EXIT } from './commands/common.ts';
import { checkContentDir, parseBaseUrl, parsePort, parseToday } from './commands/options.ts';
import { createLogger, type Io, processIo } from './logger.ts';
import { fromRoot } from './paths.ts';
import { UsageError } from './report/problem.ts';

const withCommon = (cmd: Command, formats = ['human', 'json', 'github']) =>
  cmd
    .option('--content <dir>', 'the content directory', 'content')
    .addOption(new Option('--format <format>', 'output format').choices(formats).default('human'))
    .option('--quiet', 'print only errors and the summary');

function packageVersion(): string {
  return (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Builds the program. Commands are thin: they parse options, call the compiler lazily and
 * return an exit code. This function is the only place that turns errors into exit codes.
 */
export function createProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('content')
    .description('The studio site compiler: validate content, check translations, build and serve the site.')
    .version(packageVersion(), '-v, --version', 'print the version of the compiler')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    // --content is checked before any command reads it (its default is not passed to a parser).
    .hook('preAction', (_, command) => {
      const { content } = command.opts<{ content?: string }>();
      if (typeof content === 'string') checkContentDir(content);
    });

  const run =
    <A extends unknown[]>(action: (...args: A) => Promise<number>) =>
    async (...args: A) =>
      setExit(await action(...args));

  withCommon(program.command('validate'))
    .description('Check every content file against its schema and the other files; print every problem with its place.')
    .option('--today <date>', 'the date banners expire against (YYYY-MM-DD); default: today', parseToday)
    .option('--verbose', 'list every placeholder in full instead of one line per file')
    .option('--strict', 'fail (exit 1) on any warning too, placeholders included: the gate before publishing')
    .action(
      run(async (opts: import('./commands/validate.ts').ValidateOptions) => {
        const { validateCommand } = await import('./commands/validate.ts');
        return validateCommand(opts, createLogger(io, { quiet: opts.quiet, json: opts.format === 'json' }));
      }),
    );

  withCommon(program.command('build'))
    .description('Validate, then prerender every route in every locale to static HTML.')
    .option('--out <dir>', 'the output directory', 'dist')
    .option('--base-url <url>', "the site's public address (default: baseUrl in site.yaml)", parseBaseUrl)
    .option('--today <date>', 'the date banners expire against (YYYY-MM-DD); default: today', parseToday)
    .addOption(
      new Option('--renderer <renderer>', 'react: fast, in parallel; vike: every page through Vike (the reference, slower)')
        .choices(['react', 'vike'])
        .default('react'),
    )
    .option('--verbose', 'list every placeholder in full instead of one line per file')
    .option('--strict', 'refuse to build while there is any warning, placeholders included: the gate before publishing')
    .action(
      run(async (opts: import('./commands/build.ts').BuildCommandOptions) => {
        const { buildCommand } = await import('./commands/build.ts');
        return buildCommand(opts, createLogger(io, { quiet: opts.quiet, json: opts.format === 'json' }));
      }),
    );

  withCommon(program.command('i18n'), ['human', 'json', 'github', 'markdown'])
    .description('Report translation coverage of en and de against the Russian source: missing, stale, mismatched texts.')
    .option('--locale <locale>', 'check one locale only (en or de)')
    .option('--strict', 'exit with 1 when a translation is missing or stale (for CI)')
    .option('--confirm', 'record that the current translations were checked against the current Russian texts')
    .action(
      run(async (opts: import('./commands/i18n.ts').I18nOptions) => {
        const { i18nCommand } = await import('./commands/i18n.ts');
        return i18nCommand(opts, createLogger(io, { quiet: opts.quiet, json: opts.format === 'json' }));
      }),
    );

  withCommon(program.command('dev'))
    .description('Live preview for editing content: every page in every locale, reloaded when a file is saved.')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', parsePort, 4173)
    .action(
      run(async (opts: import('./commands/dev.ts').DevOptions) => {
        const { devCommand } = await import('./commands/dev.ts');
        return devCommand(opts, createLogger(io, { quiet: opts.quiet }));
      }),
    );

  program
    .command('serve')
    .description('Serve the built site and receive the enquiry form into an inbox on disk (and e-mail the studio).')
    .option('--out <dir>', 'the built site', 'dist')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', parsePort, 8080)
    .option('--data <dir>', 'where the enquiry inbox is kept', '.enquiries')
    .option('--database <url>', 'keep enquiries in PostgreSQL instead (postgres://user@host/db; the password in PGPASSWORD)')
    .option('--rate-limit <n>', 'enquiries one address may send in 10 minutes (0: no limit)', '20')
    .option('--min-fill-seconds <s>', 'an enquiry sent sooner after the form appeared is taken for a bot and dropped', '3')
    .option('--origin <url...>', "more origins allowed to post enquiries (the server's own address and baseUrl always are)")
    .option(
      '--trust-proxy [hops]',
      'behind reverse proxies (default: one): the client address is the one the outermost trusted proxy appended to X-Forwarded-For',
    )
    .option('--quiet', 'log only problems')
    .addHelpText(
      'after',
      `
E-mail to the studio (optional; form.notify in site.yaml turns it on):
  STUDIO_SMTP_URL    the SMTP server with its credentials, e.g. smtps://user:password@mail.example.org:465
  STUDIO_SMTP_FROM   the sender (default: the studio's own address)
  STUDIO_NOTIFY_TO   the recipient, instead of the address in site.yaml

Enquiries in PostgreSQL (several instances share one database):
  STUDIO_DATABASE_URL  the database, e.g. postgres://studio:password@db.example.org/studio (instead of --database)
  PGPASSWORD           the password for an address given with --database`,
    )
    .action(
      run(async (opts: import('./commands/serve.ts').ServeCommandOptions) => {
        const { serveCommand } = await import('./commands/serve.ts');
        return serveCommand(opts, createLogger(io, { quiet: opts.quiet }));
      }),
    );

  const enquiries = program.command('enquiries').description('Read the enquiry inbox that "content serve" keeps.');
  const inboxOptions = (cmd: Command, formats: string[], fallback: string) =>
    cmd
      .option('--data <dir>', 'the enquiry inbox', '.enquiries')
      .option('--database <url>', 'read from PostgreSQL instead (or STUDIO_DATABASE_URL; the password in PGPASSWORD)')
      .option('--out <dir>', 'the built site (for the course names)', 'dist')
      .option('--since <date>', 'only enquiries received on or after this date (YYYY-MM-DD)')
      .addOption(new Option('--format <format>', 'output format').choices(formats).default(fallback));
  inboxOptions(enquiries.command('list').description('Show the enquiries as a table.'), ['human', 'json'], 'human').action(
    run(async (opts: import('./commands/enquiries.ts').EnquiriesOptions) => {
      const { listCommand } = await import('./commands/enquiries.ts');
      return listCommand(opts, createLogger(io, { json: opts.format === 'json' }));
    }),
  );
  inboxOptions(enquiries.command('export').description('Write every enquiry as CSV (for a spreadsheet) or JSON.'), ['csv', 'json'], 'csv')
    .option('--output <file>', 'write to this file instead of standard output')
    .action(
      run(async (opts: import('./commands/enquiries.ts').EnquiriesOptions) => {
        const { exportCommand } = await import('./commands/enquiries.ts');
        return exportCommand(opts, createLogger(io, { json: !opts.output }));
      }),
    );

  enquiries
    .command('migrate')
    .description('Create or upgrade the enquiry tables in PostgreSQL ("content serve --database" also does it when it starts).')
    .option('--database <url>', 'the database (or STUDIO_DATABASE_URL; the password in PGPASSWORD)')
    .action(
      run(async (opts: { database?: string }) => {
        const { migrateCommand } = await import('./commands/enquiries-db.ts');
        return migrateCommand(opts, createLogger(io, {}));
      }),
    );
  enquiries
    .command('import')
    .description('Copy a file inbox into PostgreSQL; safe to run again (nothing is imported twice).')
    .option('--data <dir>', 'the file inbox', '.enquiries')
    .option('--database <url>', 'the database (or STUDIO_DATABASE_URL; the password in PGPASSWORD)')
    .action(
      run(async (opts: { data: string; database?: string }) => {
        const { importCommand } = await import('./commands/enquiries-db.ts');
        return importCommand(opts, createLogger(io, {}));
      }),
    );

  return program;
}

/** Runs the CLI with `argv` (without node and script) and resolves to the exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let code: number = EXIT.ok;
  const program = createProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    return handleError(error, io);
  }
}

export function handleError(error: unknown, io: Io): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    return EXIT.usage;
  }
  if (error instanceof UsageError) {
    io.err(`error: ${error.message}`);
    if (error.hint) io.err(`hint: ${error.hint}`);
    return EXIT.usage;
  }
  const e = error as Error;
  io.err(`internal error: ${e?.message ?? String(error)}`);
  io.err('This is a bug in the site compiler, not in your content. Please report it with the command you ran and the output below.');
  if (e?.stack) io.err(e.stack);
  return EXIT.internal;
}
