// Issue 36, section 2, first point: what one network can fill. Only stored enquiries are
// counted; a /48 is limited as well as each of its /64s; a full table never refuses a newcomer.
import { describe, expect, inject, it } from 'vitest';
import { NETWORK_SHARE } from '../../cli/serve/http/rate-limit.ts';
import { postJson, readStored, serveSite, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');

/** `count` posts from addresses made by `from(i)`, `batch` at a time; their statuses. */
async function flood(base: string, count: number, body: (i: number) => unknown, from: (i: number) => string, batch = 50): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += batch) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, (_, j) => postJson(base, body(i + j), { 'x-forwarded-for': from(i + j) })),
    );
    for (const a of answers) {
      statuses.push(a.status);
      await a.body?.cancel();
    }
  }
  return statuses;
}

/** A /64 of its own for each i, all in different /48s. */
const own64 = (i: number) => `2001:db8:${(i >> 8).toString(16)}${(i & 255).toString(16).padStart(2, '0')}:1::1`;

describe('#36: the rate limit counts what is stored, per /64 and per /48', () => {
  it('10,000 invalid posts from 10,000 /64s fill nothing: a new visitor is taken (201)', { timeout: 300_000 }, async () => {
    // A table smaller than the flood (the default holds 10,000): before, the newcomers past it shared one count, soon full.
    const server = await serveSite(dist, { trustProxy: true, trackedAddresses: 1_000, rateLimit: { max: 20, windowMs: 600_000 } });
    try {
      const statuses = await flood(server.url, 10_000, () => ({ ...validEnquiry(), email: 'not an address' }), own64);
      expect(new Set(statuses)).toEqual(new Set([422]));
      expect(server.trackedAddresses()).toBe(0);
      for (const visitor of ['2001:db8:ffff:1::1', '198.51.100.77'])
        expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': visitor })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });

  it('a table full of stored counts drops the least recent, never refuses a newcomer', async () => {
    const cap = 40;
    const server = await serveSite(dist, { trustProxy: true, trackedAddresses: cap, rateLimit: { max: 2, windowMs: 600_000 } });
    try {
      const statuses = await flood(
        server.url,
        cap * 3,
        () => validEnquiry(),
        (i) => `10.7.${i >> 8}.${i & 255}`,
        20,
      );
      expect(new Set(statuses)).toEqual(new Set([201]));
      expect(server.trackedAddresses()).toBeLessThanOrEqual(cap);
      expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': '203.0.113.9' })).status).toBe(201);
      // The limit still holds for a client the table holds.
      const held = { 'x-forwarded-for': '203.0.113.10' };
      const own: number[] = [];
      for (let i = 0; i < 3; i++) own.push((await postJson(server.url, validEnquiry(), held)).status);
      expect(own).toEqual([201, 201, 429]);
    } finally {
      await server.stop();
    }
  });

  it('many /64s of one /48 are limited together', async () => {
    const max = 2;
    const server = await serveSite(dist, { trustProxy: true, rateLimit: { max, windowMs: 600_000 } });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= max * NETWORK_SHARE + 3; i++)
        statuses.push((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': `2001:db8:48:${i.toString(16)}::1` })).status);
      expect(statuses).toEqual([...Array<number>(max * NETWORK_SHARE).fill(201), 429, 429, 429]);
      // Another /48 is someone else.
      expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': '2001:db8:49:1::1' })).status).toBe(201);
      expect(readStored(server.data)).toHaveLength(max * NETWORK_SHARE + 1);
    } finally {
      await server.stop();
    }
  });

  it('a stored post counts, also one kept aside as spam; an invalid one and the same one sent again do not', async () => {
    const server = await serveSite(dist, { trustProxy: true, rateLimit: { max: 3, windowMs: 600_000 } });
    try {
      const me = { 'x-forwarded-for': '192.0.2.33' };
      const first = validEnquiry();
      expect((await postJson(server.url, first, me)).status).toBe(201);
      for (let i = 0; i < 5; i++) expect((await postJson(server.url, '{}', me)).status).toBe(422);
      // The same enquiry (its idempotency key) again: stored once, counted once.
      expect((await postJson(server.url, first, me)).status).toBe(200);
      // Sent too fast: kept aside as suspected spam, stored, so counted.
      expect((await postJson(server.url, validEnquiry({ fillMs: 10 }), me)).status).toBe(201);
      expect((await postJson(server.url, validEnquiry(), me)).status).toBe(201);
      const res = await postJson(server.url, validEnquiry(), me);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(readStored(server.data)).toHaveLength(3);
    } finally {
      await server.stop();
    }
  });
});
