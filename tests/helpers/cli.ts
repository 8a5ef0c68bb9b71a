import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../cli/main.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The live content the studio edits: only for tests about what ships (README example, the built site, SPEC facts). */
export const CONTENT = join(ROOT, 'content');
/**
 * A frozen copy of the content (as of the rewrite of #26), with its own schema modelines: what the tests
 * change and compare against, so that an ordinary edit of content/ never breaks a test.
 */
export const FIXTURE = join(ROOT, 'tests/fixtures/content');

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

/** A temporary copy of the frozen fixture content (FIXTURE), changed by `files` (path → text, or null to delete). */
export function contentCopy(files: Record<string, string | Buffer | null> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'studio-content-'));
  cpSync(FIXTURE, dir, { recursive: true });
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

export interface ProcessRun {
  /** The exit code; -1 when the process was killed after `limitMs` (then `timedOut`) or by a signal. */
  code: number;
  stdout: string;
  stderr: string;
  /** The command was still running after the time limit and was killed (a hang, or a server left running). */
  timedOut: boolean;
}

export interface ProcessOptions {
  env?: Record<string, string>;
  /** The working directory (default: the project). */
  cwd?: string;
  /** Killed, with everything it started, after this long (default: 120 s). */
  limitMs?: number;
  /** Kills it when aborted (a server that runs until stopped). */
  stop?: AbortSignal;
  /** Another copy of the compiler's `cli/bin.js`. */
  script?: string;
  uid?: number;
  gid?: number;
}

/**
 * Runs `node cli/bin.js …` as a real process (the build runs Vike, which wants a process of its
 * own), in its own process group so that a kill reaches what it started.
 */
export function runCliProcess(argv: string[], options: ProcessOptions = {}): Promise<ProcessRun> {
  return new Promise((resolve) => {
    // Vike leaves its build plugin out when it sees it runs under Vitest: give the child a clean environment.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    const child = spawn(process.execPath, [options.script ?? join(ROOT, 'cli/bin.js'), ...argv], {
      cwd: options.cwd ?? ROOT,
      env: { ...clean, NO_COLOR: '1', ...options.env },
      uid: options.uid,
      gid: options.gid,
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    // Decoded as a stream: a character whose bytes two chunks split is not decoded half by half.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
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
    }, options.limitMs ?? 120_000);
    options.stop?.addEventListener('abort', kill);
    child.on('close', (code) => {
      clearTimeout(timer);
      options.stop?.removeEventListener('abort', kill);
      resolve({ code: timedOut ? -1 : (code ?? -1), stdout, stderr, timedOut });
    });
  });
}

/**
 * A copy of the compiler in `project` (its sources, schemas and lockfile; node_modules linked
 * package by package, without its caches and installed bundles), for tests that change it.
 */
export function copyCompiler(project: string): void {
  for (const part of ['cli', 'templates', 'schemas', 'package.json', 'package-lock.json', 'tsconfig.json'])
    cpSync(join(ROOT, part), join(project, part), { recursive: true });
  mkdirSync(join(project, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (name !== '.cache' && name !== '.studio-site-cli') symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
}

/**
 * `content ARGS` of a copy of the compiler (its own cli/bin.js, from its folder), with the caches
 * on whatever the outer run says; `out` is what it wrote on both streams.
 */
export async function runCopiedCli(project: string, argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const r = await runCliProcess(argv, { script: join(project, 'cli/bin.js'), cwd: project, env: { STUDIO_NO_CACHE: '', ...env } });
  return { code: r.code, out: `${r.stdout}${r.stderr}` };
}
