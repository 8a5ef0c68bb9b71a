import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { StoredEnquiry } from '../../cli/serve/store/store.ts';
import { runCliProcess } from '../helpers/cli.ts';
import { postJson, type ServeProcess, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function inbox(): string {
  const data = tempData();
  cleanups.push(data.cleanup);
  return data.dir;
}

async function exported(data: string): Promise<StoredEnquiry[]> {
  const r = await runCliProcess(['enquiries', 'export', '--format', 'json', '--data', data, '--out', dist]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StoredEnquiry[];
}

/** Sends enquiries from `workers` loops until `stop()`; remembers each one answered 2xx. */
function load(server: ServeProcess, workers: number) {
  const acknowledged = new Map<string, number>();
  let sent = 0;
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const e = validEnquiry();
      sent++;
      try {
        const res = await postJson(server.url, e);
        if (res.ok) acknowledged.set(e.idempotencyKey as string, ((await res.json()) as { id: number }).id);
      } catch {
        // the server died under this request: it was never acknowledged
        return;
      }
    }
  });
  return {
    acknowledged,
    sent: () => sent,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('content serve: nothing acknowledged is lost', () => {
  it('keeps every enquiry answered 2xx when the server is killed with SIGKILL under load', async () => {
    const data = inbox();
    const first = await spawnServe(['--out', dist, '--data', data, '--rate-limit', '0']);
    const traffic = load(first, 32);
    while (traffic.acknowledged.size < 400) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await first.exited;
    await traffic.stop();
    expect(traffic.sent()).toBeGreaterThan(traffic.acknowledged.size); // some were cut off mid-way

    // Restarted on the same inbox: it recovers (a half-written last line is set aside) and goes on.
    const second = await spawnServe(['--out', dist, '--data', data, '--rate-limit', '0']);
    try {
      const after = await postJson(second.url, validEnquiry());
      expect(after.status).toBe(201);
      const stored = await exported(data);
      const byKey = new Map(stored.map((s) => [s.idempotencyKey, s]));
      const missing = [...traffic.acknowledged.keys()].filter((k) => !byKey.has(k));
      expect(missing).toEqual([]);
      for (const [key, id] of traffic.acknowledged) expect(byKey.get(key)!.id).toBe(id);
      // Each stored once, and ids are never given twice.
      expect(new Set(stored.map((s) => s.idempotencyKey)).size).toBe(stored.length);
      expect(new Set(stored.map((s) => s.id)).size).toBe(stored.length);
      const newest = ((await after.json()) as { id: number }).id;
      expect(newest).toBe(Math.max(...stored.map((s) => s.id)));
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });

  it('on SIGTERM stops accepting, finishes the request under way, stores it, and exits cleanly', async () => {
    const data = inbox();
    const server = await spawnServe(['--out', dist, '--data', data]);
    const e = validEnquiry({ name: 'Slow Sender' });
    const body = Buffer.from(JSON.stringify(e));
    const url = new URL(`${server.url}/api/enquiry`);
    // Half a request is on the wire when the server is told to stop; the other half follows.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, origin: server.url } },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, 40));
      setTimeout(async () => {
        server.child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 300));
        req.end(body.subarray(40));
      }, 200);
    });
    const res = await answer;
    expect(res.status).toBe(201);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('Stopped; every acknowledged enquiry is in the database.');
    // New connections are refused once it stopped; the lock is gone, the enquiry is there.
    await expect(fetch(server.url)).rejects.toThrow();
    expect(readdirSync(data).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const stored = await exported(data);
    expect(stored.map((s) => s.name)).toEqual(['Slow Sender']);
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, id: stored[0]!.id });
  });
});

describe('content serve --origin', () => {
  it('lets every origin given post JSON, and still no other', async () => {
    const data = inbox();
    const server = await spawnServe(['--out', dist, '--data', data, '--rate-limit', '0', '--origin', 'https://a.example', 'https://b.example/']);
    try {
      expect((await postJson(server.url, validEnquiry(), { origin: 'https://b.example' })).status).toBe(201);
      expect((await postJson(server.url, validEnquiry(), { origin: 'https://a.example' })).status).toBe(201);
      expect((await postJson(server.url, validEnquiry(), { origin: 'https://c.example' })).status).toBe(403);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
