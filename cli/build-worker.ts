// A worker thread of `content build`: makes shares of the pages (build-share.ts) from the content
// it is sent once, first, and answers each share with the pages' facts.
import { parentPort } from 'node:worker_threads';
import { type ShareResult, type ShareSetup, shareMaker } from './build-share.ts';

let make: ((indexes: number[]) => ShareResult) | undefined;
parentPort!.on('message', (task: { setup?: ShareSetup; id: number; indexes: number[] }) => {
  try {
    make ??= shareMaker(task.setup!);
    if (!task.setup) parentPort!.postMessage({ id: task.id, result: make(task.indexes) });
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: String((error as Error)?.stack ?? error) });
  }
});
