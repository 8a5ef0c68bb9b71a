import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Locale } from '../../templates/model.ts';
import { DEFAULT_LOCALE } from '../schema/localized.ts';
import { localeOfUrl } from '../site/urls.ts';

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

interface Entry {
  mtimeMs: number;
  size: number;
  etag: string;
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * Serves a built site with its URL policy: no trailing slash (`/vocal/` and `/vocal.html`
 * redirect to `/vocal`), the not-found page of the path's locale with status 404, gzip or
 * brotli for text, ETags, and a year of caching for hashed assets. Files are read once and
 * kept with their compressed forms while their size and time stay the same.
 */
export function createStaticHandler(root: string, locales: readonly Locale[]) {
  const cache = new Map<string, Entry>();

  const load = (file: string): Entry | undefined => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(file);
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached;
    const body = readFileSync(file);
    const entry: Entry = { mtimeMs: st.mtimeMs, size: st.size, body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
    if (COMPRESSIBLE.has(extname(file)) && body.length > 512) {
      entry.gzip = gzipSync(body, { level: 9 });
      // The best compression for pages and scripts; a quicker one for very large files, which are compressed on a request.
      const quality = body.length <= 256 * 1024 ? 11 : 5;
      entry.br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    }
    if (body.length <= MAX_CACHED_FILE) cache.set(file, entry);
    return entry;
  };

  const send = (req: IncomingMessage, res: ServerResponse, status: number, file: string, entry: Entry, cacheControl: string) => {
    res.setHeader('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
    res.setHeader('cache-control', cacheControl);
    res.setHeader('etag', entry.etag);
    if (entry.gzip) res.setHeader('vary', 'accept-encoding');
    if (status === 200 && fresh(req, entry.etag)) {
      res.writeHead(304).end();
      return;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    let body = entry.body;
    if (entry.br && acceptsEncoding(accepted, 'br')) {
      res.setHeader('content-encoding', 'br');
      body = entry.br;
    } else if (entry.gzip && acceptsEncoding(accepted, 'gzip')) {
      res.setHeader('content-encoding', 'gzip');
      body = entry.gzip;
    }
    res.setHeader('content-length', body.length);
    res.writeHead(status);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const notFound = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const locale = localeOfUrl(pathname, locales);
    const page = join(root, locale === DEFAULT_LOCALE ? '404.html' : `${locale}/404.html`);
    const entry = load(page) ?? load(join(root, '404.html'));
    if (!entry) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    send(req, res, 404, page, entry, 'no-cache');
  };

  return function handleStatic(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request: the address is not valid percent-encoding\n');
      return;
    }
    // Nothing outside the site and nothing hidden (the server's own manifest lives in .studio/).
    if (pathname.includes('\0') || pathname.includes('\\') || pathname.split('/').some((s) => s.startsWith('.'))) return notFound(req, res, url.pathname);
    if (pathname.length > 1 && pathname.endsWith('/')) return redirect(res, pathname.replace(/\/+$/, '') || '/', url.search);
    if (pathname.endsWith('.html') && !pathname.endsWith('/404.html')) {
      const clean = pathname === '/index.html' ? '/' : pathname.replace(/\/index\.html$|\.html$/, '');
      if (load(join(root, pathname))) return redirect(res, clean, url.search);
    }
    const file = join(root, pathname === '/' ? 'index.html' : extname(pathname) ? pathname : `${pathname}.html`);
    if (!file.startsWith(root + sep)) return notFound(req, res, url.pathname);
    const entry = load(file);
    if (!entry) return notFound(req, res, url.pathname);
    const cacheControl = HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600';
    send(req, res, 200, file, entry, cacheControl);
  };
}

function redirect(res: ServerResponse, location: string, search: string) {
  res.writeHead(301, { location: location + search, 'content-type': 'text/plain; charset=utf-8' }).end(`Moved to ${location}\n`);
}

function fresh(req: IncomingMessage, etag: string): boolean {
  const match = req.headers['if-none-match'];
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
