import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { CSP } from '../../templates/csp.ts';
import type { Locale } from '../../templates/model.ts';
import { escapeHtml } from '../core/escape.ts';
import { UsageError } from '../core/problem.ts';
import { answerLocale, bodyKind, checkEnquiry, type FieldError, parseBody, RequestProblem, readBody, summaryText } from './enquiry.ts';
import { Inbox, readInbox, type StoredEnquiry } from './inbox.ts';
import { type EnquiryManifest, MANIFEST_FILE, readManifest } from './manifest.ts';
import { type Mailer, Outbox } from './outbox.ts';
import { RateLimiter } from './rate-limit.ts';
import { createStaticHandler } from './static.ts';

export interface ServeOptions {
  /** The built site. */
  dir: string;
  /** Where the inbox lives. */
  data: string;
  host: string;
  port: number;
  /** Enquiries one address may send per window; 0 turns the limit off. */
  rateLimit?: { max: number; windowMs: number };
  /** Sooner than this after the form appeared, an enquiry is a bot's and is dropped quietly. */
  minFillMs?: number;
  /** More origins (besides this server's own address and the site's baseUrl) allowed to post JSON. */
  origins?: string[];
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
  /** E-mail to the studio; absent: no e-mail. */
  mail?: { mailer: Mailer; to: string; from: string; retry?: { initialMs: number; maxMs: number } };
  log?: (event: ServeEvent) => void;
}

export type ServeEvent =
  | { kind: 'stored'; id: number; duplicate: boolean }
  | { kind: 'dropped'; reason: string }
  | { kind: 'refused'; status: number; code: string }
  | { kind: 'mail-sent'; id: number }
  | { kind: 'mail-failed'; id: number; error: string; retryInMs: number }
  | { kind: 'error'; error: string };

export interface RunningServer {
  url: string;
  server: Server;
  inbox: Inbox;
  outbox?: Outbox;
  manifest: EnquiryManifest;
  /** Stops accepting, finishes the requests under way, then closes the inbox. */
  close(): Promise<void>;
}

/** The server's own headers: the pages' policy plus what a meta tag cannot say. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': `${CSP}; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  if (!existsSync(dir)) throw new UsageError(`there is no built site in ${options.dir}`, 'run "content build" first');
  const manifest = readManifest(dir);
  if (!manifest) throw new UsageError(`${options.dir} has no ${MANIFEST_FILE} from this version of "content build"`, 'run "content build" again');

  const log = options.log ?? (() => {});
  const inbox = await Inbox.open(resolve(options.data));
  const outbox = options.mail
    ? new Outbox(
        {
          dir: inbox.dir,
          manifest,
          mailer: options.mail.mailer,
          to: options.mail.to,
          from: options.mail.from,
          retry: options.mail.retry,
          onEvent: (e) => log(e.kind === 'sent' ? { kind: 'mail-sent', id: e.id } : { kind: 'mail-failed', id: e.id, error: e.error, retryInMs: e.retryInMs }),
        },
        readInbox(inbox.dir).enquiries,
      )
    : undefined;
  const limiter = new RateLimiter(options.rateLimit ?? { max: 20, windowMs: 10 * 60_000 });
  const minFillMs = options.minFillMs ?? 3000;
  const serveStatic = createStaticHandler(dir, manifest.locales);
  const siteOrigin = new URL(manifest.baseUrl).origin;

  let inFlight = 0;
  let idle: (() => void) | undefined;

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000, keepAliveTimeout: 5_000 }, (req, res) => {
    inFlight++;
    res.on('close', () => {
      if (--inFlight === 0) idle?.();
    });
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request\n');
      return;
    }
    if (url.pathname !== manifest.endpoint) return serveStatic(req, res, url);
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }).end('Enquiries are sent with POST.\n');
      return;
    }
    receive(req, res).catch((error) => {
      log({ kind: 'error', error: String((error as Error)?.stack ?? error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal error\n');
    });
  });

  const clientAddress = (req: IncomingMessage) =>
    (options.trustProxy
      ? String(req.headers['x-forwarded-for'] ?? '')
          .split(',')[0]
          ?.trim()
      : '') ||
    req.socket.remoteAddress ||
    'unknown';

  const ownOrigins = (req: IncomingMessage) => {
    const host = req.headers.host;
    const proto = options.trustProxy
      ? String(req.headers['x-forwarded-proto'] ?? 'http')
          .split(',')[0]!
          .trim()
      : 'http';
    return new Set([siteOrigin, ...(options.origins ?? []).map((o) => new URL(o).origin), ...(host ? [`${proto}://${host}`] : [])]);
  };

  async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let kind: 'json' | 'form' = 'json';
    let locale = answerLocale(undefined, req, manifest!);
    try {
      const wait = limiter.hit(clientAddress(req));
      if (wait) {
        const seconds = Math.ceil(wait / 1000);
        throw new RequestProblem(429, 'rate_limited', manifest!.messages[locale].errorRateLimited, { 'retry-after': String(seconds) });
      }
      kind = bodyKind(req.headers['content-type']);
      const origin = req.headers.origin;
      // A JSON post comes from the site's own script, which always sends Origin; a plain form post may lack it.
      if ((kind === 'json' || origin) && !(origin && ownOrigins(req).has(origin)))
        throw new RequestProblem(
          403,
          'forbidden_origin',
          origin ? `Enquiries are accepted only from the site's own pages, not from ${origin}.` : 'A JSON enquiry must say its Origin.',
        );
      const fields = parseBody(kind, await readBody(req));
      locale = answerLocale(fields, req, manifest!);
      const checked = checkEnquiry(fields, manifest!, locale, minFillMs);
      if (!checked.ok) return invalid(res, kind, locale, checked.errors);
      if (checked.bot) {
        log({ kind: 'dropped', reason: checked.reason });
        return accepted(res, kind, locale, undefined);
      }
      let stored: { enquiry: StoredEnquiry; duplicate: boolean };
      try {
        stored = await inbox.add({ ...checked.enquiry, via: kind, notify: !!outbox });
      } catch (error) {
        log({ kind: 'error', error: `the inbox could not store an enquiry: ${(error as Error).message}` });
        throw new RequestProblem(503, 'storage_unavailable', manifest!.messages[locale].failure, { 'retry-after': '60' });
      }
      log({ kind: 'stored', id: stored.enquiry.id, duplicate: stored.duplicate });
      if (!stored.duplicate) outbox?.push(stored.enquiry);
      return accepted(res, kind, locale, stored);
    } catch (error) {
      if (!(error instanceof RequestProblem)) throw error;
      log({ kind: 'refused', status: error.status, code: error.code });
      refuse(req, res, kind, locale, error);
    }
  }

  function accepted(res: ServerResponse, kind: 'json' | 'form', locale: Locale, stored: { enquiry: StoredEnquiry; duplicate: boolean } | undefined) {
    if (kind === 'form') {
      res.writeHead(303, { location: manifest!.thanks[locale], 'cache-control': 'no-store' }).end();
      return;
    }
    const body = stored ? { ok: true, id: stored.enquiry.id, duplicate: stored.duplicate } : { ok: true };
    json(res, stored?.duplicate ? 200 : 201, body);
  }

  function invalid(res: ServerResponse, kind: 'json' | 'form', locale: Locale, errors: FieldError[]) {
    const m = manifest!.messages[locale];
    const message = summaryText(errors.length, locale, m);
    log({ kind: 'refused', status: 422, code: 'invalid' });
    if (kind === 'json') {
      json(res, 422, { ok: false, error: 'invalid', message, errors: Object.fromEntries(errors.map((e) => [e.field, e.message])), fields: errors });
      return;
    }
    const label = (f: string) => (m.fields as Record<string, string>)[f] ?? f;
    const items = errors.map((e) => `<li><b>${escapeHtml(label(e.field))}</b>: ${escapeHtml(e.message)}</li>`).join('');
    answerPage(res, 422, locale, message, `<p>${escapeHtml(m.errorBack)}</p><ul>${items}</ul>`);
  }

  function refuse(req: IncomingMessage, res: ServerResponse, kind: 'json' | 'form', locale: Locale, problem: RequestProblem) {
    if (problem.status === 413) res.setHeader('connection', 'close');
    for (const [k, v] of Object.entries(problem.headers)) res.setHeader(k, v);
    const m = manifest!.messages[locale];
    if (kind === 'form' && (problem.status === 429 || problem.status === 503)) {
      const contacts = [m.contacts.phone, m.contacts.email].filter(Boolean).map(escapeHtml).join(' · ');
      answerPage(res, problem.status, locale, problem.message, contacts ? `<p>${contacts}</p>` : '');
    } else json(res, problem.status, { ok: false, error: problem.code, message: problem.message });
    // Do not read the rest of an oversized body; close once the answer is out.
    if (problem.status === 413) res.on('finish', () => req.destroy());
  }

  function answerPage(res: ServerResponse, status: number, locale: Locale, title: string, body: string) {
    const css = manifest!.stylesheet ? `<link rel="stylesheet" href="${escapeHtml(manifest!.stylesheet)}">` : '';
    const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · ${escapeHtml(manifest!.siteName)}</title>${css}</head><body><main id="app" class="container"><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  }

  await new Promise<void>((ready, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'EADDRINUSE'
          ? new UsageError(`port ${options.port} on ${options.host} is already in use`, 'choose another with --port')
          : error.code === 'EACCES'
            ? new UsageError(`not allowed to listen on port ${options.port}`, 'use a port above 1023, or put a web server in front')
            : error,
      ),
    );
    server.listen({ port: options.port, host: options.host, backlog: 4096 }, ready);
  }).catch(async (error) => {
    await outbox?.close();
    await inbox.close();
    throw error;
  });
  const address = server.address() as { port: number; address: string };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        const drained = new Promise<void>((r) => {
          idle = r;
        });
        const deadline = new Promise<void>((r) => setTimeout(r, 10_000).unref());
        await Promise.race([drained, deadline]);
      }
      server.closeAllConnections();
      await stopped;
      limiter.stop();
      await outbox?.close();
      await inbox.close();
    })());

  return { url: `http://${host}:${address.port}`, server, inbox, outbox, manifest, close };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(`${JSON.stringify(body)}\n`);
}
