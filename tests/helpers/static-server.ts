import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * A plain static server with the site's URL policy, for tests of the built pages that do not
 * need the enquiry inbox. Enquiries go to `onEnquiry`.
 */
export async function serveStatic(
  dir: string,
  onEnquiry?: (body: string, type: string) => { status: number; body: string },
): Promise<{ url: string; close: () => Promise<void>; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const answer = onEnquiry?.(body, req.headers['content-type'] ?? '') ?? { status: 404, body: '' };
        if (answer.status === 303) res.writeHead(303, { location: answer.body }).end();
        else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
      return;
    }
    let path = decodeURIComponent(url.pathname);
    if (path.length > 1 && path.endsWith('/')) {
      res.writeHead(301, { location: path.slice(0, -1) }).end();
      return;
    }
    path = path === '/' ? '/index.html' : extname(path) ? path : `${path}.html`;
    const file = normalize(join(dir, path));
    if (file.startsWith(dir) && existsSync(file) && statSync(file).isFile()) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(res);
      return;
    }
    const locale = /^\/(en|de)(\/|$)/.exec(url.pathname)?.[1];
    res.writeHead(404, { 'content-type': TYPES['.html']! });
    createReadStream(join(dir, locale ? `${locale}/404.html` : '404.html')).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise<void>((r) => server.close(() => r())) };
}
