import type { EnquiryStore } from '../store/store.ts';

const DAY_MS = 86_400_000;
/** How often the server looks for enquiries past the period. */
export const SWEEP_EVERY_MS = 60 * 60_000;

export interface Retention {
  /** Deletes what is past the period now; resolves to the ids deleted. */
  sweep(): Promise<number[]>;
  stop(): void;
}

/**
 * Deletes the enquiries older than `days` when the server starts and every hour after, with
 * their e-mail jobs and duplicate keys (the store's `eraseOlderThan`), and records the period
 * in the store so that `content enquiries list` and health can say it. A store that is away
 * is swept at the next round.
 */
export function startRetention(
  store: EnquiryStore,
  days: number,
  options: { everyMs?: number; now?: () => Date; onErased?: (ids: number[]) => void; onError?: (error: Error) => void } = {},
): Retention {
  const now = options.now ?? (() => new Date());
  let running: Promise<number[]> | undefined;
  const sweep = () =>
    (running ??= (async () => {
      try {
        await store.setRetention(days);
        const ids = await store.eraseOlderThan(new Date(now().getTime() - days * DAY_MS), `kept longer than ${days} days`);
        if (ids.length) options.onErased?.(ids);
        return ids;
      } finally {
        running = undefined;
      }
    })());
  const round = () => void sweep().catch((error) => options.onError?.(error as Error));
  round();
  const timer = setInterval(round, options.everyMs ?? SWEEP_EVERY_MS);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
