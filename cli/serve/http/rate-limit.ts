import { createHash, randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type pg from 'pg';

/** How many counts (IPv4 addresses, IPv6 /64 and /48 networks) the in-memory limit keeps at most. */
export const DEFAULT_TRACKED_ADDRESSES = 10_000;

/**
 * How many times the limit of one /64 all the /64s of one /48 may send together: a /48 is an
 * organisation's or a provider's customer site (RFC 6177), many people; one machine that owns it
 * can otherwise post from 65,536 /64s, each with its own allowance.
 */
export const NETWORK_SHARE = 5;

/** One count the enquiry is held against, and its limit per window. */
export interface Limit {
  key: string;
  max: number;
}

/** Whether an enquiry was counted, or how long (ms) until the count that is full ends. */
export type Taken = { ok: true } | { ok: false; ttl: number };

/**
 * The rate limit's memory. An enquiry is counted only once it is to be stored: `take` counts it
 * against every limit at once, or against none when one of them is full; `giveBack` undoes that
 * when it was not stored after all (refused by the store, or the same enquiry sent again).
 */
export interface RateCounter {
  take(limits: Limit[], windowMs: number): Promise<Taken>;
  giveBack(limits: Limit[], windowMs: number): Promise<void>;
  /** How many counts the memory holds now (in memory: never more than its capacity). */
  tracked(): number;
}

/**
 * Who is counted, and against what: an IPv4 address on its own (also when written as
 * ::ffff:a.b.c.d; a /24 is too often a whole carrier's NAT to limit as one); an IPv6 address by
 * its /64, the smallest network a provider gives one customer (RFC 6177: a customer's device
 * picks any of its 2^64 addresses, so counting them one by one counts nothing), and by its /48,
 * which may send NETWORK_SHARE times as much.
 */
export function clientLimits(address: string, max: number): Limit[] {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return [{ key: mapped, max }];
  if (isIPv4(address)) return [{ key: address, max }];
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return [{ key: address.slice(0, 64) || 'unknown', max }];
  const groups = ipv6Groups(bare);
  return [
    { key: `${groups.slice(0, 4).join(':')}::/64`, max },
    { key: `${groups.slice(0, 3).join(':')}::/48`, max: max * NETWORK_SHARE },
  ];
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
 * The limit in memory, for a single instance: a fixed window per count, at most `capacity`
 * counts. When it is full, the count least recently added to is dropped (most often one whose
 * window ended): a newcomer is never refused because the table is full. Only stored enquiries
 * are counted, so filling the table takes as many stored enquiries from as many networks,
 * each of which the limit holds; dropping a count then forgets at most what one network sent.
 */
export function memoryCounter(capacity: number): RateCounter {
  const windows = new Map<string, { count: number; start: number }>();
  const current = (key: string, windowMs: number, now: number) => {
    const w = windows.get(key);
    return w && w.start + windowMs > now ? w : undefined;
  };
  return {
    async take(limits, windowMs) {
      const now = Date.now();
      for (const { key, max } of limits) {
        const w = current(key, windowMs, now);
        if (w && w.count >= max) return { ok: false, ttl: w.start + windowMs - now };
      }
      for (const { key } of limits) {
        const w = current(key, windowMs, now) ?? { count: 0, start: now };
        w.count++;
        // Map keeps insertion order: the first key is the one least recently added to.
        windows.delete(key);
        windows.set(key, w);
      }
      for (const key of windows.keys()) {
        if (windows.size <= capacity) break;
        windows.delete(key);
      }
      return { ok: true };
    },
    async giveBack(limits, windowMs) {
      const now = Date.now();
      for (const { key } of limits) {
        const w = current(key, windowMs, now);
        if (w && w.count > 0) w.count--;
      }
    },
    tracked: () => windows.size,
  };
}

/**
 * The limit shared by every instance on one PostgreSQL database: fixed windows aligned to the
 * clock, one row per count and window, counted by an upsert that adds only below the limit. The
 * client is never written as its address: the row holds a hash of it with a random salt of that
 * window, and windows that ended are deleted with their salt, after which no hash can be traced
 * back. A count that cannot be reached (the database away) does not stop an enquiry: storing it
 * answers for itself.
 */
export function databaseCounter(pool: pg.Pool): RateCounter {
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
  const hashOf = async (window: number, key: string) =>
    createHash('sha256')
      .update(await saltOf(window))
      .update(key)
      .digest('base64url');
  const giveBack = async (window: number, limits: Limit[]) => {
    for (const { key } of limits)
      await pool.query('UPDATE studio_rate_limit SET count = count - 1 WHERE window_id = $1 AND client = $2 AND count > 0', [
        window,
        await hashOf(window, key),
      ]);
  };
  const take = async (limits: Limit[], windowMs: number): Promise<Taken> => {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const counted: Limit[] = [];
    for (const limit of limits) {
      const { rowCount } = await pool.query(
        `INSERT INTO studio_rate_limit (window_id, client, count) VALUES ($1, $2, 1)
         ON CONFLICT (window_id, client) DO UPDATE SET count = studio_rate_limit.count + 1 WHERE studio_rate_limit.count < $3`,
        [window, await hashOf(window, limit.key), limit.max],
      );
      if (!rowCount) {
        await giveBack(window, counted);
        return { ok: false, ttl: (window + 1) * windowMs - now };
      }
      counted.push(limit);
    }
    if (cleaned !== window) {
      cleaned = window;
      await pool.query('DELETE FROM studio_rate_limit WHERE window_id < $1', [window]);
      await pool.query('DELETE FROM studio_rate_limit_salt WHERE window_id < $1', [window]);
    }
    return { ok: true };
  };
  return {
    take: (limits, windowMs) => take(limits, windowMs).catch((): Taken => ({ ok: true })),
    giveBack: (limits, windowMs) => giveBack(Math.floor(Date.now() / windowMs), limits).catch(() => {}),
    tracked: () => 0,
  };
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
