// Issue 25, "No personal data in logs" and "Logs": fastify's own logger (pino), JSON lines with
// levels and request ids off a terminal, short lines on one; never a name, an e-mail address, a
// message or a visitor's IP address, in the log or on disk.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { paint } from '../../cli/report/colors.ts';
import { readableLines } from '../../cli/serve/http/log-lines.ts';
import { postJson, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');

const NAME = 'Zebulon Quaxwright';
const EMAIL = 'zebulon.quaxwright@example.org';
const MESSAGE = 'Marmalade-Xylophone-7731';
const ADDRESS = '203.0.113.77';
const ADDRESS6 = '2001:db8:77:42::9';

describe('#25: the server log', () => {
  it('is JSON lines with levels and request ids, and holds no name, e-mail, message or visitor address', async () => {
    const data = tempData();
    const server = await spawnServe(['--out', dist, '--data', data.dir, '--trust-proxy', '--rate-limit', '2'], { STUDIO_SMTP_URL: '' });
    try {
      const from = (a: string) => ({ 'x-forwarded-for': a });
      const e = validEnquiry({ name: NAME, email: EMAIL, message: MESSAGE });
      expect((await postJson(server.url, e, from(ADDRESS))).status).toBe(201);
      // The same key with other content (409, not counted), another enquiry, then the limit (429).
      expect((await postJson(server.url, { ...e, message: `${MESSAGE} again` }, from(ADDRESS))).status).toBe(409);
      expect((await postJson(server.url, validEnquiry({ name: NAME, email: EMAIL }), from(ADDRESS))).status).toBe(201);
      expect((await postJson(server.url, validEnquiry({ name: NAME, email: EMAIL }), from(ADDRESS))).status).toBe(429);
      const form = await fetch(`${server.url}/api/enquiry`, {
        method: 'POST',
        body: new URLSearchParams({ name: NAME, course: 'music', email: EMAIL, message: `${MESSAGE}\u0000`, locale: 'de' }),
        headers: from(ADDRESS6),
        redirect: 'manual',
      });
      expect(form.status).toBe(422);
      expect((await fetch(`${server.url}/vocal?email=${encodeURIComponent(EMAIL)}&name=${encodeURIComponent(NAME)}`, { headers: from(ADDRESS) })).status).toBe(
        200,
      );
      await new Promise((r) => setTimeout(r, 300)); // the last lines are written after the answers
      const log = server.output();
      for (const secret of [NAME, 'Zebulon', EMAIL, 'quaxwright', MESSAGE, ADDRESS, '2001:db8:77', ADDRESS6]) expect(log).not.toContain(secret);
      // Nor anywhere on disk: the inbox holds the enquiry, never the address it came from.
      for (const file of readdirSync(data.dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()))
        expect(readFileSync(join(file.parentPath, file.name), 'latin1')).not.toMatch(/203\.0\.113\.77|2001:db8:77/);

      const lines = log.trim().split('\n');
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const entry of entries) expect(entry).toMatchObject({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) });
      const stored = entries.find((x) => x.event === 'stored');
      expect(stored).toMatchObject({ level: 30, reqId: expect.any(String), enquiry: 1 });
      const requests = entries.filter((x) => x.path === '/api/enquiry');
      expect(requests.map((x) => x.status)).toEqual([201, 409, 201, 429, 422]);
      expect(new Set(requests.map((x) => x.reqId)).size).toBe(5);
      expect(requests.some((x) => x.reqId === stored!.reqId)).toBe(true);
      expect(entries.find((x) => x.path === '/vocal')).toMatchObject({ status: 200, method: 'GET' });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      data.cleanup();
    }
  });

  it('is one short line per entry on a terminal', () => {
    const out: string[] = [];
    const stream = readableLines((t) => out.push(t), paint(false));
    stream.write(`${JSON.stringify({ level: 30, time: Date.UTC(2026, 10, 27, 9, 5, 7), reqId: 'req-7', msg: 'POST /api/enquiry 201' })}\n`);
    stream.write(`${JSON.stringify({ level: 40, time: Date.UTC(2026, 10, 27, 9, 5, 8), msg: 'e-mail for enquiry 3 failed' })}\n`);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d POST \/api\/enquiry 201 \[req-7\]$/);
    expect(out[1]).toMatch(/^\d\d:\d\d:\d\d warning e-mail for enquiry 3 failed$/);
  });
});
