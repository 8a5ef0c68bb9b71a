// npm run bench:validate — validation speed: the shipped content, then 10,000 generated course files.
// Reports medians of several whole-process runs (these machines are shared and noisy), each
// with a fresh parse of every file (STUDIO_NO_CACHE=1) and warm (unchanged files come from
// the parse memo, as when a maintainer runs validate again after editing one file).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'cli/bin.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const N = Number(process.env.BENCH_COURSES ?? 10_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(args: string[], cache: boolean): number {
  const started = performance.now();
  try {
    execFileSync(process.execPath, [BIN, ...args], { stdio: 'pipe', env: { ...process.env, STUDIO_NO_CACHE: cache ? '0' : '1' } });
  } catch (error) {
    const e = error as { status?: number; stdout?: Buffer };
    if (e.status !== 0) throw new Error(`content ${args.join(' ')} exited with ${e.status}:\n${e.stdout?.toString().slice(0, 2000)}`);
  }
  return performance.now() - started;
}

function inProcessFiles(dir: string): number {
  const out = execFileSync(process.execPath, [BIN, 'validate', '--content', dir, '--format', 'json'], { stdio: 'pipe', maxBuffer: 1 << 30 }).toString();
  return (JSON.parse(out) as { files: number }).files;
}

// 1. The shipped content, whole process (includes the start of Node and the loading of the CLI bundle).
time(['validate', '--quiet'], true); // fills the cache
for (const cache of [false, true]) {
  const shipped = Array.from({ length: RUNS }, () => time(['validate', '--quiet'], cache));
  console.log(
    `shipped content, ${cache ? 'warm cache ' : 'fresh parse'}: median ${median(shipped).toFixed(0)} ms wall over ${RUNS} runs (min ${Math.min(...shipped).toFixed(0)} ms)`,
  );
}

// 2. N generated course files: copies of a real course with a fresh key and route-less.
const dir = mkdtempSync(join(tmpdir(), 'bench-validate-'));
try {
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  const template = parse(readFileSync(join(ROOT, 'content/courses/vocal.yaml'), 'utf8')) as Record<string, unknown>;
  delete template.route;
  mkdirSync(join(dir, 'courses'), { recursive: true });
  const header = '# yaml-language-server: $schema=../../schemas/course.schema.json\n';
  for (let i = 0; i < N; i++) {
    const course = { ...template, order: 1000 + i, title: { ru: `Курс ${i}`, en: `Course ${i}`, de: `Kurs ${i}` } };
    writeFileSync(join(dir, 'courses', `bench${i}.yaml`), header + stringify(course, { lineWidth: 0 }));
  }
  // The generated files reach the disk before the timed runs, not during them (on this VM that slowed them by a third).
  try {
    execFileSync('sync');
  } catch {
    // no sync command: the runs may be slower
  }
  const files = inProcessFiles(dir);
  for (const cache of [false, true]) {
    const runs = Array.from({ length: Math.max(3, Math.floor(RUNS / 2)) }, () => time(['validate', '--content', dir, '--quiet'], cache));
    const ms = median(runs);
    console.log(
      `${files} files (${N} generated courses), ${cache ? 'warm cache ' : 'fresh parse'}: median ${(ms / 1000).toFixed(2)} s wall, ${Math.round(files / (ms / 1000))} files/s`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
