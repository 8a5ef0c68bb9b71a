import { Worker } from 'node:worker_threads';
import type { CardModel } from '../../templates/model.ts';
import { workerEntry } from '../paths.ts';

/** At most this many card workers: each holds satori, its layout engine and the fonts (about 60 MB). */
export const MAX_WORKERS = 4;
/** A card that takes longer, or a worker whose heap passes this, is an error naming the card's page (never a crash of the build). */
const CARD_TIME_MS = 60_000;
const HEAP_MB = 512;

/**
 * Worker threads that draw share cards (card-worker.ts), started when there are enough cards to
 * draw for them to pay (share-cards.ts's `cardWorkers`: from 3 cores); one for each core but one: a
 * worker lays out the next card (satori) while resvg rasterises the last on libuv's threads, and
 * each loads the bundle, satori and the fonts again. `draw` sends a card to the worker with the
 * fewest waiting.
 */
export class CardPool {
  private readonly workers: { worker: Worker; waiting: number }[];
  private readonly pending = new Map<number, { resolve: (png: Buffer) => void; reject: (error: Error) => void }>();
  private next = 0;
  private failed: Error | undefined;

  constructor(count: number) {
    const { url, execArgv } = workerEntry('card-worker', import.meta.url);
    this.workers = Array.from({ length: count }, () => {
      const entry = {
        worker: new Worker(url, { execArgv, env: { ...process.env, NODE_ENV: 'production' }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } }),
        waiting: 0,
      };
      entry.worker.on('message', (m: { id: number; png?: Uint8Array; error?: string }) => {
        entry.waiting--;
        const job = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.png) job?.resolve(Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength));
        else job?.reject(new Error(m.error));
      });
      entry.worker.on('error', (error) => this.fail(error));
      entry.worker.on('exit', (code) => this.fail(new Error(`a card worker stopped with code ${code}`)));
      entry.worker.postMessage({ warm: true });
      return entry;
    });
  }

  /** The PNG of `card`, drawn by a worker; the photo and logo are read from `outDir`. */
  draw = async (card: CardModel, outDir: string): Promise<Buffer> => {
    const entry = this.workers.reduce((a, b) => (b.waiting < a.waiting ? b : a));
    const id = this.next++;
    let timer: NodeJS.Timeout | undefined;
    try {
      if (this.failed) throw this.failed;
      entry.waiting++;
      return await new Promise<Buffer>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        timer = setTimeout(() => this.fail(new Error(`not drawn within ${CARD_TIME_MS / 1000} s`)), CARD_TIME_MS);
        entry.worker.postMessage({ id, card, outDir });
      });
    } catch (error) {
      throw new CardError(card, (error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  };

  private fail(error: Error): void {
    if (this.closed) return;
    this.failed ??= error;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }

  private closed = false;
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

/** A share card that could not be drawn: names the page whose card it is. */
export class CardError extends Error {
  override name = 'CardError';
  constructor(card: CardModel, reason: string) {
    super(
      `The share card of the page ${card.file.replace(/^cards\//, '').replace(/\.png$/, '')} (${card.locale}, "${card.title.slice(0, 80)}") could not be drawn: ${reason}`,
    );
  }
}
