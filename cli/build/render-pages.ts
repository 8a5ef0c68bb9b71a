import { createHash } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PageModel } from '../../templates/model.ts';
import { renderDocument } from '../../templates/render.tsx';
import type { ClientAssets } from './client-assets.ts';
import { cliEntry } from './entry.ts';
import { PreviousLinker } from './link-previous.ts';

/** What the previous build wrote for a page: the key of its inputs and the file it left. */
export interface PreviousPage {
  /** The hash of the page's model, the templates and the tags inserted (`pageKey`). */
  key: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

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

export interface Rendered extends PreviousPage {
  file: string;
  /** False when the page's inputs were unchanged and the previous file was taken over. */
  rendered: boolean;
}

/**
 * The key of everything a page's HTML is made from: its resolved model (which holds every
 * text, link and setting the page shows) and `templateKey` (the compiler's salt, which holds
 * the templates, and the tags inserted). Same key, same bytes.
 */
function pageKey(page: PageModel, templateKey: string): string {
  // The parts pages share (the chrome of a locale, the form, the organization) are hashed once per object, not once per page.
  const c = page.chrome;
  const own = {
    ...page,
    chrome: {
      ...c,
      ui: digestOnce(c.ui),
      menu: digestOnce(c.menu),
      hours: digestOnce(c.hours),
      contacts: digestOnce(c.contacts),
      footerLinks: digestOnce(c.footerLinks),
    },
    form: page.form && digestOnce(page.form),
    jsonLd: page.jsonLd.map((entry, i) => (i === 0 ? digestOnce(entry) : entry)), // the first is the organization
  };
  return createHash('sha1').update(templateKey).update(JSON.stringify(own)).digest('base64url');
}

const digests = new WeakMap<object, string>();
function digestOnce(value: object): string {
  let digest = digests.get(value);
  if (digest === undefined) {
    digest = createHash('sha1').update(JSON.stringify(value)).digest('base64url');
    digests.set(value, digest);
  }
  return digest;
}

/** Renders and writes a batch of pages (in a worker, or in this thread for small sites). */
export function renderBatch(batch: RenderBatch): Rendered[] {
  const made = new Set<string>();
  return batch.pages.map((page, i) => {
    const key = batch.keys?.[i] ?? pageKey(page, batch.templateKey);
    const path = join(batch.outDir, page.file);
    ensureDir(made, path);
    writeFileSync(path, renderDocument(page, page.form ? batch.inserts.form : batch.inserts.static));
    const st = statSync(path);
    return { file: page.file, key, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, rendered: true };
  });
}

function ensureDir(made: Set<string>, path: string): void {
  const dir = dirname(path);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
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
/** Below this many pages starting workers costs more than it saves. */
const MIN_PAGES_FOR_WORKERS = 400;

/**
 * Renders every page with React's server renderer, spread over one worker thread per core
 * (pages are independent), and writes them into `outDir`. With a previous build to compare
 * with, only the pages that changed are rendered; the others are taken over meanwhile.
 */
export async function renderPages(all: PageModel[], options: RenderOptions, onPage?: () => void): Promise<Rendered[]> {
  const { previous, ...common } = options;
  if (!previous) return render(all, undefined, common, onPage);
  const plan = takeOverUnchanged(all, options);
  let changed: Rendered[];
  try {
    changed = await render(plan.todo, plan.keys, common, onPage);
  } catch (error) {
    await plan.finish().catch(() => {}); // stops the linking thread
    throw error;
  }
  const taken = await plan.finish();
  for (const _ of taken.reused) onPage?.();
  const again = taken.todo.length ? await render(taken.todo, taken.keys, common, onPage) : [];
  return [...taken.reused, ...changed, ...again];
}

async function render(
  pages: PageModel[],
  keys: string[] | undefined,
  common: Omit<RenderBatch, 'id' | 'pages' | 'keys'>,
  onPage?: () => void,
): Promise<Rendered[]> {
  const threads = Math.min(availableParallelism(), Math.ceil(pages.length / BATCH));
  if (pages.length < MIN_PAGES_FOR_WORKERS || threads < 2) {
    const results = renderBatch({ id: 0, pages, keys, ...common });
    for (const _ of results) onPage?.();
    return results;
  }
  const { url, execArgv } = cliEntry('render-worker');
  const batches: RenderBatch[] = [];
  for (let i = 0; i < pages.length; i += BATCH)
    batches.push({ id: batches.length, pages: pages.slice(i, i + BATCH), keys: keys?.slice(i, i + BATCH), ...common });
  const results: Rendered[][] = [];
  let next = 0;
  const workers = Array.from({ length: threads }, () => new Worker(url, { execArgv, env: { ...process.env, NODE_ENV: 'production' } }));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= batches.length) return resolve();
              worker.postMessage(batches[next++]);
            };
            worker.on('message', (m: { id: number; results?: Rendered[]; error?: string }) => {
              if (m.error) return reject(new Error(`rendering failed: ${m.error}`));
              results[m.id] = m.results!;
              for (const _ of m.results!) onPage?.();
              send();
            });
            worker.on('error', reject);
            worker.on('exit', (code) => code !== 0 && reject(new Error(`a render worker stopped with code ${code}`)));
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results.flat();
}
