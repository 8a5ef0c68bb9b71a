import { createRequire } from 'node:module';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** How many client addresses the enquiry limit keeps at most (least recently seen are forgotten first). */
export const DEFAULT_TRACKED_ADDRESSES = 10_000;

interface LocalStoreLike extends FastifyRateLimitStore {
  lru: { size: number };
}
type LocalStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, cache: number) => LocalStoreLike;

// @fastify/rate-limit's own in-memory store (an LRU map of fixed windows); its package has no export for it.
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreCtor;

/**
 * The rate limit's store: @fastify/rate-limit's in-memory LRU store with a cap we choose, so
 * that a flood of distinct (or forged) addresses costs at most `capacity` entries, and with
 * the number of entries it holds on view for the server's tests.
 */
export function boundedStore(capacity: number) {
  const stores: LocalStoreLike[] = [];
  class BoundedStore implements FastifyRateLimitStore {
    private readonly inner = new LocalStore(false, false, capacity);
    constructor() {
      stores.push(this.inner);
    }
    incr(...args: Parameters<FastifyRateLimitStore['incr']>) {
      this.inner.incr(...args);
    }
    child() {
      return new BoundedStore();
    }
  }
  return { Store: BoundedStore, tracked: () => stores.reduce((n, s) => n + s.lru.size, 0) };
}

/**
 * Which hops of X-Forwarded-For to believe. `false`: none (the socket's address is the
 * client). `n`: the n proxies nearest to us, each of which appends the address it saw; the
 * client is the address the outermost trusted proxy appended (with one proxy: the right-most
 * entry). Entries left of it are whatever the client chose to send and are never believed.
 */
export function trustedHops(hops: number | false): false | ((address: string, hop: number) => boolean) {
  if (!hops) return false;
  return (_address, hop) => hop < hops;
}
