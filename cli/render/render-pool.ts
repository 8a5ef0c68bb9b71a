import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { cliEntry } from './entry.ts';

/**
 * Below this many pages to render, this thread renders them all. A worker loads and warms up the
 * templates anew and is sent a copy of each page's model (5-20% more CPU time, a fifth more memory),
 * which pays only when there are pages enough and a core to spare. Cold builds on 2 cores, workers
 * against none, wall time: 1,000 pages 1.14 times slower; 3,000 pages 0.85 on an idle machine but
 * 1.3 times slower on a busy one; 6,000 even (busy); 15,000 0.61 (busy). STUDIO_RENDER_WORKERS_FROM
 * sets another number (the tests have small sites rendered by workers).
 */
export const MIN_PAGES_FOR_WORKERS = Number(process.env.STUDIO_RENDER_WORKERS_FROM) || 2000;
/** A rebuild of a site this large links the previous site's pages in a worker while this thread validates. */
const MIN_PAGES_FOR_LINK_WORKER = 400;

/** Render worker threads, started before they have work, so they load the templates while the build validates. */
/**
 * The young generation of a render worker, in MB (V8's default gives it about 48): rendering makes
 * short-lived strings and elements by the megabyte, and a larger nursery is swept less often,
 * while what survives a page is little. STUDIO_RENDER_YOUNG_MB overrides it, to measure.
 */
const YOUNG_MB = Number(process.env.STUDIO_RENDER_YOUNG_MB) || 96;

export interface RenderPool {
  workers: Worker[];
  /** Why a worker stopped before it was given work, if one did. */
  failure(): Error | undefined;
  terminate(): Promise<void>;
}

export function startRenderPool(threads = availableParallelism()): RenderPool {
  const { url, execArgv } = cliEntry('render-worker');
  let failed: Error | undefined;
  const workers = Array.from({ length: threads }, () => {
    const worker = new Worker(url, { execArgv, env: { ...process.env, NODE_ENV: 'production' }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
    // Until it is given work, an error is kept for then (an unheard 'error' event would end the process).
    worker.on('error', (error) => {
      failed ??= error;
    });
    worker.on('exit', (code) => {
      if (code !== 0) failed ??= new Error(`a render worker stopped with code ${code}`);
    });
    return worker;
  });
  return { workers, failure: () => failed, terminate: async () => void (await Promise.all(workers.map((w) => w.terminate()))) };
}

/**
 * Workers worth starting before validation. A rebuild of a large site (`previousPages`, from the
 * page records): one, which links the previous site's pages into the new one and loads the templates
 * while this thread validates, then renders what changed. A build from nothing, when the content
 * has courses enough for the worker threshold (each course is a page in each of the three
 * locales): one per core. A wrong guess costs a little either way.
 */
export function renderPoolAhead(content: string, previousPages: number | undefined): RenderPool | undefined {
  if (availableParallelism() < 2) return undefined;
  if (previousPages !== undefined) return previousPages >= MIN_PAGES_FOR_LINK_WORKER ? startRenderPool(1) : undefined;
  let courses = 0;
  try {
    courses = readdirSync(join(content, 'courses')).length;
  } catch {
    return undefined;
  }
  return courses * 3 >= MIN_PAGES_FOR_WORKERS ? startRenderPool() : undefined;
}
