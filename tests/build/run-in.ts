import { spawn } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `node cli/bin.js …` (or another copy's `script`) as a real process in `cwd`, with a clean environment (see
 * tests/helpers/cli.ts). A command that would keep running (a server) is stopped after
 * `timeoutMs` and reported with code -1.
 */
export function runIn(
  cwd: string,
  argv: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; uid?: number; gid?: number; script?: string } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    const child = spawn(process.execPath, [options.script ?? join(ROOT, 'cli/bin.js'), ...argv], {
      cwd,
      env: { ...clean, NO_COLOR: '1', ...options.env },
      uid: options.uid,
      gid: options.gid,
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
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? -1 : (code ?? -1), stdout, stderr });
    });
  });
}

/** A usage mistake: exit 2, one `error:` line, one `hint:` line, no stack trace. */
export function expectUsageError(r: Run, message: RegExp): void {
  const lines = r.stderr.trimEnd().split('\n');
  if (r.code !== 2 || lines.length !== 2 || !lines[0]!.startsWith('error: ') || !message.test(lines[0]!) || !lines[1]?.startsWith('hint: '))
    throw new Error(`expected exit 2 with one line "error: …${message.source}…" and one "hint: …", got exit ${r.code}:\n${r.stdout}\n${r.stderr}`);
}

/**
 * Everything under `dir`: files with their bytes and modes, folders, links with their
 * targets; for checking that a refused command left it exactly as it was.
 */
export function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string) => {
    const path = join(dir, rel);
    const st = lstatSync(path);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(path)}`);
    else if (st.isDirectory()) {
      out.set(rel, `dir ${mode}`);
      for (const name of readdirSync(path).sort()) visit(rel ? `${rel}/${name}` : name);
    } else out.set(rel, `file ${mode} ${readFileSync(path).toString('base64')}`);
  };
  visit('');
  return out;
}
