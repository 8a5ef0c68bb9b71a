// npm run bench:incremental — the two incremental paths of issue #13, on one content set:
//   rebuild — a whole `content build` process after one course file's text changed, into the folder
//             the previous build wrote (target: under 0.5 s at 15,000 pages);
//   dev     — `content dev`: from saving a course file until the reload event has come and the
//             page, fetched again, shows the change (target: under 200 ms at 15,000 pages).
// Medians of BENCH_RUNS runs (default 5; the machines are shared and noisy). The content is the
// synthetic set of bench/synthetic.ts, BENCH_COURSES courses × 3 locales (default 5000, 15,000
// pages), written under BENCH_OUT (default /dev/shm, so the disk's time is not the compiler's);
// or an existing content folder: BENCH_CONTENT=DIR BENCH_COURSE=KEY (a course whose route is /KEY).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../cli/paths.ts';
import { devSaveToVisible } from './dev-save.ts';
import { writeSyntheticContent } from './synthetic.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const COURSES = Number(process.env.BENCH_COURSES ?? 5000);
const base = process.env.BENCH_OUT ?? (existsSync('/dev/shm') ? '/dev/shm' : fromRoot('bench', '.work'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const content = process.env.BENCH_CONTENT ?? join(base, `studio-incremental-${COURSES}`, 'content');
const course = process.env.BENCH_COURSE ?? 'course00001';
const out = join(content, '..', 'dist');
if (!process.env.BENCH_CONTENT) {
  rmSync(join(content, '..'), { recursive: true, force: true });
  writeSyntheticContent(content, COURSES);
}

/** One whole `content build` process: wall milliseconds and its JSON summary. */
function build(): { ms: number; summary: { pages: number; rendered?: number; phases: Record<string, number> } } {
  const started = performance.now();
  const r = spawnSync(process.execPath, [fromRoot('cli/bin.js'), 'build', '--content', content, '--out', out, '--format', 'json'], { maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`content build failed (${r.status}):\n${r.stderr.toString().slice(-2000)}`);
  return { ms, summary: JSON.parse(r.stdout.toString()).summary };
}

/** Changes the text of the course's first Russian line (its title), so its pages change. */
function editCourse(run: number): void {
  const file = join(content, 'courses', `${course}.yaml`);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^( {2}ru: )(.*?)( edit\d+)?$/m, `$1$2 edit${run}`));
}

const first = build(); // the site and the caches the rebuilds start from
const rebuilds = Array.from({ length: RUNS }, (_, i) => {
  editCourse(i);
  return build();
});
const dev = await devSaveToVisible(content, course, RUNS);

const rebuild = [...rebuilds].sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)]!;
console.log(`content: ${content} (${first.summary.pages} pages), ${RUNS} runs each`);
console.log(`rebuild after one course file changed: median ${Math.round(rebuild.ms)} ms (runs: ${rebuilds.map((r) => Math.round(r.ms)).join(', ')})`);
console.log(`  the median run rendered ${rebuild.summary.rendered} pages; phases (ms) ${JSON.stringify(rebuild.summary.phases)}`);
console.log(`content dev, save to visible: median ${Math.round(median(dev))} ms (runs: ${dev.map(Math.round).join(', ')})`);
