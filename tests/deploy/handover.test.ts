import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inheritedSocket } from '../../cli/serve/server.ts';
import { ROOT } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { NGINX, shippedNginx } from '../helpers/nginx.ts';
import { readStored, validEnquiry } from '../helpers/serve.ts';

const ACTIVATE = '/usr/bin/systemd-socket-activate';
const CADDY = '/usr/bin/caddy';
const absent = [ACTIVATE, CADDY, NGINX].filter((p) => !existsSync(p));
const missing = absent.length > 0 && !process.env.CI;
if (missing) console.warn(`publishing under load: not tested, no ${absent.join(', ')} (Debian's systemd, caddy and nginx packages; .ci/run installs them).`);

const run = promisify(execFile);

describe('the socket systemd passes (sd_listen_fds: LISTEN_PID, LISTEN_FDS, fd 3)', () => {
  it('is taken when LISTEN_PID names this process, and the variables are removed for any process it starts', () => {
    const env: NodeJS.ProcessEnv = { LISTEN_PID: '4242', LISTEN_FDS: '1', LISTEN_FDNAMES: 'studio-serve.socket', HOME: '/x' };
    expect(inheritedSocket(env, 4242)).toBe(3);
    expect(env).toEqual({ HOME: '/x' });
  });

  it("is not taken when the variables were meant for another process (a parent's), or name no socket", () => {
    const inherited: NodeJS.ProcessEnv = { LISTEN_PID: '4241', LISTEN_FDS: '1' };
    expect(inheritedSocket(inherited, 4242)).toBeUndefined();
    expect(inherited).toEqual({ LISTEN_PID: '4241', LISTEN_FDS: '1' });
    for (const count of ['0', '', 'x']) expect(inheritedSocket({ LISTEN_PID: '4242', LISTEN_FDS: count }, 4242)).toBeUndefined();
    expect(inheritedSocket({}, 4242)).toBeUndefined();
  });

  it('that is no listening socket is a usage error naming it, not a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-fd-'));
    try {
      // fd 3 is a file here; LISTEN_PID is set for the serve process itself, as systemd sets it.
      const file = openSync(join(dir, 'not-a-socket'), 'w');
      const child = spawn(
        'sh',
        [
          '-c',
          'LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" "$@"',
          process.execPath,
          join(ROOT, 'cli/bin.js'),
          'serve',
          '--out',
          inject('siteDir'),
          '--data',
          join(dir, 'data'),
        ],
        { stdio: ['ignore', 'pipe', 'pipe', file], env: { ...process.env, NO_COLOR: '1' } },
      );
      closeSync(file);
      let err = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        err += d;
      });
      const code = await new Promise((r) => child.on('exit', r));
      expect(code).toBe(2);
      expect(err).toMatch(
        /^error: the socket passed as file descriptor 3 \(LISTEN_FDS\) cannot be listened on: .*\nhint: is the service started by its \.socket unit/,
      );
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * docs/deploy.md's server for real, with what systemd would do played by the test: the socket of
 * studio-serve.socket (127.0.0.1, a free port) held open by `systemd-socket-activate` and passed to
 * `content serve` as fd 3 (LISTEN_FDS, LISTEN_PID), a `systemctl` that restarts it the way systemd
 * does (SIGTERM, wait for the end, start again on the same socket), Debian's Caddy with the shipped
 * Caddyfile and Debian's nginx with the shipped configuration in front. While enquiries stream in
 * through both, deploy/publish.sh publishes a site that needs no restart and one that does; every
 * POST is counted: answered 201 and stored exactly once.
 */
describe.skipIf(missing)('publishing while enquiries arrive through Caddy and nginx', () => {
  const site = inject('siteDir');
  // Made when the tests run (not when they are collected: a run that skips them leaves nothing behind).
  let dir = '';
  let www = '';
  let current = '';
  let data = '';
  let bin = '';
  let supervisor: ChildProcess;
  let caddy: ChildProcess;
  let nginx: ChildProcess;
  let output = '';
  const through: Record<'caddy' | 'nginx', string> = { caddy: '', nginx: '' };

  const servePid = () => Number(readFileSync(join(dir, 'serve.pid'), 'utf8'));
  /** A copy of the built site as a new release; `change` may edit its form rules. */
  let n = 0;
  const release = (change?: (rules: Record<string, unknown>) => void): string => {
    const target = join(www, 'releases', `r${++n}`);
    cpSync(site, target, { recursive: true });
    if (change) {
      const file = join(target, '.studio/enquiry.json');
      const rules = JSON.parse(readFileSync(file, 'utf8'));
      change(rules);
      writeFileSync(file, JSON.stringify(rules));
    }
    return target;
  };
  const publish = (target: string) =>
    run('sh', [join(ROOT, 'deploy/publish.sh'), target], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, STATE: dir } });

  /** Waits until `text` shows up in what the servers printed. */
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!output.includes(text)) return;
        supervisor.stdout!.off('data', check);
        supervisor.off('exit', gone);
        resolve();
      };
      const gone = () => reject(new Error(`the server ended before it printed ${JSON.stringify(text)}:\n${output}`));
      supervisor.stdout!.on('data', check);
      supervisor.once('exit', gone);
      check();
    });

  /** Waits until a GET of `url` is answered (a server behind it listening). */
  const answering = async (url: string, what: () => string) => {
    for (let i = 0; ; i++) {
      if (
        await fetch(url).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      if (i > 300) throw new Error(`${url} does not answer:\n${what()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'studio-handover-'));
    www = join(dir, 'www');
    current = join(www, 'current');
    data = join(dir, 'data');
    bin = join(dir, 'bin');
    mkdirSync(join(www, 'releases'), { recursive: true });
    mkdirSync(data);
    mkdirSync(bin);
    // systemd's part: the service started again whenever it ends, on the socket that stays (fd 3).
    writeFileSync(
      join(dir, 'service.sh'),
      [
        '#!/bin/sh',
        'while [ ! -e "$STATE/stop" ]; do',
        `  sh -c 'echo $$ >"$STATE/serve.pid.new" && mv "$STATE/serve.pid.new" "$STATE/serve.pid" && LISTEN_PID=$$ exec "$@"' serve "$@"`,
        'done',
        '',
      ].join('\n'),
    );
    // systemctl as publish.sh calls it: is-active, and try-restart as systemd restarts (stop, then start).
    writeFileSync(
      join(bin, 'systemctl'),
      [
        '#!/bin/sh',
        '[ "$3" = studio-serve.service ] || [ "$2" = studio-serve.service ] || exit 5',
        'old=$(cat "$STATE/serve.pid")',
        'case $1 in',
        '  is-active) kill -0 "$old" 2>/dev/null ;;',
        '  try-restart)',
        '    kill -TERM "$old"',
        '    while kill -0 "$old" 2>/dev/null || [ "$(cat "$STATE/serve.pid")" = "$old" ]; do sleep 0.05; done',
        '    echo "$old" >>"$STATE/restarted" ;;',
        '  *) exit 5 ;;',
        'esac',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const first = await publish(release());
    expect(first.stdout).toMatch(/not running here/);

    const port = await freePort();
    supervisor = spawn(
      ACTIVATE,
      [
        '-l',
        `127.0.0.1:${port}`,
        '-E',
        'PATH',
        '-E',
        `STATE=${dir}`,
        '-E',
        'NO_COLOR=1',
        'sh',
        join(dir, 'service.sh'),
        process.execPath,
        join(ROOT, 'cli/bin.js'),
        'serve',
        '--out',
        current,
        '--data',
        data,
        '--trust-proxy',
        '--rate-limit',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    supervisor.stdout!.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    supervisor.stderr!.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    // The first request starts the service, as with systemd.
    await answering(`http://127.0.0.1:${port}/api/health`, () => output);
    expect(output).toMatch(/Listening on the socket systemd passed/);

    // Caddy with the shipped reverse_proxy block, over plain http on a port of its own.
    const caddyPort = await freePort();
    const shipped = readFileSync(join(ROOT, 'deploy/Caddyfile'), 'utf8');
    const block = shipped.replace('studio.example.org {', `http://127.0.0.1:${caddyPort} {\n\tbind 127.0.0.1`).replace('127.0.0.1:8080', `127.0.0.1:${port}`);
    writeFileSync(join(dir, 'Caddyfile'), `{\n\tadmin off\n}\n${block}`);
    const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'caddy-data'), XDG_CONFIG_HOME: join(dir, 'caddy-config') };
    caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let caddyLog = '';
    caddy.stderr!.on('data', (d) => {
      caddyLog += d;
    });
    through.caddy = `http://127.0.0.1:${caddyPort}`;

    // nginx with the shipped configuration, its /api/ block uncommented.
    const nginxPort = await freePort();
    const args = shippedNginx(join(dir, 'nginx'), { port: nginxPort, root: current, upstream: `http://127.0.0.1:${port}` });
    const check = spawnSync(NGINX, ['-t', ...args], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    nginx = spawn(NGINX, args, { stdio: 'ignore' });
    through.nginx = `http://127.0.0.1:${nginxPort}`;

    await answering(`${through.caddy}/api/health`, () => caddyLog);
    await answering(`${through.nginx}/api/health`, () => readFileSync(join(dir, 'nginx/error.log'), 'utf8'));
  }, 120_000);

  afterAll(async () => {
    const ended = (child: ChildProcess | undefined, signal: NodeJS.Signals) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      return done;
    };
    await ended(caddy, 'SIGTERM');
    await ended(nginx, 'SIGQUIT');
    if (supervisor && supervisor.exitCode === null) {
      writeFileSync(join(dir, 'stop'), '');
      const done = new Promise((r) => supervisor.once('exit', r));
      process.kill(servePid(), 'SIGTERM');
      await done;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Enquiries posted through Caddy and nginx, four at a time through each, until `until` settles
   * and then `after` more through each: what each was answered.
   */
  async function stream(until: Promise<unknown>, after = 40) {
    const answers: { via: string; email: string; status: number; body: string }[] = [];
    let done = false;
    const settled = () => {
      done = true;
    };
    until.then(settled, settled);
    const worker = async (via: 'caddy' | 'nginx') => {
      const base = through[via];
      const counted = () => answers.filter((a) => a.via === via).length;
      let mark = -1;
      for (;;) {
        if (done && mark < 0) mark = counted();
        if (mark >= 0 && counted() >= mark + after) return;
        const enquiry = validEnquiry();
        const res = await fetch(`${base}/api/enquiry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify(enquiry),
        }).then(
          async (r) => ({ status: r.status, body: await r.text() }),
          (e: Error) => ({ status: 0, body: String(e.cause ?? e) }),
        );
        answers.push({ via, email: String(enquiry.email), ...res });
      }
    };
    await Promise.all([until, ...['caddy', 'nginx', 'caddy', 'nginx', 'caddy', 'nginx', 'caddy', 'nginx'].map((v) => worker(v as 'caddy' | 'nginx'))]);
    return answers;
  }

  /** Every answer 201, and each of those enquiries stored exactly once. */
  function expectEveryOneStored(answers: Awaited<ReturnType<typeof stream>>) {
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => `${a.via}: ${a.status} ${a.body.slice(0, 200)}`)).toEqual([]);
    const stored = readStored(data).map((e) => e.email);
    const times = new Map<string, number>();
    for (const email of stored) times.set(email, (times.get(email) ?? 0) + 1);
    expect(answers.filter((a) => times.get(a.email) !== 1).map((a) => `${a.email}: stored ${times.get(a.email) ?? 0} times`)).toEqual([]);
  }

  it('a site with the same form rules: nothing restarts, every enquiry of that moment is stored once', async () => {
    const pid = servePid();
    const next = release();
    writeFileSync(join(next, 'index.html'), readFileSync(join(next, 'index.html'), 'utf8').replace('<body>', '<body><!--release two-->'));
    const publishing = publish(next);
    const answers = await stream(publishing);
    const { stdout } = await publishing;
    expect(stdout).toMatch(/content serve takes the new site as it is: no restart/);
    expect(servePid()).toBe(pid);
    expect(existsSync(join(dir, 'restarted'))).toBe(false);
    // The new site is online through both, without a restart.
    for (const base of Object.values(through)) expect(await (await fetch(`${base}/`)).text()).toContain('<!--release two-->');
    expect(answers.length).toBeGreaterThanOrEqual(80);
    expectEveryOneStored(answers);
  }, 120_000);

  it('a site with other languages: serve restarts on the socket that stays, and no enquiry is refused or lost', async () => {
    const pid = servePid();
    const from = output.length;
    const next = release((rules) => {
      rules.locales = (rules.locales as string[]).filter((l) => l !== 'de');
    });
    const publishing = publish(next);
    const answers = await stream(publishing, 80);
    const { stdout } = await publishing;
    expect(stdout).toMatch(/content serve must restart to use:\npublish: {3}the languages: ru en de → ru en\n/);
    expect(stdout).toMatch(/restarted studio-serve\.service/);
    expect(servePid()).not.toBe(pid);
    expect(readFileSync(join(dir, 'restarted'), 'utf8').trim()).toBe(String(pid));
    expect(existsSync(join(www, '.serve-restart'))).toBe(false);
    // The old process answered what reached it, then stopped; the new one took over on the same socket.
    await printed('Stopped; every acknowledged enquiry is in the database.');
    expect(output.match(/Listening on the socket systemd passed/g)).toHaveLength(2);
    // The stream spanned the restart: enquiries of it were stored by the old process and by the new one.
    const storedBy = output
      .slice(from)
      .split('\n')
      .filter((line) => line.includes('"event":"stored"'))
      .map((line) => (JSON.parse(line) as { pid: number }).pid);
    expect(new Set(storedBy)).toEqual(new Set([pid, servePid()]));
    expectEveryOneStored(answers);
  }, 120_000);
});
