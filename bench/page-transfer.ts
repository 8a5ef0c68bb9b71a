// npm run bench:transfer — what sending a cold build's pages to the render workers costs, the
// way the build sends them (cli/render/page-parts.ts) against sending each batch whole:
//   main   — this thread: the batches serialized (postMessage's structured clone; with parts, naming them);
//   worker — a worker: the batches decoded (with parts, made whole again) and each page's key.
// The same batches, the two ways in turn, BENCH_RUNS times (default 15): medians and the median of
// the ratios run by run (the machines are shared and noisy). The content: BENCH_CONTENT=DIR, or the
// synthetic set of bench/synthetic.ts with BENCH_COURSES courses × 3 locales (default 1000).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { pageKey } from '../cli/cache/page-key.ts';
import { fromRoot } from '../cli/paths.ts';
import { type SentBatch, takeParts, withPartsNamed } from '../cli/render/page-parts.ts';
import type { RenderBatch } from '../cli/render/render-batch.ts';
import { BATCH } from '../cli/render/render-queue.ts';
import { resolveSite } from '../cli/resolve/resolve.ts';
import { createTranslator } from '../cli/resolve/translator.ts';
import { validateContent } from '../cli/validate/validate.ts';
import { writeSyntheticContent } from './synthetic.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const COURSES = Number(process.env.BENCH_COURSES ?? 1000);
const TODAY = '2026-11-22';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function contentDir(): string {
  if (process.env.BENCH_CONTENT) return process.env.BENCH_CONTENT;
  const dir = join(existsSync('/dev/shm') ? '/dev/shm' : fromRoot('bench', '.work'), `studio-transfer-${COURSES}`);
  rmSync(dir, { recursive: true, force: true });
  writeSyntheticContent(join(dir, 'content'), COURSES);
  return join(dir, 'content');
}

const validated = validateContent(contentDir(), { today: TODAY, cache: false });
if (!validated.ok) throw new Error('the content does not validate');
const pages = resolveSite(validated.content, createTranslator(validated.content), { today: TODAY });
const batches: RenderBatch[] = [];
for (let i = 0; i < pages.length; i += BATCH)
  batches.push({ id: batches.length, pages: pages.slice(i, i + BATCH), inserts: { head: '', body: '' } as never, templateKey: 't', outDir: '/out' });

/** Milliseconds of each side for one build's batches, dealt to two workers in turn. */
function run(withParts: boolean): { main: number; worker: number } {
  const workers = [{}, {}] as Worker[]; // new ones: every part is sent again, as to a new build's workers
  let started = performance.now();
  const sent = batches.map((batch, i) => serialize(withParts ? withPartsNamed(batch, workers[i % 2]!) : batch));
  const main = performance.now() - started;
  started = performance.now();
  for (const bytes of sent) {
    const received = deserialize(bytes);
    for (const page of withParts ? takeParts(received as SentBatch).pages : (received as RenderBatch).pages) pageKey(page, 't');
  }
  return { main, worker: performance.now() - started };
}

const times = { whole: [] as { main: number; worker: number }[], parts: [] as { main: number; worker: number }[] };
for (let r = 0; r < RUNS + 1; r++) {
  const whole = run(false);
  const parts = run(true);
  if (r === 0) continue; // warm-up
  times.whole.push(whole);
  times.parts.push(parts);
}
function bytes(withParts: boolean): number {
  const workers = [{}, {}] as Worker[];
  return batches.reduce((n, b, i) => n + serialize(withParts ? withPartsNamed(b, workers[i % 2]!) : b).length, 0);
}
console.log(`${pages.length} pages in ${batches.length} batches; ${RUNS} runs, medians`);
for (const side of ['main', 'worker'] as const) {
  const ratio = median(times.parts.map((p, i) => p[side] / times.whole[i]![side]));
  console.log(
    `${side.padEnd(7)} whole ${median(times.whole.map((t) => t[side])).toFixed(0)} ms, with parts ${median(times.parts.map((t) => t[side])).toFixed(0)} ms (ratio ${ratio.toFixed(2)})`,
  );
}
console.log(`sent    whole ${(bytes(false) / 1e6).toFixed(1)} MB, with parts ${(bytes(true) / 1e6).toFixed(1)} MB`);
