import { describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { postJson, readStored, serveSite, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');

/** Issue 12, item 12: the client address behind proxies, and the memory the rate limit may use. */
describe('content serve: behind a reverse proxy', () => {
  it('--trust-proxy takes the address the proxy appended, not what the client wrote left of it', async () => {
    const server = await serveSite(dist, { trustProxy: true, rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      // nginx's proxy_add_x_forwarded_for: whatever the client sent, then the address nginx saw.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': `10.9.8.${i}, 203.0.113.5` })).status);
      expect(statuses).toEqual([201, 201, 429, 429]);
      // Another client behind the same proxy has its own count.
      expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': '10.9.8.1, 203.0.113.6' })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });

  it('--trust-proxy N trusts N hops', async () => {
    const server = await serveSite(dist, { trustProxy: 2, rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': `forged-${i}, 198.51.100.9, 10.0.0.1` })).status);
      expect(statuses).toEqual([201, 201, 429]);
      expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': 'forged, 198.51.100.10, 10.0.0.1' })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });

  it('takes --trust-proxy with and without a number on the command line, and refuses a bad one', async () => {
    const data = tempData();
    const server = await spawnServe(['--out', dist, '--data', data.dir, '--trust-proxy', '--rate-limit', '1']);
    try {
      const forged = (i: number) => ({ 'x-forwarded-for': `10.0.0.${i}, 192.0.2.44` });
      expect((await postJson(server.url, validEnquiry(), forged(1))).status).toBe(201);
      expect((await postJson(server.url, validEnquiry(), forged(2))).status).toBe(429);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      data.cleanup();
    }
    const bad = await runCli(['serve', '--out', dist, '--data', data.dir, '--port', '0', '--trust-proxy', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--trust-proxy/);
  });

  it('keeps at most the configured number of addresses, however many distinct ones arrive', async () => {
    const cap = 50;
    const server = await serveSite(dist, { trustProxy: true, trackedAddresses: cap, rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      // Stored enquiries from 400 addresses: once the table is full, the count least recently added to is dropped (rate-limit.ts).
      for (let i = 0; i < 400; i += 20)
        await Promise.all(
          Array.from({ length: 20 }, (_, j) => postJson(server.url, validEnquiry(), { 'x-forwarded-for': `10.${(i + j) >> 8}.${(i + j) & 255}.1` })),
        );
      expect(server.trackedAddresses()).toBeGreaterThan(0);
      expect(server.trackedAddresses()).toBeLessThanOrEqual(cap);
      // The limit still works for the addresses it holds.
      const held = { 'x-forwarded-for': '192.0.2.200' };
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postJson(server.url, validEnquiry(), held)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await server.stop();
    }
  });
});

/** Issue 12, item 13 (the server's part). */
describe('content serve: fill time and reused keys', () => {
  it.each([
    ['missing', undefined],
    ['a word', 'abc'],
    ['a number as text', '12000'],
    ['1e308', 1e308],
    ['negative', -5],
    ['null', null],
  ])('refuses a JSON enquiry whose fillMs is %s with 400 and a clear message', async (_, fillMs) => {
    const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
    try {
      const res = await postJson(server.url, validEnquiry({ fillMs }));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { ok: boolean; error: string; message: string };
      expect(body).toMatchObject({ ok: false, error: 'invalid_fill_time' });
      expect(body.message).toMatch(/fillMs, a number of milliseconds/);
      expect(readStored(server.data)).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });

  it('takes the form without JavaScript, which cannot time itself, and holds a form that does send a time to the same rule', async () => {
    const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
    try {
      const form = (extra: Record<string, string>) =>
        fetch(`${server.url}/api/enquiry`, {
          method: 'POST',
          body: new URLSearchParams({ name: 'Boris', course: 'piano', email: 'boris@example.org', website: '', locale: 'en', ...extra }),
          redirect: 'manual',
        });
      expect((await form({})).status).toBe(303);
      expect((await form({ fillMs: 'abc' })).status).toBe(400);
      expect((await form({ fillMs: '100', message: 'fast' })).status).toBe(303); // too fast: kept aside as suspected spam
      expect(readStored(server.data).map((e) => e.spam)).toEqual([undefined, 'too_fast']);
    } finally {
      await server.stop();
    }
  });

  it('answers a key reused with a different enquiry with 409 in the visitor’s language, keeping the first', async () => {
    const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
    try {
      const first = validEnquiry({ locale: 'de' });
      expect((await postJson(server.url, first)).status).toBe(201);
      const res = await postJson(server.url, { ...first, name: 'Someone Else', message: 'Another enquiry' });
      expect(res.status).toBe(409);
      const body = (await res.json()) as { ok: boolean; error: string; message: string };
      expect(body).toMatchObject({ ok: false, error: 'idempotency_conflict' });
      expect(body.message).toContain('Bitte laden Sie die Seite neu');
      expect(readStored(server.data).map((e) => e.name)).toEqual([first.name]);
    } finally {
      await server.stop();
    }
  });
});
