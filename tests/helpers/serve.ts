import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type RunningServer, type ServeOptions, startServer } from '../../cli/serve/server.ts';
import { recordFromRow } from '../../cli/serve/store/enquiry-record.ts';
import { DATABASE_FILE } from '../../cli/serve/store/sqlite-store.ts';
import type { StoredEnquiry } from '../../cli/serve/store/store.ts';
import { ROOT } from './cli.ts';

/** A fresh, empty inbox directory. */
export function tempData(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'studio-inbox-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The enquiries stored in the SQLite database of `dir`, oldest first, read as another process would (read-only, beside a running server). */
export function readStored(dir: string): StoredEnquiry[] {
  const db = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
  try {
    return (db.prepare('SELECT * FROM enquiries ORDER BY id').all() as Record<string, unknown>[]).map(recordFromRow);
  } finally {
    db.close();
  }
}

/** Ids of the enquiries whose e-mail to the studio went out, from the SQLite database of `dir`. */
export function readSent(dir: string): Set<number> {
  const db = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
  try {
    return new Set((db.prepare('SELECT enquiry_id FROM enquiry_mail WHERE sent_at IS NOT NULL').all() as { enquiry_id: number }[]).map((r) => r.enquiry_id));
  } finally {
    db.close();
  }
}

/** `content serve` in this process, on a free port of 127.0.0.1, with its own inbox. */
export async function serveSite(site: string, options: Partial<ServeOptions> = {}): Promise<RunningServer & { data: string; stop: () => Promise<void> }> {
  const data = options.data ? { dir: options.data, cleanup: () => {} } : tempData();
  let server: RunningServer;
  try {
    server = await startServer({ dir: site, data: data.dir, host: '127.0.0.1', port: 0, ...options });
  } catch (error) {
    data.cleanup(); // a server that refused to start leaves no inbox behind
    throw error;
  }
  return {
    ...server,
    data: data.dir,
    stop: async () => {
      await server.close();
      data.cleanup();
    },
  };
}

let counter = 0;
/** A valid enquiry as the hydrated form sends it, unique per call. */
export function validEnquiry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    name: `Visitor ${counter}`,
    course: 'music',
    message: `Enquiry number ${counter}`,
    email: `visitor${counter}@example.org`,
    locale: 'ru',
    page: '/vocal',
    idempotencyKey: `key${process.pid}x${counter}x${Math.random().toString(36).slice(2, 10)}`,
    website: '',
    fillMs: 12_000,
    ...overrides,
  };
}

/** Posts JSON as the site's own script does (with its Origin). */
export function postJson(base: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/api/enquiry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
}

/** A running `node cli/bin.js serve` process and the address it printed. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `copy`: another installation of the compiler (its `cli/bin.js` and folder), run as another user. */
export function spawnServe(
  args: string[],
  env: Record<string, string> = {},
  copy: { script?: string; cwd?: string; uid?: number; gid?: number } = {},
): Promise<ServeProcess> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
  const child = spawn(process.execPath, [copy.script ?? join(ROOT, 'cli/bin.js'), 'serve', '--port', '0', ...args], {
    cwd: copy.cwd ?? ROOT,
    env: { ...clean, NO_COLOR: '1', ...env },
    uid: copy.uid,
    gid: copy.gid,
  });
  let out = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`content serve did not start:\n${out}`)), 120_000);
    const onData = (d: string) => {
      out += d;
      // The last line `content serve` prints once it is ready.
      const url = /E-mail to the studio:.*\n/.test(out) ? /Serving .* at (http:\/\/\S+)/.exec(out)?.[1] : undefined;
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, output: () => out, exited });
      }
    };
    // Decoded as streams: a character whose bytes two chunks split is not decoded half by half.
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`content serve exited with ${code}:\n${out}`));
    });
  });
}

/** What came back on a raw connection: the status (0: none), the headers as sent, the body bytes. */
export interface RawAnswer {
  status: number;
  statusLine: string;
  headers: [string, string][];
  body: Buffer;
}

/**
 * Sends bytes as they are over a new TCP connection (Node's http client refuses control
 * characters and other malformed requests) and reads until the server closes it.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 60_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of answer within ${timeoutMs} ms to ${JSON.stringify(String(bytes).slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is fine; what arrived is judged below
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = (end < 0 ? all : all.subarray(0, end)).toString('latin1');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
      const headers = lines.map((l): [string, string] => {
        const i = l.indexOf(':');
        return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()];
      });
      resolve({ status: status ? Number(status) : 0, statusLine, headers, body: end < 0 ? Buffer.alloc(0) : all.subarray(end + 4) });
    });
    socket.write(bytes);
  });
}

/** A GET of a raw request target, as a client that sends whatever bytes it likes. */
export function rawGet(url: string, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const host = new URL(url).host;
  const lines = Object.entries({ host, connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  return rawRequest(url, Buffer.from(`GET ${target} HTTP/1.1\r\n${lines.join('')}\r\n`, 'latin1'));
}
