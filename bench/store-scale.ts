// npx tsx bench/store-scale.ts — the SQLite enquiry store at scale (issue 36): fills a store with
// STORE_ENQUIRIES enquiries (default 1,000,000, spread over 170 days, through the store's own
// add()), then measures with `content serve` running on it and taking enquiries:
//   - how long `content serve` takes to start (spawn → ready line; wall, and the CPU it used by then:
//     the CPU does not grow with the machine's load) and its memory (VmRSS, VmHWM);
//   - `content enquiries show --email` and `erase --id` as commands (process start included) and
//     as the store's own calls on a second connection beside the server (the query alone), and as
//     what the command does with the store (open, query, close: the database's part of the command);
//   - the hourly retention sweep when nothing expires, and its query plan (by the index on the time);
//   - as the floor of every command's time: `node -e 0` (Node's own start on this machine), and a
//     command that opens no store (`show --help`); the load average says how busy the machine was.
// Medians of several runs. Prints a table and writes JSON to bench/results/store-scale.json.
// STORE_DIR=DIR keeps the filled store there for the next run (filling a million takes minutes).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../cli/paths.ts';
import { SqliteStore } from '../cli/serve/store/sqlite-store.ts';
import type { NewEnquiry } from '../cli/serve/store/store.ts';

const COUNT = Number(process.env.STORE_ENQUIRIES ?? 1_000_000);

if (process.argv[2] === 'load') {
  // The load generator: posts enquiries to the server at argv[3] until SIGTERM, then prints what was answered.
  const url = process.argv[3]!;
  // Another text in each run: the same enquiry again within the duplicate window would be answered 200 (already stored).
  const run = Date.now().toString(36);
  let running = true;
  let acknowledged = 0;
  let refused = 0;
  const statuses: Record<string, number> = {};
  process.once('SIGTERM', () => {
    running = false;
  });
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; running; i++) {
        const r = await fetch(`${url}/api/enquiry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: JSON.stringify({
            name: `Load ${w}-${i}`,
            course: 'music',
            message: `Anfrage ${w}-${i} während der Messung ${run}`,
            email: `load${w}x${i}@example.org`,
            locale: 'de',
            page: '/de/vocal',
            idempotencyKey: `load${w}x${i}x${Date.now()}`,
            website: '',
            fillMs: 9000,
          }),
        }).catch(() => undefined); // a connection the server closed: counted as refused
        if (r?.status === 201) acknowledged++;
        else {
          refused++;
          statuses[r?.status ?? 'no answer'] = (statuses[r?.status ?? 'no answer'] ?? 0) + 1;
        }
        await r?.arrayBuffer();
      }
    }),
  );
  process.stdout.write(JSON.stringify({ acknowledged, refused, statuses }));
  process.exit(0);
}
const DAY = 86_400_000;
const site = fromRoot('bench', '.work', 'serve-site');
if (!existsSync(join(site, '.studio', 'enquiry.json'))) {
  console.log('Building the shipped site for the benchmark…');
  const built = spawnSync(process.execPath, [fromRoot('cli/bin.js'), 'build', '--out', site, '--quiet'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const data = process.env.STORE_DIR ?? mkdtempSync(join(tmpdir(), 'studio-scale-'));
const enquiry = (i: number): NewEnquiry => ({
  name: `Visitor ${i}`,
  course: 'music',
  message: `Guten Tag, ich interessiere mich für den Kurs (Anfrage ${i}). Wann ist die nächste Probestunde?`,
  email: `visitor${i}@example.org`,
  locale: 'de',
  page: '/de/vocal',
  idempotencyKey: `scale${i.toString(36).padStart(8, '0')}`,
  via: 'json',
  notify: i % 3 === 0,
});

async function fill(): Promise<number> {
  const store = await SqliteStore.open(data);
  const have = store.count();
  const started = performance.now();
  const t0 = Date.now() - 170 * DAY;
  for (let from = have; from < COUNT; from += 10_000) {
    const n = Math.min(10_000, COUNT - from);
    // One turn of the event loop: one transaction, as under a burst of visitors.
    await Promise.all(Array.from({ length: n }, (_, k) => store.add(enquiry(from + k), new Date(t0 + ((from + k) * 170 * DAY) / COUNT))));
    if ((from / 10_000) % 10 === 0) process.stdout.write(`\r  ${from + n} of ${COUNT} stored`);
  }
  process.stdout.write('\n');
  // The duplicate window (ten minutes) of every enquiry just stored: the hourly sweeps of the 170
  // days would have ended it long ago. Without this, the first sweep of the server measured below
  // would end a million of them while it starts.
  await store.eraseOlderThan(new Date(Date.now() - 180 * DAY), 'benchmark fill');
  await store.close();
  return (performance.now() - started) / 1000;
}

/** CPU (user + system) a process has used so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Math.round(((Number(fields[11]) + Number(fields[12])) * 1000) / 100); // clock ticks: 100 a second on Linux
}

function startServe(dir = data): Promise<{ child: ChildProcess; url: string; startMs: number; startCpuMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [fromRoot('cli/bin.js'), 'serve', '--out', site, '--data', dir, '--port', '0', '--rate-limit', '0', '--quiet'], {
    env: { ...process.env, NO_COLOR: '1', STUDIO_SMTP_URL: '', STUDIO_DATABASE_URL: '' },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /E-mail to the studio/.test(out) && /at (http:\/\/[\w.:[\]-]+)/.exec(out)?.[1];
      if (url) resolve({ child, url, startMs: performance.now() - started, startCpuMs: cpuMs(child.pid!) });
    });
    child.on('exit', (code) => reject(new Error(`content serve exited with ${code}: ${out}`)));
  });
}

/** Resident memory of a process now and at its peak, in MB. */
function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/** A command's wall time, process start included. */
function command(args: string[]): { ms: number; code: number | null; out: string } {
  const started = performance.now();
  const r = spawnSync(process.execPath, [fromRoot('cli/bin.js'), 'enquiries', ...args, '--data', data], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { ms: Math.round(performance.now() - started), code: r.status, out: r.stdout + r.stderr };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`Filling ${data} with ${COUNT.toLocaleString('en')} enquiries…`);
const fillSeconds = await fill();
const dbBytes = statSync(join(data, 'enquiries.db')).size;
console.log(`  done in ${fillSeconds.toFixed(1)} s; enquiries.db is ${(dbBytes / 1e6).toFixed(0)} MB`);

// The same start on an empty store: what loading the program itself costs on this machine.
const empty = mkdtempSync(join(tmpdir(), 'studio-scale-empty-'));
const emptyStarts: number[] = [];
const emptyStartsCpu: number[] = [];
for (let i = 0; i < 5; i++) {
  const s = await startServe(empty);
  emptyStarts.push(s.startMs);
  emptyStartsCpu.push(s.startCpuMs);
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
}
rmSync(empty, { recursive: true, force: true });
const starts: number[] = [];
const startsCpu: number[] = [];
for (let i = 0; i < 5; i++) {
  const s = await startServe();
  starts.push(s.startMs);
  startsCpu.push(s.startCpuMs);
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
}
const server = await startServe();
const afterStart = memory(server.child.pid!);

// Enquiries keep arriving (4 visitors at a time, from a process of their own) while the commands run.
const loader = spawn(process.execPath, [...process.execArgv, import.meta.filename, 'load', server.url], { stdio: ['ignore', 'pipe', 'inherit'] });
let loaded = '';
loader.stdout!.on('data', (d) => (loaded += d));
await new Promise((r) => setTimeout(r, 1000));

// Node's own start, and a command that does nothing with the store (its help): the floor under every command's time.
const nodeFloor: number[] = [];
const emptyCommand: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  nodeFloor.push(Math.round(performance.now() - t0));
  emptyCommand.push((await command(['show', '--help'])).ms);
}
const showCommand: number[] = [];
const eraseCommand: number[] = [];
const showQuery: number[] = [];
const eraseQuery: number[] = [];
const showStore: number[] = [];
const eraseStore: number[] = [];
const beside = await SqliteStore.open(data);
// Visitors still stored (a run on a kept STORE_DIR finds those of the runs before erased).
const visitorFrom = (id: number) =>
  beside.db.prepare("SELECT id, email, name FROM enquiries WHERE id >= ? AND name LIKE 'Visitor %' ORDER BY id LIMIT 1").get(id) as {
    id: number;
    email: string;
    name: string;
  };
for (let i = 0; i < 5; i++) {
  const person = visitorFrom(Math.floor(COUNT / 2) + i * Math.floor(COUNT / 50) + Math.floor(Math.random() * 5000));
  const shown = await command(['show', '--email', person.email.toUpperCase()]);
  if (!shown.out.includes(person.name)) throw new Error(`show did not find ${person.name}: ${shown.out}`);
  showCommand.push(shown.ms);
  const erased = await command(['erase', '--id', String(person.id), '--yes']);
  if (erased.code !== 0 || !erased.out.includes(`ids ${person.id},`)) throw new Error(`erase failed: ${erased.out}`);
  eraseCommand.push(erased.ms);
  const other = visitorFrom(person.id + 37);
  let t = performance.now();
  const found = await beside.find({ email: other.email });
  showQuery.push(performance.now() - t);
  if (found.length !== 1) throw new Error('find did not find one');
  t = performance.now();
  await beside.erase([other.id], 'benchmark');
  eraseQuery.push(performance.now() - t);
  // What the commands do with the store, in this process: open it, find (show) or erase, close it.
  const third = visitorFrom(other.id + 41);
  t = performance.now();
  const forShow = await SqliteStore.open(data);
  await forShow.find({ email: third.email });
  await forShow.damaged({ email: third.email });
  await forShow.close();
  showStore.push(performance.now() - t);
  t = performance.now();
  const forErase = await SqliteStore.open(data);
  await forErase.find({ ids: [third.id] });
  await forErase.erase([third.id], 'benchmark');
  await forErase.close();
  eraseStore.push(performance.now() - t);
}
// The hourly sweep with the default period: nothing is older than 180 days, so it only looks.
let t = performance.now();
const swept = await beside.eraseOlderThan(new Date(Date.now() - 180 * DAY), 'benchmark sweep');
const sweepNothingMs = performance.now() - t;
const plan = (beside.db.prepare('EXPLAIN QUERY PLAN SELECT id FROM enquiries WHERE received_at < ?').all('x') as { detail: string }[])
  .map((r) => r.detail)
  .join('; ');
// And a sweep on which one day of enquiries expires.
t = performance.now();
const dayOld = await beside.eraseOlderThan(new Date(Date.now() - 169 * DAY), 'benchmark sweep');
const sweepDayMs = performance.now() - t;
await beside.close();
loader.kill('SIGTERM');
await new Promise((r) => loader.once('exit', r));
const { acknowledged, refused, statuses } = JSON.parse(loaded || '{"acknowledged":0,"refused":0}') as {
  acknowledged: number;
  refused: number;
  statuses?: Record<string, number>;
};
const underLoad = memory(server.child.pid!);
server.child.kill('SIGTERM');
await new Promise((r) => server.child.once('exit', r));

const result = {
  enquiries: COUNT,
  databaseMb: Math.round(dbBytes / 1e6),
  fillSeconds: Math.round(fillSeconds),
  serveStartMs: Math.round(median(starts)),
  serveStartRunsMs: starts.map(Math.round),
  serveStartEmptyStoreMs: Math.round(median(emptyStarts)),
  serveStartCpuMs: median(startsCpu),
  serveStartEmptyStoreCpuMs: median(emptyStartsCpu),
  serveMemoryAfterStart: afterStart,
  serveMemoryAfterLoad: underLoad,
  enquiriesDuringCommands: { acknowledged, refused, ...(refused ? { statuses } : {}) },
  showEmailCommandMs: median(showCommand),
  nodeStartMs: median(nodeFloor),
  emptyCommandMs: median(emptyCommand),
  eraseIdCommandMs: median(eraseCommand),
  showEmailQueryMs: Number(median(showQuery).toFixed(2)),
  eraseIdQueryMs: Number(median(eraseQuery).toFixed(2)),
  showEmailStoreMs: Number(median(showStore).toFixed(2)),
  eraseIdStoreMs: Number(median(eraseStore).toFixed(2)),
  sweepNothingExpiresMs: Number(sweepNothingMs.toFixed(2)),
  sweepNothingErased: swept.length,
  sweepOneDayMs: Math.round(sweepDayMs),
  sweepOneDayErased: dayOld.length,
  sweepPlan: plan,
  node: process.version,
  loadAverage: loadavg().map((l) => Number(l.toFixed(1))),
};
console.table(result);
mkdirSync(fromRoot('bench', 'results'), { recursive: true });
writeFileSync(fromRoot('bench', 'results', 'store-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
if (!process.env.STORE_DIR) rmSync(data, { recursive: true, force: true });
