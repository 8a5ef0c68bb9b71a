// npm run bench — whole-process `content build` on synthetic content of growing size.
// Reports medians of several runs and ratios between sizes (these machines are shared and
// noisy); writes the table as JSON to bench/results/. Sizes: BENCH_SIZES=100,1000,5000 courses.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { walk } from '../cli/build/build.ts';
import { fromRoot } from '../cli/paths.ts';
import { writeSyntheticContent } from './synthetic.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const work = fromRoot('bench', '.work');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  courses: number;
  pages: number;
  medianSeconds: number;
  msPerPage: number;
  marginalMsPerPage?: number;
  peakRssMb: number;
  gzipHtmlPerPageKb: number;
  gzipJsFormPageKb: number;
}

const rows: Row[] = [];
for (const n of SIZES) {
  const content = join(work, `content-${n}`);
  const out = join(work, `dist-${n}`);
  rmSync(content, { recursive: true, force: true });
  writeSyntheticContent(content, n);
  const times: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    // GNU time reports the peak resident set size of the whole process.
    const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, fromRoot('cli/bin.js'), 'build', '--content', content, '--out', out, '--quiet'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (run.status !== 0) throw new Error(`content build failed: ${run.stderr}`);
    const report = run.stderr.toString();
    times.push((performance.now() - started) / 1000);
    rss.push(Number(report.trim().split('\n').at(-1)) / 1024);
  }
  const html = [...walk(out)].filter((f) => f.endsWith('.html'));
  const sample = html.slice(0, 200);
  const gzHtml = sample.reduce((s, f) => s + gzipSync(readFileSync(join(out, f))).length, 0) / sample.length / 1024;
  const { scriptBytes } = await import('../cli/build/build.ts');
  const pages = html.length;
  const seconds = median(times);
  const prev = rows.at(-1);
  rows.push({
    courses: n,
    pages,
    medianSeconds: Number(seconds.toFixed(2)),
    msPerPage: Number(((seconds * 1000) / pages).toFixed(2)),
    marginalMsPerPage: prev ? Number((((seconds - prev.medianSeconds) * 1000) / (pages - prev.pages)).toFixed(2)) : undefined,
    peakRssMb: Math.round(Math.max(...rss)),
    gzipHtmlPerPageKb: Number(gzHtml.toFixed(1)),
    gzipJsFormPageKb: Number((scriptBytes(out, 'index.html') / 1024).toFixed(1)),
  });
  console.log(rows.at(-1));
}
console.table(rows);
mkdirSync(fromRoot('bench', 'results'), { recursive: true });
const file = fromRoot('bench', 'results', `build-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ runs: RUNS, rows }, null, 2)}\n`);
console.log(`written to ${file}`);
