// npm run bench — whole-process `content build` on synthetic content of growing size
// (N courses × 3 locales, from a fixed seed). For each size it times, as medians of several
// runs (these machines are shared and noisy):
//   cold     — no caches at all (STUDIO_NO_CACHE=1, no previous site): every file parsed, every
//              page rendered (the client bundle is the one installed with the compiler); each run writes a new directory (deleting the last
//              one first would charge the file system's clean-up of 15,000 files to the next build);
//   warm     — the same content built again (parse memo and unchanged pages reused);
//   rebuild  — one course file changed since the last build;
//   validate — `content validate` alone, fresh parse, in files per second;
//   dev      — `content dev` on the same content: from saving a course file until its page, fetched
//              again on the reload event the preview sends, shows the change (what a browser waits for
//              before it paints).
// Peak memory is the largest resident set of any run. The table is also written as JSON to
// bench/results/. Sizes: BENCH_SIZES=100,1000,5000 (courses); runs: BENCH_RUNS=3. BENCH_OUT=/dev/shm
// writes the sites to memory instead of the disk, to tell the compiler's time from the disk's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { scriptBytes } from '../cli/build-site.ts';
import { fromRoot } from '../cli/paths.ts';
import { walk } from '../cli/util/walk.ts';
import { devSaveToVisible } from './dev-save.ts';
import { writeSyntheticContent } from './synthetic.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const work = fromRoot('bench', '.work');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number, d = 2) => Number(n.toFixed(d));

/** One whole `content …` process: wall seconds, peak RSS (GNU time) and its JSON output. */
function run(args: string[], cache: boolean): { seconds: number; rssMb: number; json: Record<string, unknown> } {
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, fromRoot('cli/bin.js'), ...args, '--format', 'json'], {
    env: { ...process.env, STUDIO_NO_CACHE: cache ? '0' : '1' },
    maxBuffer: 1 << 30,
  });
  const seconds = (performance.now() - started) / 1000;
  const stderr = r.stderr.toString();
  if (r.status !== 0 && r.status !== 1) throw new Error(`content ${args.join(' ')} failed (${r.status}):\n${stderr.slice(-2000)}`);
  return { seconds, rssMb: Number(stderr.trim().split('\n').at(-1)) / 1024, json: JSON.parse(r.stdout.toString()) };
}

interface Row {
  courses: number;
  pages: number;
  coldSeconds: number;
  coldMinSeconds: number;
  coldMaxSeconds: number;
  coldMsPerPage: number;
  marginalColdMsPerPage?: number;
  warmSeconds: number;
  warmMsPerPage: number;
  rebuildSeconds: number;
  rebuildRendered: number;
  validateFilesPerSecond: number;
  devSaveToVisibleMs: number;
  peakRssMb: number;
  gzipHtmlPerPageKb: number;
  gzipJsFormPageKb: number;
  coldPhasesMs: Record<string, number>;
}

const rows: Row[] = [];
for (const n of SIZES) {
  const content = join(work, `content-${n}`);
  const base = join(process.env.BENCH_OUT ?? work, `dist-${n}`);
  rmSync(content, { recursive: true, force: true });
  writeSyntheticContent(content, n);
  const buildInto = (dir: string) => ['build', '--content', content, '--out', dir, '--today', '2026-11-22'];
  const rss: number[] = [];
  const summaryOf = (r: ReturnType<typeof run>) => r.json.summary as { pages: number; rendered?: number; phases: Record<string, number> };

  const coldDirs = Array.from({ length: RUNS }, (_, i) => `${base}-${i}`);
  for (const d of coldDirs) rmSync(d, { recursive: true, force: true });
  spawnSync('sync');
  const cold = coldDirs.map((dir) => {
    const r = run(buildInto(dir), false);
    rss.push(r.rssMb);
    return r;
  });
  // Warm runs and rebuilds go on in the last cold run's directory; the others go now.
  const out = coldDirs.at(-1)!;
  for (const d of coldDirs.slice(0, -1)) rmSync(d, { recursive: true, force: true });
  spawnSync('sync');
  const build = buildInto(out);
  const warm = Array.from({ length: RUNS }, () => {
    const r = run(build, true);
    rss.push(r.rssMb);
    return r;
  });
  const rebuilds = Array.from({ length: RUNS }, (_, i) => {
    const file = join(content, 'courses', `course${String(i).padStart(5, '0')}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^( {2}ru: )(.*)$/m, `$1$2 (${i})`));
    const r = run(build, true);
    rss.push(r.rssMb);
    return r;
  });
  const validate = Array.from({ length: RUNS }, () => run(['validate', '--content', content, '--today', '2026-11-22'], false));
  const files = (validate[0]!.json as { files: number }).files;
  const dev = await devSaveToVisible(content, 'course00001', RUNS);

  const pages = summaryOf(cold[0]!).pages;
  const html = [...walk(out)].filter((f) => f.endsWith('.html'));
  const sample = html.filter((_, i) => i % Math.max(1, Math.floor(html.length / 200)) === 0);
  const gzHtml = sample.reduce((s, f) => s + gzipSync(readFileSync(join(out, f))).length, 0) / sample.length / 1024;
  const coldSeconds = median(cold.map((r) => r.seconds));
  const prev = rows.at(-1);
  const medianRun = [...cold].sort((a, b) => a.seconds - b.seconds)[Math.floor(cold.length / 2)]!;
  rows.push({
    courses: n,
    pages,
    coldSeconds: round(coldSeconds),
    coldMinSeconds: round(Math.min(...cold.map((r) => r.seconds))),
    coldMaxSeconds: round(Math.max(...cold.map((r) => r.seconds))),
    coldMsPerPage: round((coldSeconds * 1000) / pages),
    marginalColdMsPerPage: prev ? round(((coldSeconds - prev.coldSeconds) * 1000) / (pages - prev.pages)) : undefined,
    warmSeconds: round(median(warm.map((r) => r.seconds))),
    warmMsPerPage: round((median(warm.map((r) => r.seconds)) * 1000) / pages),
    rebuildSeconds: round(median(rebuilds.map((r) => r.seconds))),
    rebuildRendered: median(rebuilds.map((r) => summaryOf(r).rendered ?? pages)),
    validateFilesPerSecond: Math.round(files / median(validate.map((r) => r.seconds))),
    devSaveToVisibleMs: Math.round(median(dev)),
    peakRssMb: Math.round(Math.max(...rss)),
    gzipHtmlPerPageKb: round(gzHtml, 1),
    gzipJsFormPageKb: round(scriptBytes(out, 'index.html') / 1024, 1),
    coldPhasesMs: summaryOf(medianRun).phases,
  });
  console.log(rows.at(-1));
}
console.table(rows.map(({ coldPhasesMs, ...r }) => r));
mkdirSync(fromRoot('bench', 'results'), { recursive: true });
const file = fromRoot('bench', 'results', `build-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ runs: RUNS, node: process.version, rows }, null, 2)}\n`);
console.log(`written to ${file}`);
