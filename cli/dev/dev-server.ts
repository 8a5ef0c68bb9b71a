import { type FSWatcher, readdirSync, watch } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { PageModel } from '../../templates/model.ts';
import { ImagePreview } from '../images/preview.ts';
import { ParseMemo } from '../incremental/parse-memo.ts';
import { LOCALES } from '../locales.ts';
import { fromRoot } from '../paths.ts';
import type { Problem } from '../report/problem.ts';
import { pageFinder } from '../resolve/resolve.ts';
import { createTranslator } from '../resolve/translator.ts';
import { localeOfUrl, localeUrl } from '../resolve/urls.ts';
import { validateContent } from '../validate/validate.ts';
import { errorPage } from './error-page.ts';

const TEMPLATES = fromRoot('templates/');

export interface DevServerOptions {
  content: string;
  host: string;
  port: number;
  /** How file paths are shown in the error page, e.g. "content/" or "/srv/site/content/" (default: the content directory). */
  prefix?: string;
  onRebuild?: (result: { ok: boolean; ms: number; problems: Problem[]; sources: Map<string, string> }) => void;
}

interface State {
  /** The page at a URL, resolved when first asked for (none while the content has errors). */
  pageAt?: (url: string) => PageModel | undefined;
  /** `pageAt` with the pictures the content names, once they are read. */
  withImages?: (images: ImagePreview) => Promise<(url: string) => PageModel | undefined>;
  problems: Problem[];
  sources: Map<string, string>;
  version: number;
}

/** Where `content dev` shows a page's share card: `?url=` the page's URL. */
const CARD_ROUTE = '/__dev/card';

const RELOAD_SCRIPT = `new EventSource('/__dev/events').addEventListener('reload', () => location.reload());\n`;

/**
 * The maintainers' live preview: every page of every locale rendered on request from the
 * current content; a save re-validates (a few ms) and reloads open pages over server-sent
 * events. Broken content shows the problems in the page instead of the site.
 */
export async function startDevServer(options: DevServerOptions): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const { renderDocument } = await import('../../templates/render.tsx');
  const assets = await bundleClientAssets();
  const state: State = { problems: [], sources: new Map(), version: 0 };
  const clients = new Set<ServerResponse>();
  const known = new ParseMemo(options.content);

  const images = new ImagePreview(options.content);
  const rebuild = () => {
    const started = performance.now();
    const ok = check(options.content, state, known);
    const version = ++state.version;
    options.onRebuild?.({ ok, ms: Math.round(performance.now() - started), problems: state.problems, sources: state.sources });
    for (const c of clients) c.write(`event: reload\ndata: ${state.version}\n\n`);
    // Images (cli/images): the pages show their pictures once these are read (a later save wins).
    if (ok && state.withImages)
      state.withImages(images).then(
        (pageAt) => {
          if (version !== state.version) return;
          state.pageAt = pageAt;
          for (const c of clients) c.write(`event: reload\ndata: ${state.version}\n\n`);
        },
        () => {},
      );
  };
  rebuild();
  const watcher = watchContent(options.content, rebuild);

  const prefix = options.prefix ?? `${options.content.replace(/\/+$/, '')}/`;
  const server = createServer(answer({ state, clients, assets, prefix, render: renderDocument, images }));
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    url: `http://${options.host}:${port}`,
    close: async () => {
      watcher.close();
      for (const c of clients) c.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Validates the content (reading again only the files that changed since `known` read them) and
 * makes its pages ready to resolve into `state` (no pages while there are errors); whether it is fine.
 */
function check(content: string, state: State, known: ParseMemo): boolean {
  const today = new Date().toISOString().slice(0, 10);
  try {
    const result = validateContent(content, { today, known });
    state.problems = result.problems;
    state.sources = result.sources;
    if (!result.ok) {
      state.pageAt = undefined;
      return false;
    }
    state.pageAt = pageFinder(result.content, createTranslator(result.content), { today });
    state.withImages = !result.pictures.length
      ? undefined
      : async (images) => pageFinder(result.content, createTranslator(result.content), { today, images: await images.refresh(result.pictures) });
    return true;
  } catch (error) {
    state.pageAt = undefined;
    state.problems = [internalProblem(error)];
    return false;
  }
}

const internalProblem = (error: unknown): Problem => ({ code: 'internal', severity: 'error', message: (error as Error).message, file: '(compiler)' });

/** How long the content folder is to be quiet after a change before it is read again (the save is over). */
const QUIET_MS = 10;

/**
 * Calls `onChange` shortly after anything in the content folder or a folder in it changes.
 * One watcher per directory (not per file): editors and `sed -i` save by replacing the file,
 * which a watcher on the old file would not see. The folders are listed again after each
 * change, so a folder made later is watched too. The events of one save (a write, or a new file
 * renamed over the old one) come within a millisecond or two: `QUIET_MS` without one ends it.
 */
function watchContent(content: string, onChange: () => void): { close: () => void } {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      onChange();
      watchDirs();
    }, QUIET_MS);
  };
  const watchDirs = () => {
    const dirs = [
      content,
      ...readdirSync(content, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(content, d.name)),
    ];
    for (const dir of dirs) if (!watchers.has(dir)) watchers.set(dir, watch(dir, schedule));
  };
  watchDirs();
  return {
    close: () => {
      for (const w of watchers.values()) w.close();
      clearTimeout(timer);
    },
  };
}

interface Preview {
  state: State;
  /** The open pages, waiting for a reload event. */
  clients: Set<ServerResponse>;
  assets: { css: string; formJs: string };
  /** How file paths are shown in the error page. */
  prefix: string;
  render: (page: PageModel) => string;
  images: ImagePreview;
}

/** Answers a request: the reload events, the preview's assets, a page, or the problems while the content has errors. */
function answer({ state, clients, assets, prefix, render, images }: Preview) {
  const inject = (html: string, page?: PageModel) =>
    html
      .replace('</head>', '<link rel="stylesheet" href="/__dev/styles.css"></head>')
      .replace(
        '</body>',
        `${page?.card ? `<p><a href="${CARD_ROUTE}?url=${encodeURIComponent(page.url)}">Share card</a></p>` : ''}${page?.form ? '<script type="module" src="/__dev/form.js"></script>' : ''}<script src="/__dev/reload.js"></script></body>`,
      );

  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/__dev/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (url.pathname === '/__dev/reload.js') return send(200, 'text/javascript; charset=utf-8', RELOAD_SCRIPT);
    if (url.pathname === '/__dev/styles.css') return send(200, 'text/css; charset=utf-8', assets.css);
    if (url.pathname === '/__dev/form.js') return send(200, 'text/javascript; charset=utf-8', assets.formJs);
    if (req.method === 'POST') return send(200, 'application/json', JSON.stringify({ ok: true, id: 'preview', preview: true }));
    if (!state.pageAt) return send(500, 'text/html; charset=utf-8', inject(errorPage(state.problems, state.sources, prefix)));
    // Images (cli/images): a picture's file, encoded on first request; a page's share card.
    if (url.pathname.startsWith('/images/') || url.pathname === CARD_ROUTE) {
      const page = url.pathname === CARD_ROUTE ? state.pageAt(url.searchParams.get('url') ?? '') : undefined;
      const type = page?.card?.file.endsWith('.jpg') ? 'image/jpeg' : 'image/png';
      const file = page ? images.card(page).then((body) => body && { type, body }) : images.image(url.pathname);
      file.then(
        (f) => (f ? send(200, f.type, f.body) : send(404, 'text/plain', 'Not found')),
        (error) => send(500, 'text/html; charset=utf-8', inject(errorPage([internalProblem(error)], state.sources, prefix))),
      );
      return;
    }
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : '/';
    try {
      const page = state.pageAt(path);
      if (page) return send(200, 'text/html; charset=utf-8', inject(render(page), page));
      const notFound = state.pageAt(localeUrl('/404', localeOfUrl(path, LOCALES)));
      return send(404, 'text/html; charset=utf-8', notFound ? inject(render(notFound)) : 'Not found');
    } catch (error) {
      // A page that cannot be resolved is shown as the problem it is, as a whole site that cannot be.
      return send(500, 'text/html; charset=utf-8', inject(errorPage([internalProblem(error)], state.sources, prefix)));
    }
  };
}

/** The stylesheet and the form's client script, bundled once at start (esbuild, in memory). */
async function bundleClientAssets(): Promise<{ css: string; formJs: string }> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { form: `${TEMPLATES}form/client.ts`, styles: `${TEMPLATES}styles.css` },
    bundle: true,
    format: 'esm',
    splitting: false,
    write: false,
    outdir: '/__dev',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const out = (suffix: string) => result.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? '';
  return { css: out('.css'), formJs: out('.js') };
}
