// A worker thread of `content build`: renders batches of pages to HTML and writes them, and on a
// rebuild first links the previous site's pages into the new one (link-previous.ts).
import { parentPort } from 'node:worker_threads';
import { type LinkTask, linkFiles } from '../cache/link-previous.ts';
import type { RenderBatch } from './render-batch.ts';
import { renderBatch } from './render-batch.ts';

parentPort!.on('message', (task: RenderBatch | LinkTask) => {
  const answer = 'link' in task ? { linked: task.id } : { id: task.id };
  try {
    parentPort!.postMessage('link' in task ? { ...answer, failed: linkFiles(task) } : { ...answer, results: renderBatch(task) });
  } catch (error) {
    parentPort!.postMessage({ ...answer, error: String((error as Error)?.stack ?? error) });
  }
});
