import { unlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { removeEmptyFolders } from '../cache/link-previous.ts';
import type { PageRecords, Rendered } from '../cache/page-cache.ts';
import { pageKey } from '../cache/page-key.ts';
import type { SitePage } from '../resolve/resolve.ts';
import type { RenderBatch } from './render-batch.ts';
import { MIN_PAGES_FOR_WORKERS, type RenderPool, startRenderPool } from './render-pool.ts';
import { BATCH, RenderQueue } from './render-queue.ts';

/** The site the previous build left, what it knew about each of its pages, and which of them are linked into `outDir`. */
export interface PreviousSite {
  dir: string;
  records: PageRecords;
  /** The files `linkPrevious` linked into `outDir` (nothing linked: an empty set). */
  linked: Promise<Set<string>>;
}

export interface RenderOptions extends Omit<RenderBatch, 'id' | 'pages' | 'keys' | 'replace'> {
  previous?: PreviousSite;
}

/** Keys are computed this many pages at a time, and the pages that changed among them sent to render at once. */
const CHUNK = 500;

/**
 * Of a site whose previous pages are being linked into `outDir`: the pages whose key is the one
 * the previous build recorded, and whose file was linked (it was still exactly the one that build
 * wrote), are taken over as they are. The others are added to `queue` (rendered with `replace`:
 * their links are replaced), those whose key changed as soon as it is known. The links of pages
 * that are gone are removed; returns them, and the pages taken over.
 */
async function takeOver(pages: SitePage[], options: RenderOptions, queue: RenderQueue): Promise<{ reused: Rendered[]; gone: string[] }> {
  const previous = options.previous!;
  const same: number[] = [];
  const keys: string[] = [];
  for (let start = 0; start < pages.length; start += CHUNK) {
    const changed: number[] = [];
    for (let i = start; i < Math.min(start + CHUNK, pages.length); i++) {
      const page = pages[i]!;
      keys[i] = page.key ?? pageKey(page.model!, options.templateKey); // a page taken over unresolved has its recorded key
      (previous.records.pages[pages[i]!.file]?.key === keys[i] ? same : changed).push(i);
    }
    queue.add(
      changed.map((i) => pages[i]!.resolve()),
      changed.map((i) => keys[i]!),
    );
  }
  const linked = await previous.linked;
  const kept: number[] = [];
  const again: number[] = [];
  for (const i of same) (linked.has(pages[i]!.file) ? kept : again).push(i);
  queue.add(
    again.map((i) => pages[i]!.resolve()),
    again.map((i) => keys[i]!),
  );
  for (const page of pages) linked.delete(page.file);
  for (const file of linked) unlinkSync(join(options.outDir, file)); // left: the pages that are gone
  return { reused: kept.map((i) => ({ file: pages[i]!.file, ...previous.records.pages[pages[i]!.file]!, rendered: false })), gone: [...linked] };
}

/**
 * Renders every page (the templates, written by cli/render/html), spread over one worker thread per core
 * (pages are independent), and writes them into `outDir`. With a previous build to compare
 * with, only the pages that changed are rendered; the others are taken over.
 * `pool`: workers started ahead (`renderPoolAhead`); they are stopped when this is done.
 */
export async function renderPages(all: SitePage[], options: RenderOptions, onPage?: () => void, pool?: RenderPool): Promise<Rendered[]> {
  const { previous, ...common } = options;
  // A rebuild's pool worker linked the previous pages first: what it renders comes after, in the order sent.
  const queue = new RenderQueue({ ...common, replace: Boolean(previous) }, onPage);
  let own: RenderPool | undefined;
  try {
    const early = pool?.failure();
    if (early) throw early;
    if (pool) queue.use(pool.workers);
    let taken: { reused: Rendered[]; gone: string[] } = { reused: [], gone: [] };
    if (previous) taken = await takeOver(all, options, queue);
    else queue.add(all.map((page) => page.resolve()));
    for (const _ of taken.reused) onPage?.();
    // More workers for many pages (once linking is done: they may write where a link was to be made).
    const waiting = queue.waiting;
    const threads = waiting < MIN_PAGES_FOR_WORKERS ? 1 : Math.min(availableParallelism(), Math.ceil(waiting / BATCH));
    if (threads > (pool?.workers.length ?? 0) && threads > 1) {
      own = startRenderPool(threads - (pool?.workers.length ?? 0));
      queue.use(own.workers);
    }
    const rendered = await queue.finish();
    for (const file of taken.gone) removeEmptyFolders(options.outDir, file);
    return [...taken.reused, ...rendered];
  } finally {
    queue.detach();
    await own?.terminate();
    await pool?.terminate();
  }
}

/**
 * A build from nothing with workers started ahead: each share of pages goes to the workers as
 * soon as it is resolved (`add`), so that they render while this thread resolves the next.
 * `finish` once every page was added: the pages rendered and written, in the order added; the
 * workers are then told to stop, and the caller awaits `pool.terminate` before it is done. A build
 * that fails before that stops them itself.
 */
export function renderAsResolved(options: Omit<RenderOptions, 'previous'>, pool: RenderPool, onPage?: () => void) {
  const early = pool.failure();
  if (early) throw early;
  const queue = new RenderQueue({ ...options, replace: false }, onPage);
  queue.use(pool.workers);
  return {
    add: (pages: SitePage[]) => queue.add(pages.map((page) => page.resolve())),
    finish: async (): Promise<Rendered[]> => {
      try {
        const rendered = await queue.finish();
        // Every batch answered: nothing is written any more. Stopped while the build writes its summary and records.
        void pool.terminate();
        return rendered;
      } catch (error) {
        await pool.terminate(); // a worker may still be writing into the folder the build is to discard
        throw error;
      } finally {
        queue.detach();
      }
    },
  };
}
