// Issue 24, point 9: SIGTERM to `npx content serve` (to npm, the parent) stops the server and frees its port.
// npm passes the signal to the shell it started (`sh -c content serve …`), which dies without
// passing it on: the server must notice that it lost its parent.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { tempData } from '../helpers/serve.ts';

const dist = inject('siteDir');

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

describe('#24 point 9: content serve under npx', () => {
  it('stops and frees its port when npx gets SIGTERM', async () => {
    const data = tempData();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$|TEST$|MODE$)/.test(k)));
    const npx = spawn('npx', ['--no-install', 'content', 'serve', '--out', dist, '--data', data.dir, '--port', '0', '--quiet'], {
      cwd: ROOT,
      env: { ...clean, NO_COLOR: '1', STUDIO_SMTP_URL: '' },
    });
    let out = '';
    npx.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    npx.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /Serving .* at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
          if (m && /E-mail to the studio/.test(out)) {
            clearInterval(timer);
            resolve(Number(m[1]));
          }
        }, 50);
        npx.on('exit', () => {
          clearInterval(timer);
          reject(new Error(`npx ended before serving:\n${out}`));
        });
      });
      expect(await portOpen(port)).toBe(true);
      npx.kill('SIGTERM');
      // The port is free again: polled, no time asserted (the test's own limit ends a hang).
      while (await portOpen(port)) await new Promise((r) => setTimeout(r, 100));
      expect(await portOpen(port)).toBe(false);
    } finally {
      npx.kill('SIGKILL');
      data.cleanup();
    }
  });
});
