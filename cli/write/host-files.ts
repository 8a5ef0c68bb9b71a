import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECURITY_HEADERS } from '../serve/http/security-headers.ts';

/** The file Netlify and Cloudflare Pages read the site's headers from; `content serve` never serves it (no page has its name). */
export const HEADERS_FILE = '_headers';

/** Everything under /assets/ is named by its content hash (cli/render/client-assets.ts, Vike's bundle): it never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A header's name as the hosts' documentation writes it (Netlify sends a lower-case name beside its own default). */
const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/**
 * `_headers` for static hosts with that convention (Netlify, Cloudflare Pages; docs/deploy.md):
 * the policy headers `content serve` sends on every page, and a year of caching for the hashed
 * assets. HTML gets no Cache-Control of its own: both hosts revalidate HTML by default, and
 * both join two rules' values of one header with a comma, which would make `/*` and `/assets/*`
 * contradict each other. Written into every site, so that a rebuild replaces it (the site's mark
 * lists it like every other file the build wrote).
 */
export function headersFile(): string {
  const policy = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${titleCase(name)}: ${value}`);
  return [
    '# Written by "content build" for hosts that read _headers (Netlify, Cloudflare Pages). See docs/deploy.md.',
    '/*',
    ...policy,
    '/assets/*',
    `  Cache-Control: ${IMMUTABLE}`,
    '',
  ].join('\n');
}

/** Writes the host-convention files into the site being built. */
export function writeHostFiles(dir: string): void {
  writeFileSync(join(dir, HEADERS_FILE), headersFile());
}
