// npm run bench:serve — `content serve` under load on loopback: autocannon sends valid enquiries
// (each with its own idempotency key) from this process to the server in another, for a
// bounded number of requests; then the inbox is read back to check that every enquiry
// answered 2xx was stored exactly once. Enquiries go to the file inbox, then (when PostgreSQL's
// programs are installed) to PostgreSQL on a throwaway cluster, with one instance and with two
// (each load generator sends half the requests to one instance; p50 and p99 are then the higher
// of the two). Reports medians of several runs; writes JSON to bench/results/. Knobs: SERVE_REQUESTS (per run, default 5000), SERVE_CONNECTIONS (default 50),
// BENCH_RUNS (default 3).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { fromRoot } from '../cli/paths.ts';
import { type Cluster, startPostgres } from '../tests/helpers/postgres.ts';
import { readStored } from '../tests/helpers/serve.ts';

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

function startServe(data: string, database?: string): Promise<{ child: ChildProcess; url: string }> {
  const store = database ? ['--database', database] : ['--data', data];
  const child = spawn(process.execPath, [fromRoot('cli/bin.js'), 'serve', '--out', site, ...store, '--port', '0', '--rate-limit', '0', '--quiet'], {
    env: { ...process.env, NO_COLOR: '1', STUDIO_SMTP_URL: '', STUDIO_DATABASE_URL: '' },
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

type Load = 'enquiries' | 'pages' | 'pg1' | 'pg2';
let cluster: Cluster | undefined;

async function once(kind: Load): Promise<Run> {
  const data = mkdtempSync(join(tmpdir(), 'studio-bench-inbox-'));
  const database = kind === 'pg1' || kind === 'pg2' ? cluster!.url(await cluster!.createDatabase()) : undefined;
  const servers = await Promise.all(Array.from({ length: kind === 'pg2' ? 2 : 1 }, () => startServe(data, database)));
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
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: server.url,
        connections: CONNECTIONS / servers.length,
        amount: REQUESTS / servers.length,
        timeout: 10,
        requests:
          kind !== 'pages'
            ? [
                {
                  method: 'POST',
                  path: '/api/enquiry',
                  headers: { 'content-type': 'application/json', origin: server.url },
                  setupRequest: (req) => ({ ...req, body: enquiry() }),
                },
              ]
            : [{ method: 'GET', path: '/de/vocal', headers: { 'accept-encoding': 'br' } }],
      }),
    ),
  );
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
  const stored = database ? await storedIn(database) : readStored(data).map((e) => e.idempotencyKey);
  rmSync(data, { recursive: true, force: true });
  const sum = (f: (r: autocannon.Result) => number) => results.reduce((s, r) => s + f(r), 0);
  return {
    requests: sum((r) => r.requests.total),
    ok2xx: sum((r) => r['2xx']),
    other: sum((r) => r.non2xx),
    errors: sum((r) => r.errors + r.timeouts),
    stored: stored.length,
    storedOnce: new Set(stored).size === stored.length,
    perSecond: sum((r) => r['2xx']) / Math.max(...results.map((r) => r.duration)),
    p50Ms: Math.max(...results.map((r) => r.latency.p50)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
  };
}

async function storedIn(url: string): Promise<(string | undefined)[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ k: string }>('SELECT idempotency_key AS k FROM studio_enquiries');
  await client.end();
  return rows.map((r) => r.k);
}

const LOADS: Record<Load, string> = {
  enquiries: 'POST /api/enquiry, file inbox (fsynced)',
  pg1: 'POST /api/enquiry, PostgreSQL, 1 instance',
  pg2: 'POST /api/enquiry, PostgreSQL, 2 instances',
  pages: 'GET /de/vocal (brotli)',
};
const started = await startPostgres();
if ('unavailable' in started) console.log(`PostgreSQL left out: ${started.unavailable}`);
else cluster = started;

const table: Record<string, unknown>[] = [];
const kinds: Load[] = cluster ? ['enquiries', 'pg1', 'pg2', 'pages'] : ['enquiries', 'pages'];
for (const kind of kinds) {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(kind));
  const lost = kind !== 'pages' ? runs.reduce((s, r) => s + Math.max(0, r.ok2xx - r.stored), 0) : 0;
  table.push({
    load: LOADS[kind],
    connections: CONNECTIONS,
    requestsPerRun: REQUESTS,
    runs: RUNS,
    medianPerSecond: Math.round(median(runs.map((r) => r.perSecond))),
    medianP50Ms: median(runs.map((r) => r.p50Ms)),
    medianP99Ms: median(runs.map((r) => r.p99Ms)),
    non2xx: runs.reduce((s, r) => s + r.other + r.errors, 0),
    ...(kind !== 'pages'
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
await cluster?.remove();
console.table(table);
mkdirSync(fromRoot('bench', 'results'), { recursive: true });
const file = fromRoot('bench', 'results', `serve-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, table }, null, 2)}\n`);
console.log(`Written to ${file}`);
