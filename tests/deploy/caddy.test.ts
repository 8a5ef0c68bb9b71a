import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { SECURITY_HEADERS } from '../../cli/serve/http/security-headers.ts';
import { KEEP_ALIVE_MS } from '../../cli/serve/server.ts';
import { CHROME, CHROME_FLAGS, SKIP_BROWSER } from '../helpers/browser.ts';
import { CONTENT, ROOT, runCli } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { type ServeProcess, spawnServe, tempData } from '../helpers/serve.ts';

const CADDY = '/usr/bin/caddy';
const missing = (!existsSync(CADDY) && !process.env.CI) || SKIP_BROWSER;
if (!existsSync(CADDY) && !process.env.CI) console.warn(`deploy/Caddyfile: not tested, no ${CADDY} (apt-get install caddy; .ci/run installs it).`);

const ui = parse(readFileSync(join(CONTENT, 'ui.yaml'), 'utf8')) as { form: Record<string, Record<'ru' | 'en' | 'de', string>> };
const HOST = 'studio.test';

/**
 * The one small server of docs/deploy.md, for real: Debian's Caddy with the shipped Caddyfile
 * (TLS from Caddy's own local CA, on high ports of 127.0.0.1, touching neither the system's
 * trust store nor ports 80 and 443) in front of `content serve --trust-proxy`, and Chromium
 * sending the enquiry form to https://studio.test:PORT.
 */
describe.skipIf(missing)('Caddy in front of content serve', () => {
  const site = inject('siteDir');
  const dir = mkdtempSync(join(tmpdir(), 'studio-caddy-'));
  const data = tempData();
  let serve: ServeProcess;
  let caddy: ReturnType<typeof spawn>;
  let caddyLog = '';
  let browser: Browser;
  let origin = '';
  let port = 0;
  let ca: Buffer;

  beforeAll(async () => {
    // One enquiry per visitor address in ten minutes: whom the server takes for the visitor shows in what it refuses.
    serve = await spawnServe(['--out', site, '--data', data.dir, '--trust-proxy', '--rate-limit', '1', '--min-fill-seconds', '0']);
    port = await freePort();
    origin = `https://${HOST}:${port}`;
    const shipped = readFileSync(join(ROOT, 'deploy/Caddyfile'), 'utf8');
    const siteBlock = shipped.replace('studio.example.org {', `${HOST} {\n\tbind 127.0.0.1`).replace('127.0.0.1:8080', new URL(serve.url).host);
    expect(siteBlock.replace(/^#.*\n/gm, '')).not.toMatch(/studio\.example\.org|:8080/);
    const global = [
      '{',
      '\tadmin off',
      '\tlocal_certs',
      '\tskip_install_trust',
      '\tauto_https disable_redirects',
      `\thttp_port ${await freePort()}`,
      `\thttps_port ${port}`,
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'Caddyfile'), global + siteBlock);
    // Caddy keeps its CA and certificates under XDG_DATA_HOME: a folder of this test's own.
    const env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    mkdirSync(join(dir, 'data'));
    const valid = spawnSync(CADDY, ['validate', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { env, encoding: 'utf8' });
    expect(valid.status, valid.stderr).toBe(0);
    caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    caddy.stdout!.on('data', (d) => {
      caddyLog += d;
    });
    caddy.stderr!.on('data', (d) => {
      caddyLog += d;
    });
    const rootCert = join(dir, 'data/caddy/pki/authorities/local/root.crt');
    for (let i = 0; ; i++) {
      if (existsSync(rootCert)) {
        ca = readFileSync(rootCert);
        const up = await get('/').then(
          (r) => r.status === 200,
          () => false,
        );
        if (up) break;
      }
      if (i > 300 || caddy.exitCode !== null) throw new Error(`Caddy did not start:\n${caddyLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await chromium.launch({ executablePath: CHROME, args: [...CHROME_FLAGS, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`] });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((r) => caddy.on('exit', r));
      caddy.kill('SIGTERM');
      await exited;
    }
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    data.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A request through Caddy over TLS, checked against Caddy's own root certificate, from a
   * loopback address of our choice (`from`), as a visitor at another address would come.
   */
  function get(path: string, options: { method?: string; body?: string; headers?: Record<string, string>; from?: string } = {}) {
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          servername: HOST,
          ca,
          path,
          method: options.method ?? 'GET',
          localAddress: options.from,
          headers: { host: `${HOST}:${port}`, ...options.headers },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  const expectPolicy = (headers: Record<string, string | string[] | undefined>, what: string) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], `${name} on ${what}`).toBe(value);
    expect(headers['strict-transport-security'], `HSTS on ${what}`).toBe('max-age=31536000');
  };

  async function fillForm(page: Page, name: string) {
    await page.fill('#enquiry [name="name"]', name);
    await page.selectOption('#enquiry [name="course"]', 'music');
    await page.fill('#enquiry [name="email"]', 'parent@example.org');
  }

  it('serves the pages over https with the policy headers and HSTS', async () => {
    for (const path of ['/', '/en', '/de/vocal', '/en/no-such-page']) {
      const res = await get(path);
      expect(res.status, path).toBe(path.includes('no-such') ? 404 : 200);
      expectPolicy(res.headers, path);
    }
    // The same server over plain HTTP, as a visitor never reaches it: no HSTS there.
    const direct = await fetch(`${serve.url}/en`);
    expect(direct.headers.get('strict-transport-security')).toBeNull();
    expect(direct.headers.get('content-security-policy')).toBe(SECURITY_HEADERS['content-security-policy']);
  });

  it('takes the visitor address from Caddy only: a forged X-Forwarded-For changes nothing', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    // What a visitor may write into the header: Caddy does not pass it on as the visitor's address.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.7' });
    await page.goto(`${origin}/en`);
    expect(await page.evaluate(() => [location.origin, window.isSecureContext])).toEqual([origin, true]);
    await page.waitForSelector('form[data-hydrated="true"]', { timeout: 0 });
    await fillForm(page, 'Through Caddy');
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/enquiry')), page.click('#enquiry button[type="submit"]')]);
    expect(answer.status()).toBe(201);
    expectPolicy(await answer.allHeaders(), 'the form answer');
    await page.waitForSelector(`#enquiry [role="status"]:has-text("${ui.form.success!.en}")`);

    // A second enquiry from the same visitor claiming to be someone else: the limit of one holds.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.9' });
    await page.goto(`${origin}/en`);
    await page.waitForSelector('form[data-hydrated="true"]', { timeout: 0 });
    await fillForm(page, 'Forged address');
    const [refused] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/enquiry')), page.click('#enquiry button[type="submit"]')]);
    expect(refused.status()).toBe(429);
    expectPolicy(await refused.allHeaders(), 'the refusal');
    await context.close();

    // Another visitor (another address, which Caddy sees; its own connection to the server is from
    // 127.0.0.1 as before): served, so the server tells visitors apart by what Caddy says, not by the socket.
    const other = await get('/api/enquiry', {
      method: 'POST',
      from: '127.0.0.2',
      headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': '127.0.0.1' },
      body: JSON.stringify({
        name: 'Other visitor',
        course: 'music',
        email: 'other@example.org',
        locale: 'de',
        page: '/de',
        idempotencyKey: 'caddy-other-1',
        website: '',
        fillMs: 5000,
      }),
    });
    expect(other.status, other.body).toBe(201);
    expectPolicy(other.headers, 'a JSON answer');

    const r = await runCli(['enquiries', 'list', '--data', data.dir, '--out', site, '--format', 'json']);
    expect((JSON.parse(r.stdout) as { name: string }[]).map((e) => e.name)).toEqual(['Through Caddy', 'Other visitor']);
  });

  it('refuses a post from another origin', async () => {
    const res = await get('/api/enquiry', {
      method: 'POST',
      from: '127.0.0.3',
      headers: { 'content-type': 'application/json', origin: `http://${HOST}:${port}` },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expectPolicy(res.headers, 'a refused origin');
  });

  it('holds requests while content serve restarts (after a rebuild) instead of answering 502', async () => {
    const args = ['--out', site, '--data', data.dir, '--trust-proxy', '--port', new URL(serve.url).port];
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    // Sent while nothing listens behind Caddy: Caddy keeps trying (lb_try_duration) until the server is back.
    const waiting = get('/de/vocal', { from: '127.0.0.4' });
    serve = await spawnServe(args);
    const res = await waiting;
    expect(res.status).toBe(200);
    expectPolicy(res.headers, 'the page after a restart');
  });

  it('the shipped Caddyfile is one Caddy reads as it is', () => {
    const r = spawnSync(CADDY, ['adapt', '--config', join(ROOT, 'deploy/Caddyfile'), '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
    });
    expect(r.status, r.stderr).toBe(0);
    const route = JSON.parse(r.stdout).apps.http.servers.srv0.routes[0];
    expect(route.match[0].host).toEqual(['studio.example.org']);
    // Caddy lets an idle connection to the server go before the server would close it: a POST is never sent on a closing one.
    const proxy = route.handle[0].routes[0].handle[0];
    expect(proxy.handler).toBe('reverse_proxy');
    expect(proxy.transport.keep_alive.idle_timeout / 1e6).toBeLessThan(KEEP_ALIVE_MS);
  });
});
