import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../../templates/model.ts';
import { parseRedirects, REDIRECTS_FILE } from '../../render/redirects.ts';
import { localeOfUrl } from '../../resolve/urls.ts';
import { DEFAULT_LOCALE } from '../../schema/localized.ts';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.xml', '.txt', '.svg', '.map', '.webmanifest']);
/** Vite writes content-hashed names under assets/: they never change, so they may be kept for a year. */
const HASHED = /^\/assets\/.+[.-][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
const MAX_CACHED_FILE = 4 * 1024 * 1024;

let compressions = 0;
/** How many files were compressed so far (each once per identity: path, inode, size and time). */
export const compressedFiles = () => compressions;

interface Entry {
  mtimeMs: number;
  size: number;
  ino: number;
  etag: string;
  /** The file's bytes; not kept for a file over MAX_CACHED_FILE (read again when a client takes it uncompressed). */
  body?: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** Whether a text holds a C0 control, DEL or a C1 control: never part of an address we serve, never let into a header. */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/**
 * A same-origin, path-only Location for a path of segments: empty segments are dropped (so it
 * never starts with `//`), each segment is percent-encoded (so no `\`, control or non-ASCII
 * character reaches the header), and the query is kept only when it is plain printable ASCII.
 */
export function localPath(segments: readonly string[], query = ''): string {
  const path = `/${segments
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/')}`;
  const search = /^\?[\x21-\x7e]*$/.test(query) ? query : '';
  const location = path + search;
  // Belt and braces: what leaves here is a path on this site and nothing else.
  if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(location)) throw new Error(`refusing an unsafe redirect to ${JSON.stringify(location)}`);
  return location;
}

export interface StaticOptions {
  /** Folders under the site never served, whatever the build left there (the enquiry inbox). */
  exclude?: string[];
}

/**
 * Serves a built site with its URL policy: no trailing slash (`/vocal/` and `/vocal.html`
 * redirect to `/vocal`), the not-found page of the path's locale with status 404, gzip or
 * brotli for text, ETags, and a year of caching for hashed assets. Files are read once and
 * kept with their compressed forms while their size and time stay the same.
 *
 * The path arrives decoded by fastify's router (find-my-way), which answers a malformed
 * percent-encoding with 400 itself. What is served: a regular file of a type the build
 * writes (CONTENT_TYPES), whose real path lies inside the site, outside every excluded
 * folder, with no segment starting with a dot. Anything else is the not-found page.
 *
 * Why not @fastify/static: it has neither this URL policy (a page is `x.html` served as `/x`,
 * a not-found page per locale) nor compression; `preCompressed` needs .br/.gz files the build
 * does not write, and compressing on each request (@fastify/compress, a new dependency) costs
 * 60–80 ms of CPU per 37 KB page at brotli 11 (measured here), against none for this cache.
 */
export function createStaticHandler(root: string, locales: readonly Locale[], options: StaticOptions = {}) {
  const load = createLoader(root, options.exclude ?? []);

  const notFound = (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
    const locale = localeOfUrl(pathname, locales);
    const page = join(root, locale === DEFAULT_LOCALE ? '404.html' : `${locale}/404.html`);
    const entry = load(page) ?? load(join(root, '404.html'));
    if (!entry) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    return send(request, reply, 404, page, entry, 'no-cache');
  };

  /** Where the site's `_redirects` (cli/render/redirects.ts) moves a path; read when asked, so a rebuild's file counts at once. */
  const movedTo = (pathname: string) => {
    const text = existsSync(join(root, REDIRECTS_FILE)) ? readFileSync(join(root, REDIRECTS_FILE), 'utf8') : '';
    return parseRedirects(text).get(pathname);
  };

  /** The file a clean path names: `/` is index.html, a path without extension is a page. */
  const fileOf = (pathname: string) => join(root, pathname === '/' ? 'index.html' : extname(pathname) ? pathname : `${pathname}.html`);

  return function handleStatic(request: FastifyRequest, reply: FastifyReply) {
    const pathname = `/${(request.params as { '*'?: string })['*'] ?? ''}`;
    if (hasControl(pathname)) return reply.code(400).type('text/plain; charset=utf-8').send('Bad request: the address contains control characters\n');
    const q = request.url.indexOf('?');
    const query = q < 0 ? '' : request.url.slice(q);
    const segments = pathname.split('/').slice(1);
    // Nothing outside the site and nothing hidden (the server's own manifest lives in .studio/).
    if (pathname.includes('\\') || segments.some((s) => s.startsWith('.'))) return notFound(request, reply, pathname);
    if (pathname.length > 1 && pathname.endsWith('/')) {
      const clean = localPath(segments);
      return load(fileOf(clean)) ? redirect(reply, localPath(segments, query)) : notFound(request, reply, pathname);
    }
    if (pathname.endsWith('.html') && !pathname.endsWith('/404.html') && load(join(root, pathname))) {
      const page = pathname === '/index.html' ? [] : pathname.replace(/\/index\.html$|\.html$/, '').split('/');
      return redirect(reply, localPath(page, query));
    }
    const file = fileOf(pathname);
    if (!inside(file, root)) return notFound(request, reply, pathname);
    const entry = load(file);
    if (!entry) {
      const to = movedTo(pathname);
      return to ? redirect(reply, `${to}${query}`) : notFound(request, reply, pathname);
    }
    const cacheControl = HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600';
    return send(request, reply, 200, file, entry, cacheControl);
  };
}

const inside = (path: string, dir: string) => path.startsWith(dir + sep);

/**
 * Reads a file that may be served (see createStaticHandler), or undefined; each is read once
 * and kept, with its compressed forms, while its size and time stay the same.
 */
function createLoader(root: string, exclude: string[]): (file: string) => Entry | undefined {
  const cache = new Map<string, Entry>();
  const realRoot = realpathSync(root);
  const excluded = exclude.map((d) => {
    try {
      return realpathSync(d);
    } catch {
      return d;
    }
  });
  return (file) => {
    if (!CONTENT_TYPES[extname(file)]) return undefined;
    let real: string;
    let st: ReturnType<typeof statSync>;
    try {
      real = realpathSync(file);
      st = statSync(real);
    } catch {
      return undefined;
    }
    if (!st.isFile() || !inside(real, realRoot) || excluded.some((d) => real === d || inside(real, d))) return undefined;
    if (
      real
        .slice(realRoot.length)
        .split(sep)
        .some((s) => s.startsWith('.'))
    )
      return undefined;
    const cached = cache.get(real);
    if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size && cached.ino === st.ino) return cached;
    const body = readFileSync(real);
    const entry: Entry = {
      mtimeMs: st.mtimeMs,
      size: st.size,
      ino: st.ino,
      body,
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
    };
    if (COMPRESSIBLE.has(extname(file)) && body.length > 512) {
      compressions++;
      // The best compression for pages and scripts; a quicker one for large files (a sitemap of 10,000 addresses).
      // Either way once per file: a large file keeps its compressed forms, not its bytes.
      const small = body.length <= 256 * 1024;
      entry.gzip = gzipSync(body, { level: small ? 9 : 6 });
      entry.br = brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: small ? 11 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
    }
    cache.set(real, body.length <= MAX_CACHED_FILE ? entry : { ...entry, body: undefined });
    return entry;
  };
}

/** A file with its type, validators and the best encoding the client accepts; 304 when the client's copy is fresh. */
function send(request: FastifyRequest, reply: FastifyReply, status: number, file: string, entry: Entry, cacheControl: string) {
  reply.header('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
  reply.header('cache-control', cacheControl);
  reply.header('etag', entry.etag);
  if (entry.gzip) reply.header('vary', 'accept-encoding');
  if (status === 200 && fresh(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  const accepted = String(request.headers['accept-encoding'] ?? '');
  let body = entry.body ?? readFileSync(file);
  if (entry.br && acceptsEncoding(accepted, 'br')) {
    reply.header('content-encoding', 'br');
    body = entry.br;
  } else if (entry.gzip && acceptsEncoding(accepted, 'gzip')) {
    reply.header('content-encoding', 'gzip');
    body = entry.gzip;
  }
  reply.header('content-length', body.length);
  return reply.code(status).send(request.method === 'HEAD' ? undefined : body);
}

function redirect(reply: FastifyReply, location: string) {
  return reply.code(301).header('location', location).type('text/plain; charset=utf-8').send(`Moved to ${location}\n`);
}

function fresh(match: string | undefined, etag: string): boolean {
  return !!match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Whether Accept-Encoding allows an encoding (q=0 refuses it). */
export function acceptsEncoding(header: string, encoding: string): boolean {
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== encoding && name?.trim() !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}
