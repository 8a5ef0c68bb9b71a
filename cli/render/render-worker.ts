// A worker thread of `content build`: renders a batch of pages to HTML and writes them.
import { parentPort } from 'node:worker_threads';
import { renderBatch } from './render-batch.ts';
import type { RenderBatch } from './render-pages.ts';

parentPort!.on('message', (batch: RenderBatch) => {
  try {
    parentPort!.postMessage({ id: batch.id, results: renderBatch(batch) });
  } catch (error) {
    parentPort!.postMessage({ id: batch.id, error: String((error as Error)?.stack ?? error) });
  }
});
