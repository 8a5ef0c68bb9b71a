// Issue 36: two `content serve` processes on one SQLite database are safe (not refused): SQLite's
// locks order their writes, duplicates and keys are found in the database, and an e-mail is
// claimed in the database before it is sent, so each enquiry is stored once and e-mailed once.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { postJson, readSent, readStored, type ServeProcess, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';
import { startSmtp, until } from '../helpers/smtp.ts';

const dist = inject('siteDir');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(dir: string, env: Record<string, string>): Promise<ServeProcess> {
  const s = await spawnServe(['--out', dist, '--data', dir, '--rate-limit', '0'], env);
  cleanups.push(async () => {
    s.child.kill('SIGTERM');
    await s.exited;
  });
  return s;
}

describe('two `content serve` on one database', () => {
  it('store every enquiry sent to either once (a retry to the other one too), and e-mail each once', { timeout: 180_000 }, async () => {
    const data = tempData();
    cleanups.push(data.cleanup);
    const port = await freePort();
    const smtp = await startSmtp(port);
    cleanups.push(smtp.close);
    const env = { STUDIO_SMTP_URL: `smtp://127.0.0.1:${port}`, STUDIO_NOTIFY_TO: 'office@example.org' };
    const [a, b] = [await serve(data.dir, env), await serve(data.dir, env)];
    const sent = Array.from({ length: 200 }, (_, i) => validEnquiry({ name: `Visitor ${i}` }));
    const answers = await Promise.all(
      sent.map(async (e, i) => {
        // Half of them sent to both at once, as a visitor whose first try timed out retries through the other.
        const targets = i % 2 ? [a, b] : [i % 4 ? a : b];
        const replies = await Promise.all(targets.map((s) => postJson(s.url, e)));
        return Promise.all(replies.map(async (r) => ({ status: r.status, id: ((await r.json()) as { id: number }).id })));
      }),
    );
    for (const [i, replies] of answers.entries()) {
      expect(replies.every((r) => r.status === 201 || r.status === 200)).toBe(true);
      expect(new Set(replies.map((r) => r.id)).size, `enquiry ${i}`).toBe(1);
    }
    const stored = readStored(data.dir);
    expect(stored).toHaveLength(sent.length);
    expect(new Set(stored.map((e) => e.idempotencyKey))).toEqual(new Set(sent.map((e) => e.idempotencyKey)));
    await until(() => readSent(data.dir).size === sent.length, 120_000);
    await new Promise((r) => setTimeout(r, 500)); // room for a second copy, if there were one
    expect(smtp.received).toHaveLength(sent.length);
  });
});
