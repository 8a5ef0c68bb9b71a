import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONTENT = join(ROOT, 'content');

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    out: (t) => {
      stdout += `${t}\n`;
    },
    err: (t) => {
      stderr += `${t}\n`;
    },
    isTTY: false,
    color: false,
  });
  return { code, stdout, stderr };
}

/** A temporary copy of the shipped content, changed by `files` (path → text, or null to delete). */
export function contentCopy(files: Record<string, string | Buffer | null> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'studio-content-'));
  cpSync(CONTENT, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    if (text === null) rmSync(target, { recursive: true, force: true });
    else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `node cli/bin.js …` as a real process (the build runs Vite and Vike, which want a process of their own). */
export function runCliProcess(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Vike leaves its build plugin out when it sees it runs under Vitest: give the child a clean environment.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    const child = spawn(process.execPath, [join(ROOT, 'cli/bin.js'), ...argv], { cwd: ROOT, env: { ...clean, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
