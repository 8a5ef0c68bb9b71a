import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ServeEvent } from '../../cli/serve/events.ts';
import { postJson, rawGet, type ServeProcess, serveSite, spawnServe, tempData, validEnquiry } from '../helpers/serve.ts';

const dist = inject('siteDir');

/** Issue 12, items 5 and 9: requests that killed `content serve`, or sent the visitor to another site. */
describe('content serve: hostile addresses', () => {
  let server: ServeProcess;
  const data = tempData();
  beforeAll(async () => {
    server = await spawnServe(['--out', dist, '--data', data.dir]);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    data.cleanup();
  });

  it.each(['/%0A/', '/%0D/', '/%01/', '/%1B/', '/%7F/', '/vocal%0A/', '/%0D%0ASet-Cookie:%20x=1/', '/%C2%85/', '/%00/'])(
    'answers %s with 400 and goes on serving',
    async (target) => {
      const res = await rawGet(server.url, target);
      expect(res.status, res.statusLine).toBe(400);
      expect(res.headers.find(([k]) => k === 'location')).toBeUndefined();
      expect(res.headers.find(([k]) => k === 'set-cookie')).toBeUndefined();
      expect(server.child.exitCode).toBeNull();
      expect((await rawGet(server.url, '/vocal')).status).toBe(200);
    },
  );

  it.each([
    '/%2Fevil.com/',
    '/%09/evil.com/',
    '/%2F%09evil.com/',
    '//evil.com/',
    '/%5Cevil.com/',
    '/%2F%2Fevil.com/',
    '/%5C%5Cevil.com/',
    '/%2Fevil.com/vocal.html',
    '///evil.com//',
  ])('never redirects %s off the site', async (target) => {
    const res = await rawGet(server.url, target);
    expect([301, 400, 404], res.statusLine).toContain(res.status);
    const location = res.headers.find(([k]) => k === 'location')?.[1];
    if (location !== undefined) {
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, server.url).origin).toBe(new URL(server.url).origin);
    }
    expect(server.child.exitCode).toBeNull();
  });

  it('keeps the redirects of real pages, path-only and with the query', async () => {
    for (const [target, to] of [
      ['/vocal/', '/vocal'],
      ['/en//choir/', '/en/choir'],
      ['/de/faq/?x=1', '/de/faq?x=1'],
      ['/vocal.html', '/vocal'],
    ]) {
      const res = await rawGet(server.url, target!);
      expect(res.status, target).toBe(301);
      expect(res.headers.find(([k]) => k === 'location')?.[1], target).toBe(to);
    }
  });

  it('answers 404, not a redirect, for a trailing slash on a page that does not exist', async () => {
    const res = await rawGet(server.url, '/evil.com/');
    expect(res.status).toBe(404);
    expect(res.headers.find(([k]) => k === 'location')).toBeUndefined();
  });
});

describe('content serve: an unexpected exception in one request', () => {
  it('is answered 500 and logged, and the server goes on serving', async () => {
    const events: ServeEvent[] = [];
    let thrown = false;
    const server = await serveSite(dist, {
      rateLimit: { max: 0, windowMs: 60_000 },
      log: (e) => {
        events.push(e);
        // A bug of ours, in the middle of answering an enquiry.
        if (e.kind === 'stored' && !thrown) {
          thrown = true;
          throw new TypeError('a bug in the middle of a request');
        }
      },
    });
    try {
      const res = await postJson(server.url, validEnquiry());
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ ok: false, error: 'internal' });
      expect(events.some((e) => e.kind === 'error' && e.error.includes('a bug in the middle of a request'))).toBe(true);
      expect((await fetch(`${server.url}/vocal`)).status).toBe(200);
      expect((await postJson(server.url, validEnquiry())).status).toBe(201);
    } finally {
      await server.stop();
    }
  });
});

describe('content serve: the thank-you redirect', () => {
  it('refuses to start with a thank-you address that is not a path on this site', async () => {
    const { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { MANIFEST_FILE } = await import('../../cli/serve/manifest.ts');
    const site = mkdtempSync(join(tmpdir(), 'studio-thanks-'));
    try {
      mkdirSync(join(site, '.studio'));
      const manifest = JSON.parse(readFileSync(join(dist, MANIFEST_FILE), 'utf8'));
      for (const bad of ['//evil.com', '/\\evil.com', 'https://evil.com/thanks', '/thanks\r\nSet-Cookie: a=1']) {
        manifest.thanks.en = bad;
        writeFileSync(join(site, MANIFEST_FILE), JSON.stringify(manifest));
        await expect(serveSite(site), bad).rejects.toThrow(/thank-you address for en is not a path on this site/);
      }
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
