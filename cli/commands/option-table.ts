import { type Command, Option } from 'commander';

/**
 * One option of a command, declared once: main.ts hands it to commander, and the command takes
 * the type of the parsed value from it (OptionsOf), so the two cannot drift apart.
 */
export interface OptionSpec {
  /** As commander reads it: `--out <dir>` (a value), `--origin <url...>` (several), `--trust-proxy [hops]` (a value or none), `--quiet` (a switch). */
  flag: string;
  description: string;
  /** Taken as it is: commander does not pass a default through `parse`. */
  default?: unknown;
  /** Turns the text given into the value, or throws a UsageError. Not together with `choices`. */
  parse?: (value: string) => unknown;
  choices?: readonly string[];
}

/** The options of one command, by the name the command reads each value by (commander's camel-cased name of the flag). */
export type OptionTable = Record<string, OptionSpec>;

/** What commander makes of a flag without `parse` or `choices`: a switch is `true` when given. */
type Given<F extends string> = F extends `${string}...${'>' | ']'}`
  ? string[]
  : F extends `${string}<${string}>`
    ? string
    : F extends `${string}[${string}]`
      ? string | true
      : true;

type ValueOf<S extends OptionSpec> = S extends { choices: readonly (infer C)[] } ? C : S extends { parse: (value: string) => infer T } ? T : Given<S['flag']>;

type WithDefault<T extends OptionTable> = { [K in keyof T]: T[K] extends { default: unknown } ? K : never }[keyof T];

/** The parsed options of a command: an option with a default always has a value, the others only when given. */
export type OptionsOf<T extends OptionTable> = { [K in WithDefault<T>]: ValueOf<T[K]> } & {
  [K in Exclude<keyof T, WithDefault<T>>]?: ValueOf<T[K]>;
};

/** A command of the program, declared once (see cli/commands/usage.ts). */
export interface CommandSpec<T extends OptionTable = OptionTable> {
  name: string;
  description: string;
  options: T;
  /** Printed after the options in `--help`. */
  helpAfter?: string;
}

/** Keeps the literal types of a command's declaration (OptionsOf reads them) and checks that each default is a value of its option. */
export function defineCommand<const T extends OptionTable>(
  spec: CommandSpec<T> & { options: { [K in keyof T]: { default?: ValueOf<T[K]> } } },
): CommandSpec<T> {
  return spec;
}

/** Adds `spec` to `parent` as a subcommand with its options, in the order they are declared. */
export function addCommand(parent: Command, spec: CommandSpec): Command {
  const command = parent.command(spec.name).description(spec.description);
  for (const [name, option] of Object.entries(spec.options)) command.addOption(toCommander(name, option));
  if (spec.helpAfter) command.addHelpText('after', spec.helpAfter);
  return command;
}

function toCommander(name: string, spec: OptionSpec): Option {
  const option = new Option(spec.flag, spec.description);
  // The command reads the value by the name it was declared with: it must be the one commander stores it under.
  if (option.attributeName() !== name) throw new Error(`the option ${spec.flag} is declared as "${name}", but commander calls it "${option.attributeName()}"`);
  if (spec.choices) option.choices(spec.choices);
  if (spec.parse) option.argParser(spec.parse);
  if ('default' in spec) option.default(spec.default);
  return option;
}

const GIVEN = Symbol('given on the command line');

/** Records which options the user wrote (not defaults), for `givenOnCommandLine`. */
export function markGiven<T extends object>(opts: T, command: Command): T {
  const given = new Set(Object.keys(opts).filter((name) => command.getOptionValueSource(name) === 'cli'));
  return Object.defineProperty(opts, GIVEN, { value: given, enumerable: false });
}

/** Whether an option was written on the command line, not taken from its default. */
export function givenOnCommandLine(opts: object, name: string): boolean {
  return !!(opts as { [GIVEN]?: Set<string> })[GIVEN]?.has(name);
}
