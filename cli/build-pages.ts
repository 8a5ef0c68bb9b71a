import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ShareResult, ShareSetup } from './build-share.ts';
import type { SourceFile } from './load/source.ts';
import { workerEntry } from './paths.ts';
import type { Content, Entry } from './validate/content.ts';

/**
 * Workers make pages only with cores to spare: a worker loads the templates anew and is sent the
 * content, which pays only with pages enough and a core that is not busy with the build's own
 * thread. Measured on 2 cores (cold, 3,030 pages, `STUDIO_RENDER_WORKERS_FROM=1` against none,
 * median of 5 paired runs): wall 0.95× (0.79-1.43), CPU 1.15×: no gain shown, so with 2 cores or
 * fewer the build's thread makes every page. With more, from 2,500 pages, one worker per other
 * core (not measured here: no such machine). STUDIO_RENDER_WORKERS_FROM sets another number of
 * pages and forces workers whatever the cores (the tests have small sites made by workers).
 */
function threadsFor(pages: number): number {
  const forced = Number(process.env.STUDIO_RENDER_WORKERS_FROM);
  const cores = availableParallelism();
  if (forced) return pages < forced ? 1 : Math.max(2, cores);
  return cores > 2 && pages >= 2500 ? cores : 1;
}
/** Pages per share: a worker is sent the next when it answers one, so a thread that started late or runs slower makes fewer. */
const SHARE = 100;
/** Shares a worker holds at once: the next is there when it finishes one. */
const AHEAD = 2;

/**
 * Makes the pages `indexes` names (resolve, render, write: build-share.ts): in this thread, or
 * with many pages and cores to spare (`threadsFor`) shared out among this thread and workers, each worker sent the
 * content once and then shares of page indexes, answering with their facts. Returns them in the
 * order of `indexes`, and how many threads made them. A worker's failure fails the build once
 * every worker has stopped, so nothing writes into the staging folder any more.
 */
export async function makePages(setup: ShareSetup, indexes: number[], onPage: () => void): Promise<ShareResult & { threads: number }> {
  const threads = threadsFor(indexes.length);
  const shares: number[][] = [];
  for (let i = 0; i < indexes.length; i += SHARE) shares.push(indexes.slice(i, i + SHARE));
  const results: ShareResult[] = [];
  let next = 0;
  const workers = threads > 1 ? startWorkers(threads - 1) : [];
  const data = threads > 1 ? { ...setup, content: contentAsData(setup.content) } : setup;
  for (const w of workers) w.postMessage({ setup: data, id: -1, indexes: [] });
  const failures: Error[] = [];
  let answered = 0;
  let wake = () => {};
  const send = (w: Worker) => {
    if (next < shares.length) {
      const id = next++;
      w.postMessage({ id, indexes: shares[id]! });
    }
  };
  for (const w of workers) {
    w.on('message', (m: { id: number; result?: ShareResult; error?: string }) => {
      if (m.error) failures.push(new Error(`making pages failed: ${m.error}`));
      else {
        results[m.id] = m.result!;
        for (const _ of m.result!.made) onPage();
        send(w);
      }
      answered++;
      wake();
    });
    w.on('error', (error) => {
      failures.push(error);
      wake();
    });
    w.on('exit', (code) => {
      failures.push(new Error(`a build worker stopped with code ${code}`));
      wake();
    });
    for (let i = 0; i < AHEAD; i++) send(w);
  }
  try {
    process.env.NODE_ENV ??= 'production'; // React's production build, as under Vike and in the workers
    const { shareMaker } = await import('./build-share.ts');
    const make = shareMaker(setup);
    while (next < shares.length && !failures.length) {
      const id = next++;
      results[id] = make(shares[id]!, onPage);
      answered++;
      if (workers.length) await new Promise(setImmediate); // the workers' answers, and their next shares
    }
    while (answered < next && !failures.length) await new Promise<void>((resolve) => (wake = resolve));
    if (failures.length) throw failures[0];
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { made: results.flatMap((r) => r.made), shared: [...new Set(results.flatMap((r) => r.shared))], threads };
}

/** Worker threads (they load the templates while the setup is made and sent). */
function startWorkers(count: number): Worker[] {
  const { url, execArgv } = workerEntry('render-worker', import.meta.url);
  return Array.from({ length: count }, () => new Worker(url, { execArgv, env: { ...process.env, NODE_ENV: 'production' } }));
}

/** The validated content as plain data, to send to a worker: each entry's data, and of its source the file's name and hash. */
function contentAsData(content: Content): Content {
  const entry = <E extends Entry<never>>(e: E | undefined) =>
    e && ({ key: e.key, data: e.data, source: { file: e.source.file, hash: e.source.hash } as SourceFile } as E);
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(content)) {
    if (value instanceof Map) copy[name] = new Map([...value].map(([k, e]) => [k, entry(e)]));
    else if (value && typeof value === 'object' && 'source' in value) copy[name] = entry(value as Entry<never>);
    else copy[name] = value;
  }
  return copy as unknown as Content;
}
