// A worker thread of `content build`: makes one share of the pages (build-share.ts) from the
// content it is sent once, and answers with the pages' facts.
import { parentPort } from 'node:worker_threads';
import { buildShare, type ShareTask } from './build-share.ts';

parentPort!.once('message', (task: ShareTask) => {
  try {
    parentPort!.postMessage({ result: buildShare(task) });
  } catch (error) {
    parentPort!.postMessage({ error: String((error as Error)?.stack ?? error) });
  }
});
