import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';

export interface BoundedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The command was still running after the time limit and was killed (a hang). */
  timedOut: boolean;
}

/**
 * `node cli/bin.js …` as a real process, like `runCliProcess`, but killed (with everything it
 * started) after `limitMs`: these tests feed it inputs that used to hang it forever, and a hang
 * must fail the test, not the whole run.
 */
export function runBounded(
  argv: string[],
  options: { env?: Record<string, string>; limitMs?: number; cwd?: string; stop?: AbortSignal } = {},
): Promise<BoundedRun> {
  return new Promise((resolve) => {
    // Vike leaves its build plugin out when it sees it runs under Vitest: a clean environment, as in tests/helpers/cli.ts.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    const child = spawn(process.execPath, [join(ROOT, 'cli/bin.js'), ...argv], {
      cwd: options.cwd ?? ROOT,
      env: { ...clean, NO_COLOR: '1', ...options.env },
      detached: true, // its own process group, so a kill reaches what it started
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.limitMs ?? 20_000);
    // A server (content dev) runs until stopped.
    options.stop?.addEventListener('abort', kill);
    child.on('close', (code) => {
      clearTimeout(timer);
      options.stop?.removeEventListener('abort', kill);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
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
