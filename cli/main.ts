import { existsSync, readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT } from './commands/common.ts';
import {
  ENQUIRIES_BACKUP,
  ENQUIRIES_ERASE,
  ENQUIRIES_RESEND,
  ENQUIRIES_RESTORE,
  ENQUIRIES_RESTORE_BACKUP,
  ENQUIRIES_SHOW,
} from './commands/enquiries-usage.ts';
import { addCommand, type CommandSpec, markGiven, type OptionsOf, type OptionTable } from './commands/option-table.ts';
import { checkContentDir } from './commands/options.ts';
import { BUILD, DEV, ENQUIRIES, ENQUIRIES_EXPORT, ENQUIRIES_IMPORT, ENQUIRIES_LIST, ENQUIRIES_MIGRATE, I18N, SERVE, VALIDATE } from './commands/usage.ts';
import { createLogger, type Io, processIo } from './logger.ts';
import { fromRoot } from './paths.ts';
import { UsageError } from './report/problem.ts';
import { installedValidatorsFile } from './validate/validators-file.ts';

export { takeSourcesKey } from './paths.ts';

function packageVersion(): string {
  return (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Builds the client bundle of these sources unless it is installed: cli/bin.js calls it when it
 * built a new CLI bundle, so that the two are installed together.
 */
export async function prepareClientBundle(): Promise<void> {
  await (await import('./render/client-assets.ts')).startClientAssets().assets;
}

/**
 * Installs the validators of these sources (compiled from the zod shapes) unless they are: cli/bin.js
 * calls it on every run, so validation never checks by the rules of other sources, nor waits for
 * the compilation. A file test when they are there: the zod shapes are loaded only to compile them.
 */
export async function prepareValidators(): Promise<void> {
  if (!existsSync(installedValidatorsFile())) (await import('./validate/install-validators.ts')).installValidators();
}

/**
 * Builds the program from the commands declared in cli/commands/usage.ts. Commands are thin:
 * each is loaded only when it runs, calls the compiler and returns an exit code. This function
 * is the only place that turns errors into exit codes.
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

  const add = <T extends OptionTable>(parent: Command, spec: CommandSpec<T>, run: (opts: OptionsOf<T>) => Promise<number>) =>
    addCommand(parent, spec).action(async (opts: OptionsOf<T>, command: Command) => setExit(await run(markGiven(opts, command))));
  // Human messages go to stderr when stdout carries JSON.
  const reporting = (opts: { quiet?: boolean; format: string }) => createLogger(io, { quiet: opts.quiet, json: opts.format === 'json' });

  add(program, VALIDATE, async (opts) => (await import('./commands/validate.ts')).validateCommand(opts, reporting(opts)));
  add(program, BUILD, async (opts) => (await import('./commands/build.ts')).buildCommand(opts, reporting(opts)));
  add(program, I18N, async (opts) => (await import('./commands/i18n.ts')).i18nCommand(opts, reporting(opts)));
  add(program, DEV, async (opts) => (await import('./commands/dev.ts')).devCommand(opts, createLogger(io, { quiet: opts.quiet })));
  add(program, SERVE, async (opts) => (await import('./commands/serve.ts')).serveCommand(opts, createLogger(io, { quiet: opts.quiet })));

  const enquiries = program.command(ENQUIRIES.name).description(ENQUIRIES.description);
  add(enquiries, ENQUIRIES_LIST, async (opts) =>
    (await import('./commands/enquiries.ts')).listCommand(opts, createLogger(io, { json: opts.format === 'json' })),
  );
  add(enquiries, ENQUIRIES_EXPORT, async (opts) => (await import('./commands/enquiries.ts')).exportCommand(opts, createLogger(io, { json: !opts.output })));
  add(enquiries, ENQUIRIES_MIGRATE, async (opts) => (await import('./commands/enquiries-db.ts')).migrateCommand(opts, createLogger(io, {})));
  add(enquiries, ENQUIRIES_IMPORT, async (opts) => (await import('./commands/enquiries-db.ts')).importCommand(opts, createLogger(io, {})));
  // Personal data and the store's upkeep (cli/commands/enquiries-usage.ts).
  for (const spec of [ENQUIRIES_RESTORE, ENQUIRIES_RESEND])
    addCommand(enquiries, spec)
      .argument('<id...>', 'enquiry numbers, as "content enquiries list" shows them')
      .action(async (ids: string[], opts: OptionsOf<typeof spec.options>, command: Command) =>
        setExit(
          await (await import('./commands/enquiries-admin.ts')).adminCommand(
            spec.name as 'restore' | 'resend',
            ids,
            markGiven(opts, command),
            createLogger(io, {}),
          ),
        ),
      );
  add(enquiries, ENQUIRIES_SHOW, async (opts) =>
    (await import('./commands/enquiries-person.ts')).showCommand(opts, createLogger(io, { json: opts.format === 'json' })),
  );
  add(enquiries, ENQUIRIES_ERASE, async (opts) => (await import('./commands/enquiries-person.ts')).eraseCommand(opts, createLogger(io, {})));
  add(enquiries, ENQUIRIES_BACKUP, async (opts) => (await import('./commands/enquiries-backup.ts')).backupCommand(opts, createLogger(io, {})));
  addCommand(enquiries, ENQUIRIES_RESTORE_BACKUP)
    .argument('<file>', 'the backup file')
    .action(async (file: string, opts: OptionsOf<typeof ENQUIRIES_RESTORE_BACKUP.options>, command: Command) =>
      setExit(await (await import('./commands/enquiries-backup.ts')).restoreBackupCommand(file, markGiven(opts, command), createLogger(io, {}))),
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
