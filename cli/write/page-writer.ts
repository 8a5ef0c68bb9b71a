// The page writer thread of `content build` (build-pages.ts): writes the pages the build's thread
// made, batch by batch, into the staging folder, and answers each batch with the files' identities.
// Writing is the kernel's work more than ours (a site of 15,000 pages is 350 MB of HTML): on a
// second core it goes on while the next pages are made.
import { parentPort } from 'node:worker_threads';
import { writePage } from './write-page.ts';

/** A batch of pages: their files and their HTML (UTF-8, each in a buffer of its own, transferred). */
export interface WriteBatch {
  id: number;
  dir: string;
  files: string[];
  bytes: Uint8Array[];
}

const made = new Set<string>();
parentPort!.on('message', ({ id, dir, files, bytes }: WriteBatch) => {
  try {
    parentPort!.postMessage({ id, written: files.map((file, i) => writePage(dir, file, bytes[i]!, made)) });
  } catch (error) {
    parentPort!.postMessage({ id, error: String((error as Error)?.stack ?? error) });
  }
});
