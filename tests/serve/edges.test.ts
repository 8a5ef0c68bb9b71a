// Issue 24, points 7, 8 and 9 (the server's part): hostile field names, a NUL character, the
// rate limit (language, IPv6 /64, a flood of addresses) and what /api/health tells anyone.
import { describe, expect, inject, it } from 'vitest';
import type { ServeEvent } from '../../cli/serve/events.ts';
import type { Mailer } from '../../cli/serve/mail/outbox.ts';
import { freePort } from '../helpers/free-port.ts';
import { postJson, readStored, serveSite, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');

const postForm = (base: string, fields: [string, string][], headers: Record<string, string> = {}) =>
  fetch(`${base}/api/enquiry`, { method: 'POST', body: new URLSearchParams(fields), headers, redirect: 'manual' });

const plainFields = (name: string): [string, string][] => [
  ['name', name],
  ['course', 'music'],
  ['email', 'proto@example.org'],
  ['message', 'hello'],
  ['locale', 'en'],
];

describe('#24 point 8: field names of Object.prototype', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'a plain form post or JSON with a field %s gets a normal answer, never a 500 or a stack trace',
    async (field) => {
      const events: ServeEvent[] = [];
      const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 }, log: (e) => events.push(e) });
      try {
        const form = await postForm(server.url, [...plainFields(`Form ${field}`), [field, 'x']]);
        expect([303, 422]).toContain(form.status);
        const twice = await postForm(server.url, [...plainFields(`Twice ${field}`), [field, 'x'], [field, 'y']]);
        expect([303, 422]).toContain(twice.status);
        const body = `{"name":"Json ${field}","course":"music","email":"p@example.org","locale":"en","fillMs":9000,${JSON.stringify(field)}:{"polluted":true}}`;
        const json = await postJson(server.url, body);
        expect([201, 422]).toContain(json.status);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(events.filter((e) => e.kind === 'error')).toEqual([]);
        // A normal enquiry still works afterwards.
        expect((await postJson(server.url, validEnquiry())).status).toBe(201);
      } finally {
        await server.stop();
      }
    },
  );
});

describe('#24 point 7: a NUL character is input, not an outage', () => {
  it('is refused with 422 naming the field, in the visitor’s language, by the file store as by PostgreSQL (see postgres-edges)', async () => {
    const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
    try {
      const res = await postJson(server.url, validEnquiry({ name: 'Anna\u0000Maria', locale: 'de' }));
      expect(res.status).toBe(422);
      const body = (await res.json()) as { errors: Record<string, string> };
      expect(Object.keys(body.errors)).toEqual(['name']);
      expect(body.errors.name).toMatch(/Zeichen/);
      const form = await postForm(server.url, [...plainFields('Plain').filter(([k]) => k !== 'message'), ['message', 'a\u0000b']]);
      expect(form.status).toBe(422);
      expect(await form.text()).toMatch(/<li><b>[^<]+<\/b>: This field contains a character that cannot be stored/);
      expect(readStored(server.data)).toHaveLength(0);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('#24 point 9: the rate limit', () => {
  it('answers 429 in the language the enquiry names', async () => {
    const server = await serveSite(dist, { rateLimit: { max: 1, windowMs: 60_000 } });
    try {
      expect((await postJson(server.url, validEnquiry({ locale: 'de' }))).status).toBe(201);
      const res = await postJson(server.url, validEnquiry({ locale: 'de' }));
      expect(res.status).toBe(429);
      expect(((await res.json()) as { message: string }).message).toMatch(/Anfragen/);
      const form = await postForm(server.url, plainFields('Plain'));
      expect(form.status).toBe(429);
      expect(await form.text()).toMatch(/Too many/);
    } finally {
      await server.stop();
    }
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const server = await serveSite(dist, { trustProxy: true, rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 8; i++) statuses.push((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': `2001:db8:1:2::${i.toString(16)}` })).status);
      expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
      // Written another way, the same /64.
      expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': '2001:0db8:0001:0002:ffff:ffff:ffff:ffff' })).status).toBe(429);
      // The next /64 is someone else.
      expect((await postJson(server.url, validEnquiry(), { 'x-forwarded-for': '2001:db8:1:3::1' })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });

  it('a flood of invalid posts from new addresses does not reset the count of an address it holds', async () => {
    const cap = 50;
    const server = await serveSite(dist, { trustProxy: true, trackedAddresses: cap, rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      const victim = { 'x-forwarded-for': '192.0.2.7' };
      const before: number[] = [];
      for (let i = 0; i < 3; i++) before.push((await postJson(server.url, validEnquiry(), victim)).status);
      expect(before).toEqual([201, 201, 429]);
      for (let i = 0; i < cap * 3; i += 25)
        await Promise.all(Array.from({ length: 25 }, (_, j) => postJson(server.url, '{}', { 'x-forwarded-for': `10.1.${(i + j) >> 8}.${(i + j) & 255}` })));
      expect(server.trackedAddresses()).toBeLessThanOrEqual(cap);
      expect((await postJson(server.url, validEnquiry(), victim)).status).toBe(429);
    } finally {
      await server.stop();
    }
  });
});

describe('#24 point 9: /api/health', () => {
  it('says degraded and why in words, with no host, port, user or path', async () => {
    const port = await freePort();
    const server = await serveSite(dist, { database: `postgres://secretuser@127.0.0.1:${port}/studio_db` });
    try {
      const res = await fetch(`${server.url}/api/health`);
      expect(res.status).toBe(503);
      const text = await res.text();
      const body = JSON.parse(text) as { ok: boolean; status: string; reasons: string[] };
      expect(body).toMatchObject({ ok: false, status: 'degraded' });
      expect(body.reasons.join(' ')).toMatch(/database/);
      for (const secret of ['127.0.0.1', String(port), 'secretuser', 'studio_db', '/tmp']) expect(text).not.toContain(secret);
    } finally {
      await server.stop();
    }
  });

  it('says degraded in words while e-mail to the studio is off (issue 36), ok once it is on', async () => {
    const off = await serveSite(dist, { mailOff: 'no mail server is set' });
    try {
      const res = await fetch(`${off.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        ok: true,
        status: 'degraded',
        reasons: [
          'e-mail to the studio is off (no mail server is set): enquiries are stored, but no one is told of them ("content enquiries list" shows them)',
        ],
      });
    } finally {
      await off.stop();
    }
    const mailer: Mailer = { sendMail: async () => ({}) };
    const on = await serveSite(dist, { mail: { mailer, to: 'studio@example.org', from: 'site@example.org' } });
    try {
      const res = await fetch(`${on.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, status: 'ok' });
    } finally {
      await on.stop();
    }
  });
});
