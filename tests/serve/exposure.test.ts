import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { postJson, rawGet, serveSite, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');

/**
 * Issue 12, item 4 (defence in depth): even with --data inside the served site, and whatever
 * else lies in the site folder, only what the build writes is served.
 */
describe('content serve: what is never served', () => {
  const root = mkdtempSync(join(tmpdir(), 'studio-exposure-'));
  const site = join(root, 'site');
  let server: Awaited<ReturnType<typeof serveSite>>;
  const secret = `SECRET-${process.pid}`;

  beforeAll(async () => {
    mkdirSync(site);
    for (const f of ['index.html', '404.html', 'robots.txt', '.studio']) cpSync(join(dist, f), join(site, f), { recursive: true });
    writeFileSync(join(root, 'outside.txt'), secret);
    symlinkSync(join(root, 'outside.txt'), join(site, 'leak.txt'));
    symlinkSync(root, join(site, 'up'));
    writeFileSync(join(site, 'notes.jsonl'), `{"secret":"${secret}"}\n`);
    writeFileSync(join(site, 'serve.lock'), secret);
    writeFileSync(join(site, 'backup.html~'), secret);
    server = await serveSite(site, { data: join(site, 'inbox'), rateLimit: { max: 0, windowMs: 60_000 } });
    writeFileSync(join(site, 'inbox', 'torn-1.txt'), secret);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('never serves the enquiry inbox, even when it lies inside the site', async () => {
    const e = validEnquiry({ name: `Private ${secret}` });
    expect((await postJson(server.url, e)).status).toBe(201);
    for (const path of [
      '/inbox/enquiries.db',
      '/inbox/enquiries.db-wal',
      '/inbox/enquiries.jsonl',
      '/inbox/serve.lock',
      '/inbox/torn-1.txt',
      '/inbox/',
      '/inbox',
      '/inbox%2Fenquiries.jsonl',
      '/INBOX/enquiries.jsonl',
    ]) {
      const res = await rawGet(server.url, path);
      expect([301, 404], path).toContain(res.status);
      expect(res.body.toString(), path).not.toContain(secret);
      const location = res.headers.find(([k]) => k === 'location')?.[1];
      if (location) expect((await rawGet(server.url, location)).body.toString(), location).not.toContain(secret);
    }
  });

  it('serves no file the build does not write: other types, lock files, symlinks out of the site', async () => {
    for (const path of ['/notes.jsonl', '/serve.lock', '/leak.txt', '/up/outside.txt', '/backup.html~', '/.studio/enquiry.json']) {
      const res = await rawGet(server.url, path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).not.toContain(secret);
    }
    // What the build wrote is still there.
    expect((await rawGet(server.url, '/robots.txt')).status).toBe(200);
    expect((await rawGet(server.url, '/')).status).toBe(200);
  });
});
