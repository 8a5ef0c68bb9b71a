import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { SECURITY_HEADERS } from '../../cli/serve/http/security-headers.ts';
import { HEADERS_FILE, IMMUTABLE } from '../../cli/write/host-files.ts';
import { serveSite } from '../helpers/serve.ts';

/** `_headers` as Netlify and Cloudflare Pages read it: `path` lines, then indented `Name: value` lines. */
function parseHeadersFile(text: string): Map<string, Map<string, string>> {
  const rules = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = new Map();
      rules.set(line, current);
    } else {
      const [, name, value] = /^\s+([A-Za-z-]+): (.+)$/.exec(line)!;
      current!.set(name!.toLowerCase(), value!);
    }
  }
  return rules;
}

describe('the host-convention files the build writes', () => {
  const site = inject('siteDir');

  it('_headers: the policy headers on every address, a year of caching for the hashed assets only', () => {
    const rules = parseHeadersFile(readFileSync(join(site, HEADERS_FILE), 'utf8'));
    expect([...rules.keys()]).toEqual(['/*', '/assets/*']);
    expect(Object.fromEntries(rules.get('/*')!)).toEqual(SECURITY_HEADERS);
    expect(Object.fromEntries(rules.get('/assets/*')!)).toEqual({ 'cache-control': IMMUTABLE });
  });

  it('are listed in the site mark, so that a rebuild replaces them', () => {
    const mark = JSON.parse(readFileSync(join(site, '.studio-site.json'), 'utf8')) as { files: string[] };
    expect(mark.files).toContain(HEADERS_FILE);
  });

  it('are not served by content serve', async () => {
    const server = await serveSite(site);
    try {
      const res = await fetch(`${server.url}/${HEADERS_FILE}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(readFileSync(join(site, '404.html'), 'utf8'));
    } finally {
      await server.stop();
    }
  });
});
