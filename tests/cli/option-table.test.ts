import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addCommand, type CommandSpec, defineCommand, type OptionsOf } from '../../cli/commands/option-table.ts';
import * as usage from '../../cli/commands/usage.ts';
import { runCli } from '../helpers/cli.ts';

const SAMPLE = defineCommand({
  name: 'sample',
  description: 'every kind of option',
  options: {
    out: { flag: '--out <dir>', description: 'a value with a default', default: 'dist' },
    baseUrl: { flag: '--base-url <url>', description: 'a value' },
    port: { flag: '--port <port>', description: 'a parsed value', parse: Number, default: 80 },
    renderer: { flag: '--renderer <renderer>', description: 'a choice', choices: ['react', 'vike'], default: 'react' },
    origin: { flag: '--origin <url...>', description: 'several values' },
    trustProxy: { flag: '--trust-proxy [hops]', description: 'a value or none' },
    quiet: { flag: '--quiet', description: 'a switch' },
  },
});

/** The options commander parses from `argv` for the declaration. */
function parse(argv: string[]): OptionsOf<typeof SAMPLE.options> {
  let parsed: OptionsOf<typeof SAMPLE.options> | undefined;
  const program = new Command().exitOverride();
  addCommand(program, SAMPLE).action((opts: OptionsOf<typeof SAMPLE.options>) => {
    parsed = opts;
  });
  program.parse(['sample', ...argv], { from: 'user' });
  return parsed!;
}

describe('an option table', () => {
  it('gives the defaults, and only those, when nothing is given', () => {
    expect(parse([])).toEqual({ out: 'dist', port: 80, renderer: 'react' });
  });

  it('gives each value under its declared name, parsed', () => {
    const opts = parse(['--base-url', 'https://a.example', '--port', '8080', '--renderer', 'vike', '--origin', 'a', 'b', '--trust-proxy', '--quiet']);
    expect(opts).toEqual({ out: 'dist', baseUrl: 'https://a.example', port: 8080, renderer: 'vike', origin: ['a', 'b'], trustProxy: true, quiet: true });
    expect(parse(['--trust-proxy', '2']).trustProxy).toBe('2');
  });

  it('refuses a value outside the choices', () => {
    expect(() => parse(['--renderer', 'svelte'])).toThrow(/Allowed choices are react, vike/);
  });

  it('refuses a declaration whose name is not the one commander gives the flag', () => {
    const wrong = defineCommand({ name: 'wrong', description: '', options: { base: { flag: '--base-url <url>', description: '' } } });
    expect(() => addCommand(new Command(), wrong)).toThrow(/--base-url <url> is declared as "base", but commander calls it "baseUrl"/);
  });
});

describe('the declared commands', () => {
  const commands: { path: string[]; spec: CommandSpec }[] = [usage.VALIDATE, usage.BUILD, usage.I18N, usage.DEV, usage.SERVE].map((c) => ({
    path: [c.name],
    spec: c,
  }));
  for (const c of [usage.ENQUIRIES_LIST, usage.ENQUIRIES_EXPORT, usage.ENQUIRIES_MIGRATE, usage.ENQUIRIES_IMPORT])
    commands.push({ path: [usage.ENQUIRIES.name, c.name], spec: c });

  for (const { path, spec } of commands)
    it(`content ${path.join(' ')} --help lists every declared option`, async () => {
      const help = await runCli([...path, '--help']);
      expect(help.code).toBe(0);
      for (const option of Object.values(spec.options)) expect(help.stdout).toContain(`  ${option.flag}  `);
    });
});
