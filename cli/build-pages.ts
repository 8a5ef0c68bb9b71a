import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ShareResult, ShareTask } from './build-share.ts';
import { cliEntry } from './render/entry.ts';
import type { Content, Entry } from './validate/content.ts';
import type { SourceFile } from './validate/source.ts';

/**
 * Below this many pages to make, the build's thread makes them all: a worker loads the templates
 * anew and is sent the content, which pays only with pages enough and a core to spare (measured:
 * see the README's "Speed"). STUDIO_RENDER_WORKERS_FROM sets another number (the tests have small
 * sites made by workers).
 */
const MIN_PAGES_FOR_WORKERS = () => Number(process.env.STUDIO_RENDER_WORKERS_FROM) || 1500;

/**
 * Makes the pages `task.indexes` names (resolve, render, write: build-share.ts): in this thread,
 * or with many pages shared out among one worker per core besides this thread, each sent the
 * content once and its pages by index (every third page for the third of three), answering with
 * their facts. Returns them in the order of `task.indexes`, and how many threads made them. A worker's failure fails the build
 * once every worker has stopped, so nothing writes into the staging folder any more.
 */
export async function makePages(task: ShareTask, onPage: () => void): Promise<ShareResult & { threads: number }> {
  const threads = task.indexes.length < MIN_PAGES_FOR_WORKERS() ? 1 : Math.max(1, availableParallelism());
  const shares = Array.from({ length: threads }, (_, t) => task.indexes.filter((_, i) => i % threads === t));
  const data = threads > 1 ? contentAsData(task.content) : task.content;
  const workers = shares.slice(1).map((indexes) => inWorker({ ...task, content: data, indexes }));
  process.env.NODE_ENV ??= 'production'; // React's production build, as under Vike and in the workers
  const { buildShare } = await import('./build-share.ts');
  let own: ShareResult;
  try {
    own = buildShare({ ...task, indexes: shares[0]! }, onPage);
  } catch (error) {
    await Promise.all(workers.map((w) => w.stop()));
    throw error;
  }
  const settled = await Promise.allSettled(workers.map((w) => w.result));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const results = [own, ...settled.map((s) => (s as PromiseFulfilledResult<ShareResult>).value)];
  for (const r of results.slice(1)) for (const _ of r.made) onPage();
  const made = task.indexes.map((_, i) => results[i % threads]!.made[Math.floor(i / threads)]!);
  return { made, shared: [...new Set(results.flatMap((r) => r.shared))], threads };
}

/** One share made by a worker thread: its result, and how to stop it (a failed build waits for that). */
function inWorker(task: ShareTask): { result: Promise<ShareResult>; stop(): Promise<void> } {
  const { url, execArgv } = cliEntry('render-worker');
  const worker = new Worker(url, { execArgv, env: { ...process.env, NODE_ENV: 'production' } });
  const result = new Promise<ShareResult>((resolve, reject) => {
    worker.once('message', (m: { result?: ShareResult; error?: string }) =>
      m.error ? reject(new Error(`making pages failed: ${m.error}`)) : resolve(m.result!),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`a build worker stopped with code ${code}`)));
  }).finally(() => worker.terminate());
  result.catch(() => {}); // heard where it is awaited
  worker.postMessage(task);
  return { result, stop: async () => void (await worker.terminate()) };
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
