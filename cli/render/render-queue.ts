import type { Worker } from 'node:worker_threads';
import type { PageModel } from '../../templates/model.ts';
import type { Rendered } from '../cache/page-cache.ts';
import type { RenderBatch } from './render-batch.ts';

/** Pages per message to a worker. */
export const BATCH = 100;

type Common = Omit<RenderBatch, 'id' | 'pages' | 'keys'>;

/**
 * Pages to render, in batches: each worker is sent one batch, and the next when it answers, so
 * workers that join late (`use`) share what is left. Pages may be added while workers render
 * (a rebuild adds the pages that changed as it finds them). Without any worker, `finish`
 * renders everything in this thread.
 */
export class RenderQueue {
  private readonly batches: RenderBatch[] = [];
  private sent = 0;
  private answered = 0;
  private readonly results: Rendered[][] = [];
  private readonly idle: Worker[] = [];
  private readonly listeners: (() => void)[] = [];
  private closed = false;
  private settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly common: Common,
    private readonly onPage?: () => void,
  ) {}

  add(pages: PageModel[], keys?: string[]): void {
    for (let i = 0; i < pages.length; i += BATCH)
      this.batches.push({ id: this.batches.length, pages: pages.slice(i, i + BATCH), keys: keys?.slice(i, i + BATCH), ...this.common });
    this.pump();
  }

  /** Pages added and not yet sent to a worker. */
  get waiting(): number {
    return this.batches.slice(this.sent).reduce((n, b) => n + b.pages.length, 0);
  }

  use(workers: Worker[]): void {
    for (const worker of workers) {
      const onMessage = (m: { id?: number; results?: Rendered[]; error?: string }) => {
        if (m.id === undefined) return; // an answer to linking (link-previous.ts)
        if (m.error) return this.fail(new Error(`rendering failed: ${m.error}`));
        this.results[m.id] = m.results!;
        this.answered++;
        for (const _ of m.results!) this.onPage?.();
        this.idle.push(worker);
        this.pump();
      };
      const onError = (error: Error) => this.fail(error);
      const onExit = (code: number) => code !== 0 && this.fail(new Error(`a render worker stopped with code ${code}`));
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      this.listeners.push(() => worker.off('message', onMessage).off('error', onError).off('exit', onExit));
      this.idle.push(worker);
    }
    this.pump();
  }

  /** Every page added, rendered and written (in the order added). */
  async finish(): Promise<Rendered[]> {
    this.closed = true;
    if (!this.listeners.length) {
      if (this.batches.length) {
        // The templates and the serializer are loaded here only when this thread renders.
        const { renderBatch } = await import('./render-batch.ts');
        for (const batch of this.batches) {
          this.results[batch.id] = renderBatch(batch);
          for (const _ of batch.pages) this.onPage?.();
        }
      }
    } else if (this.failure) throw this.failure;
    else if (this.answered < this.batches.length)
      await new Promise<void>((resolve, reject) => {
        this.settle = { resolve, reject };
      });
    return this.results.flat();
  }

  /** Stops listening to the workers (they may go on serving others). */
  detach(): void {
    for (const off of this.listeners.splice(0)) off();
  }

  private pump(): void {
    while (this.idle.length && this.sent < this.batches.length) this.idle.pop()!.postMessage(this.batches[this.sent++]);
    if (this.closed && this.answered === this.batches.length) this.settle?.resolve();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.settle?.reject(error);
  }
}
