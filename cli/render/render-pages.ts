import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { PageModel } from '../../templates/model.ts';
import { PreviousLinker } from '../cache/link-previous.ts';
import type { PreviousPage, Rendered } from '../cache/page-cache.ts';
import { pageKey } from '../cache/page-key.ts';
import { ensureDir } from '../write/ensure-dir.ts';
import type { ClientAssets } from './client-assets.ts';
import { MIN_PAGES_FOR_WORKERS, type RenderPool, startRenderPool } from './render-pool.ts';

export interface RenderBatch {
  id: number;
  pages: PageModel[];
  /** The pages' keys, when already known (same order as `pages`). */
  keys?: string[];
  inserts: ClientAssets['inserts'];
  /** Changes whenever the compiler (templates included) or the tags inserted into the pages change. */
  templateKey: string;
  outDir: string;
}

export interface RenderOptions extends Omit<RenderBatch, 'id' | 'pages' | 'keys'> {
  /** The site the previous build left, and what it knew about each of its pages. */
  previous?: { dir: string; pages: Record<string, PreviousPage> };
}

interface TakeOver {
  /** Pages to render now, with their keys. */
  todo: PageModel[];
  keys: string[];
  /** When the links are done: the pages taken over, and those to render after all (with keys). */
  finish(): Promise<{ reused: Rendered[]; todo: PageModel[]; keys: string[] }>;
}

/**
 * A page whose key is the one the previous build recorded, and whose file is still exactly the
 * one that build wrote, is hard-linked from the previous site instead of rendered. The links are made on a thread of their own while the caller
 * renders the pages that changed.
 */
function takeOverUnchanged(pages: PageModel[], options: RenderOptions): TakeOver {
  const previous = options.previous!;
  const keys = pages.map(() => '');
  const candidates: number[] = [];
  const linker = new PreviousLinker();
  const made = new Set<string>();
  const todo: PageModel[] = [];
  const todoKeys: string[] = [];
  pages.forEach((page, i) => {
    const before = previous.pages[page.file];
    keys[i] = pageKey(page, options.templateKey);
    if (before?.key !== keys[i]) {
      todo.push(page);
      todoKeys.push(keys[i]!);
      return;
    }
    const path = join(options.outDir, page.file);
    ensureDir(made, path);
    linker.add(i, join(previous.dir, page.file), path, before!);
    candidates.push(i);
  });
  const finish = async () => {
    const failed = await linker.finish();
    const reused: Rendered[] = [];
    const again: PageModel[] = [];
    const againKeys: string[] = [];
    for (const i of candidates) {
      const page = pages[i]!;
      if (!failed.has(i)) reused.push({ file: page.file, ...previous.pages[page.file]!, rendered: false });
      else {
        again.push(page);
        againKeys.push(keys[i]!);
      }
    }
    return { reused, todo: again, keys: againKeys };
  };
  return { todo, keys: todoKeys, finish };
}

const BATCH = 100;

/**
 * Renders every page with React's server renderer, spread over one worker thread per core
 * (pages are independent), and writes them into `outDir`. With a previous build to compare
 * with, only the pages that changed are rendered; the others are taken over meanwhile.
 * `pool`: workers started ahead (`renderPoolAhead`); they are stopped when this is done.
 */
export async function renderPages(all: PageModel[], options: RenderOptions, onPage?: () => void, pool?: RenderPool): Promise<Rendered[]> {
  const { previous, ...common } = options;
  try {
    if (!previous) return await render(all, undefined, common, onPage, pool);
    const plan = takeOverUnchanged(all, options);
    let changed: Rendered[];
    try {
      changed = await render(plan.todo, plan.keys, common, onPage, pool);
    } catch (error) {
      await plan.finish().catch(() => {}); // stops the linking thread
      throw error;
    }
    const taken = await plan.finish();
    for (const _ of taken.reused) onPage?.();
    const again = taken.todo.length ? await render(taken.todo, taken.keys, common, onPage, pool) : [];
    return [...taken.reused, ...changed, ...again];
  } finally {
    await pool?.terminate();
  }
}

async function render(
  pages: PageModel[],
  keys: string[] | undefined,
  common: Omit<RenderBatch, 'id' | 'pages' | 'keys'>,
  onPage?: () => void,
  pool?: RenderPool,
): Promise<Rendered[]> {
  const threads = Math.min(pool?.workers.length ?? availableParallelism(), Math.ceil(pages.length / BATCH));
  if (pages.length < MIN_PAGES_FOR_WORKERS || threads < 2) {
    // React and the templates are loaded here only when this thread renders.
    const { renderBatch } = await import('./render-batch.ts');
    const results = renderBatch({ id: 0, pages, keys, ...common });
    for (const _ of results) onPage?.();
    return results;
  }
  const own = pool ? undefined : startRenderPool(threads);
  const workers = (pool ?? own)!.workers.slice(0, threads);
  const early = pool?.failure();
  if (early) throw early;
  const batches: RenderBatch[] = [];
  for (let i = 0; i < pages.length; i += BATCH)
    batches.push({ id: batches.length, pages: pages.slice(i, i + BATCH), keys: keys?.slice(i, i + BATCH), ...common });
  const results: Rendered[][] = [];
  let next = 0;
  const listeners: (() => void)[] = [];
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= batches.length) return resolve();
              worker.postMessage(batches[next++]);
            };
            const onMessage = (m: { id: number; results?: Rendered[]; error?: string }) => {
              if (m.error) return reject(new Error(`rendering failed: ${m.error}`));
              results[m.id] = m.results!;
              for (const _ of m.results!) onPage?.();
              send();
            };
            const onExit = (code: number) => code !== 0 && reject(new Error(`a render worker stopped with code ${code}`));
            worker.on('message', onMessage);
            worker.on('error', reject);
            worker.on('exit', onExit);
            listeners.push(() => worker.off('message', onMessage).off('error', reject).off('exit', onExit));
            send();
          }),
      ),
    );
  } finally {
    for (const off of listeners) off();
    await own?.terminate();
  }
  return results.flat();
}
