import { type ProcessRun, runCliProcess } from '../helpers/cli.ts';

export type BoundedRun = ProcessRun;

/**
 * `node cli/bin.js …` as a real process, killed (with everything it started) after `limitMs`:
 * these tests feed it inputs that used to hang it forever, and a hang must fail the test, not
 * the whole run.
 */
export function runBounded(
  argv: string[],
  options: { env?: Record<string, string>; limitMs?: number; cwd?: string; stop?: AbortSignal } = {},
): Promise<BoundedRun> {
  return runCliProcess(argv, { limitMs: 20_000, ...options });
}

/** A stack trace line such as "    at loadContent (file:///…/load.js:12:3)". */
export const STACK_LINE = /\n\s+at .+:\d+:\d+/;

export interface JsonProblem {
  code: string;
  severity: string;
  message: string;
  file: string;
  line?: number;
  column?: number;
  hint?: string;
  expected?: string;
  found?: string;
}
