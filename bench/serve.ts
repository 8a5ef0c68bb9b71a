// npm run bench:serve — `content serve` under load on loopback: autocannon sends valid enquiries
// (each with its own idempotency key) from this process to the server in another, for a
// bounded number of requests; then the inbox is read back to check that every enquiry
// answered 2xx was stored exactly once. Reports medians of several runs; writes JSON to
// bench/results/. Knobs: SERVE_REQUESTS (per run, default 5000), SERVE_CONNECTIONS (default 50),
// BENCH_RUNS (default 3).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fromRoot } from '../cli/paths.ts';
import { readInbox } from '../cli/serve/inbox.ts';

const REQUESTS = Number(process.env.SERVE_REQUESTS ?? 5000);
const CONNECTIONS = Number(process.env.SERVE_CONNECTIONS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const site = fromRoot('bench', '.work', 'serve-site');
if (!existsSync(join(site, '.studio', 'enquiry.json'))) {
  console.log('Building the shipped site for the benchmark…');
  const built = spawnSync(process.execPath, [fromRoot('cli/bin.js'), 'build', '--out', site, '--quiet'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

function startServe(data: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fromRoot('cli/bin.js'), 'serve', '--out', site, '--data', data, '--port', '0', '--rate-limit', '0', '--quiet'], {
    env: { ...process.env, NO_COLOR: '1', STUDIO_SMTP_URL: '' },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /E-mail to the studio/.test(out) && /at (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`content serve exited with ${code}: ${out}`)));
  });
}

interface Run {
  requests: number;
  ok2xx: number;
  other: number;
  errors: number;
  stored: number;
  storedOnce: boolean;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function once(kind: 'enquiries' | 'pages'): Promise<Run> {
  const data = mkdtempSync(join(tmpdir(), 'studio-bench-inbox-'));
  const server = await startServe(data);
  let n = 0;
  const enquiry = () => {
    n++;
    return JSON.stringify({
      name: `Bench Visitor ${n}`,
      course: 'music',
      message: 'Guten Tag, wir interessieren uns für Gesangsunterricht für unsere Tochter (9 Jahre).',
      email: `visitor${n}@example.org`,
      locale: 'de',
      page: '/de/vocal',
      idempotencyKey: `bench${process.pid}x${Date.now().toString(36)}x${n}`,
      website: '',
      fillMs: 20_000,
    });
  };
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    amount: REQUESTS,
    timeout: 10,
    requests:
      kind === 'enquiries'
        ? [
            {
              method: 'POST',
              path: '/api/enquiry',
              headers: { 'content-type': 'application/json', origin: server.url },
              setupRequest: (req) => ({ ...req, body: enquiry() }),
            },
          ]
        : [{ method: 'GET', path: '/de/vocal', headers: { 'accept-encoding': 'br' } }],
  });
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  const stored = readInbox(data).enquiries;
  rmSync(data, { recursive: true, force: true });
  return {
    requests: result.requests.total,
    ok2xx: result['2xx'],
    other: result.non2xx,
    errors: result.errors + result.timeouts,
    stored: stored.length,
    storedOnce: new Set(stored.map((s) => s.idempotencyKey)).size === stored.length,
    perSecond: (result['2xx'] / result.duration) * 1,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

const table: Record<string, unknown>[] = [];
for (const kind of ['enquiries', 'pages'] as const) {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(kind));
  const lost = kind === 'enquiries' ? runs.reduce((s, r) => s + Math.max(0, r.ok2xx - r.stored), 0) : 0;
  table.push({
    load: kind === 'enquiries' ? 'POST /api/enquiry (stored, fsynced)' : 'GET /de/vocal (brotli)',
    connections: CONNECTIONS,
    requestsPerRun: REQUESTS,
    runs: RUNS,
    medianPerSecond: Math.round(median(runs.map((r) => r.perSecond))),
    medianP50Ms: median(runs.map((r) => r.p50Ms)),
    medianP99Ms: median(runs.map((r) => r.p99Ms)),
    non2xx: runs.reduce((s, r) => s + r.other + r.errors, 0),
    ...(kind === 'enquiries'
      ? {
          answered2xx: runs.reduce((s, r) => s + r.ok2xx, 0),
          stored: runs.reduce((s, r) => s + r.stored, 0),
          lost,
          eachStoredOnce: runs.every((r) => r.storedOnce),
        }
      : {}),
  });
  if (lost) console.error(`LOST ${lost} enquiries that were answered 2xx`);
}
console.table(table);
mkdirSync(fromRoot('bench', 'results'), { recursive: true });
const file = fromRoot('bench', 'results', `serve-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, table }, null, 2)}\n`);
console.log(`Written to ${file}`);
