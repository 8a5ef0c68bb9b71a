import { createHash, randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type pg from 'pg';

/** How many clients (addresses, or IPv6 /64 networks) the enquiry limit keeps at most. */
export const DEFAULT_TRACKED_ADDRESSES = 10_000;

/** The key under which clients are counted that arrive while the table is full: they share one count. */
const OVERFLOW = 'overflow';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/**
 * Who is counted: an IPv4 address on its own (also when written as ::ffff:a.b.c.d), an IPv6
 * address by its /64, the smallest network a provider gives one customer (RFC 6177): a
 * customer's device picks any of its 2^64 addresses, so counting them one by one counts nothing.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return address.slice(0, 64) || 'unknown';
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of a valid IPv6 address, as lowercase hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => Number.parseInt(g || '0', 16).toString(16));
}

/**
 * The rate limit's memory: a fixed window per client, at most `capacity` clients. When it is
 * full, windows that ended are cleared; when none has, a new client is not let in but counted
 * with every other newcomer under one shared key. So a flood of new addresses cannot push out
 * (and so reset) the count of a client already held, and memory stays bounded; the price is
 * that newcomers during such a flood share one allowance until windows end.
 */
export function boundedStore(capacity: number) {
  const windows = new Map<string, { count: number; start: number }>();
  let overflow: { count: number; start: number } | undefined;
  let swept = 0;
  const sweep = (now: number, windowMs: number) => {
    if (now - swept < Math.min(1000, windowMs)) return;
    swept = now;
    for (const [key, w] of windows) if (w.start + windowMs <= now) windows.delete(key);
  };
  const count = (key: string, windowMs: number, now: number): Result => {
    let w = key === OVERFLOW ? overflow : windows.get(key);
    if (!w) {
      if (key !== OVERFLOW && windows.size >= capacity - 1) sweep(now, windowMs);
      if (key !== OVERFLOW && windows.size >= capacity - 1) return count(OVERFLOW, windowMs, now);
      w = { count: 0, start: now };
      if (key === OVERFLOW) overflow = w;
      else windows.set(key, w);
    }
    if (w.start + windowMs <= now) {
      w.count = 0;
      w.start = now;
    }
    w.count++;
    return { current: w.count, ttl: w.start + windowMs - now };
  };
  class BoundedStore implements FastifyRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      callback(null, count(key, timeWindow, Date.now()));
    }
    child() {
      return this;
    }
  }
  return { Store: BoundedStore, tracked: () => windows.size + (overflow ? 1 : 0) };
}

export type RateLimitStore = ReturnType<typeof boundedStore>;

/**
 * The rate limit shared by every instance on one PostgreSQL database: fixed windows aligned to
 * the clock, one row per client and window, counted by an upsert. The client is never written
 * as its address: the row holds a hash of it with a random salt of that window, and windows
 * that ended are deleted with their salt, after which no hash can be traced back.
 */
export function databaseStore(pool: pg.Pool): RateLimitStore {
  const salts = new Map<number, Buffer>();
  let cleaned = -1;
  const saltOf = async (window: number): Promise<Buffer> => {
    const known = salts.get(window);
    if (known) return known;
    const { rows } = await pool.query<{ salt: Buffer }>(
      `INSERT INTO studio_rate_limit_salt (window_id, salt) VALUES ($1, $2)
       ON CONFLICT (window_id) DO UPDATE SET window_id = EXCLUDED.window_id RETURNING salt`,
      [window, randomBytes(32)],
    );
    const salt = rows[0]!.salt;
    salts.clear();
    salts.set(window, salt);
    return salt;
  };
  const count = async (key: string, windowMs: number): Promise<Result> => {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const hash = createHash('sha256')
      .update(await saltOf(window))
      .update(key)
      .digest('base64url');
    const { rows } = await pool.query<{ count: number }>(
      `INSERT INTO studio_rate_limit (window_id, client, count) VALUES ($1, $2, 1)
       ON CONFLICT (window_id, client) DO UPDATE SET count = studio_rate_limit.count + 1 RETURNING count`,
      [window, hash],
    );
    if (cleaned !== window) {
      cleaned = window;
      await pool.query('DELETE FROM studio_rate_limit WHERE window_id < $1', [window]);
      await pool.query('DELETE FROM studio_rate_limit_salt WHERE window_id < $1', [window]);
    }
    return { current: rows[0]!.count, ttl: (window + 1) * windowMs - now };
  };
  class DatabaseStore implements FastifyRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      count(key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }
    child() {
      return this;
    }
  }
  return { Store: DatabaseStore, tracked: () => 0 };
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
