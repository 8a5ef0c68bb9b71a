// npm run bench:transfer — what sending a cold build's pages to the render workers costs, and
// of what: the batches as the build makes them (cli/render/render-queue.ts, BATCH pages each),
//   main    — this thread: each batch serialized (postMessage's structured clone writes it so);
//   decode  — the workers: each batch read back;
//   key     — the workers: each page's key (cli/cache/page-key.ts);
// then the bytes each field of the page model takes in the batches, whole and per page.
// Medians of BENCH_RUNS runs (default 11; the machines are shared and noisy). The content:
// BENCH_CONTENT=DIR, or the synthetic set of bench/synthetic.ts, BENCH_COURSES courses × 3 locales (default 1000).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { pageKey } from '../cli/cache/page-key.ts';
import { fromRoot } from '../cli/paths.ts';
import { BATCH } from '../cli/render/render-queue.ts';
import { resolveSite } from '../cli/resolve/resolve.ts';
import { createTranslator } from '../cli/resolve/translator.ts';
import { validateContent } from '../cli/validate/validate.ts';
import type { PageModel } from '../templates/model.ts';
import { writeSyntheticContent } from './synthetic.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
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

const validated = validateContent(contentDir(), { today: TODAY });
if (!validated.ok) throw new Error('the content does not validate');
const pages = resolveSite(validated.content, createTranslator(validated.content), { today: TODAY });
const batches: PageModel[][] = [];
for (let i = 0; i < pages.length; i += BATCH) batches.push(pages.slice(i, i + BATCH));

const times = { main: [] as number[], decode: [] as number[], key: [] as number[] };
for (let r = 0; r <= RUNS; r++) {
  let started = performance.now();
  const sent = batches.map((batch) => serialize(batch));
  const main = performance.now() - started;
  started = performance.now();
  const received = sent.map((bytes) => deserialize(bytes) as PageModel[]);
  const decode = performance.now() - started;
  started = performance.now();
  for (const batch of received) for (const page of batch) pageKey(page, 'templates');
  const key = performance.now() - started;
  if (r === 0) continue; // warm-up
  times.main.push(main);
  times.decode.push(decode);
  times.key.push(key);
}

const total = batches.reduce((n, batch) => n + serialize(batch).length, 0);
console.log(`${pages.length} pages in ${batches.length} batches, ${(total / 1e6).toFixed(1)} MB; medians of ${RUNS} runs:`);
console.log(`  main ${median(times.main).toFixed(0)} ms, decode ${median(times.decode).toFixed(0)} ms, key ${median(times.key).toFixed(0)} ms`);
// A field's bytes: all its values in a batch serialized together (objects the pages share within a batch counted once, as the copy does).
const fields = new Map<string, number>();
for (const batch of batches)
  for (const field of Object.keys(batch[0]!))
    fields.set(field, (fields.get(field) ?? 0) + serialize(batch.map((page) => page[field as keyof PageModel])).length);
for (const [field, bytes] of [...fields].sort((a, b) => b[1] - a[1]))
  console.log(
    `  ${field.padEnd(12)} ${(bytes / 1e6).toFixed(2).padStart(6)} MB ${((100 * bytes) / total).toFixed(0).padStart(3)}%  ${(bytes / pages.length).toFixed(0).padStart(5)} B/page`,
  );
