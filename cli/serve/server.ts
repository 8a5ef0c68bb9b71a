import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { CSP } from '../../templates/csp.ts';
import type { Locale } from '../../templates/model.ts';
import { UsageError } from '../report/problem.ts';
import { escapeHtml } from '../util/escape.ts';
import { answerLocale, type BodyKind, bodyKind, checkEnquiry, type FieldError, MAX_BODY_BYTES, parseBody, RequestProblem, summaryText } from './enquiry.ts';
import { EnquiryConflict, Inbox, readInbox, type StoredEnquiry } from './inbox.ts';
import { type EnquiryManifest, MANIFEST_FILE, readManifest, serverText } from './manifest.ts';
import { type Mailer, Outbox } from './outbox.ts';
import { PgOutbox } from './pg-outbox.ts';
import { DatabaseRefused, PgStore, redactUrl } from './pg-store.ts';
import { boundedStore, DEFAULT_TRACKED_ADDRESSES, trustedHops } from './rate-limit.ts';
import { createStaticHandler, hasControl, localPath } from './static.ts';
import type { EnquiryStore } from './store.ts';

export interface ServeOptions {
  /** The built site. */
  dir: string;
  /** Where the inbox lives. */
  data: string;
  /** A PostgreSQL address (postgres://…): enquiries go there instead of into the file inbox in `data`. */
  database?: string;
  host: string;
  port: number;
  /** Enquiries one address may send per window; 0 turns the limit off. */
  rateLimit?: { max: number; windowMs: number };
  /** Sooner than this after the form appeared, an enquiry is a bot's and is dropped quietly. */
  minFillMs?: number;
  /** More origins (besides this server's own address and the site's baseUrl) allowed to post JSON. */
  origins?: string[];
  /**
   * Behind reverse proxies: how many of them to trust (true: one). The client address is the
   * one the outermost trusted proxy appended to X-Forwarded-For, never an entry left of it.
   */
  trustProxy?: boolean | number;
  /** How many client addresses the rate limit remembers at most. */
  trackedAddresses?: number;
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
  /** The file inbox, or the PostgreSQL store with --database. */
  inbox: EnquiryStore;
  outbox?: Pick<Outbox, 'push' | 'pending' | 'close'>;
  manifest: EnquiryManifest;
  /** How many client addresses the rate limit holds now (never more than `trackedAddresses`). */
  trackedAddresses(): number;
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

const TEXT = 'text/plain; charset=utf-8';
/** Methods the enquiry endpoint answers with 405 (it takes POST only). */
const NOT_POST = ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * The HTTP layer is fastify: its router decodes paths (a malformed escape is a 400 before
 * our code runs), @fastify/formbody and our JSON parser read bodies within the 16 KB limit,
 * @fastify/rate-limit counts enquiries per client address, and fastify's error handling
 * turns an exception in one request into that request's 500, never the process's end.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  if (!existsSync(dir)) throw new UsageError(`there is no built site in ${options.dir}`, 'run "content build" first');
  const manifest = readManifest(dir);
  if (!manifest) throw new UsageError(`${options.dir} has no ${MANIFEST_FILE} from this version of "content build"`, 'run "content build" again');

  // The thank-you addresses go into Location headers: paths on this site, percent-encoded.
  const thanks = { ...manifest.thanks };
  for (const [locale, path] of Object.entries(manifest.thanks) as [Locale, string][]) {
    if (typeof path !== 'string' || !/^\/(?![/\\])/.test(path) || hasControl(path))
      throw new UsageError(`${options.dir}/${MANIFEST_FILE}: the thank-you address for ${locale} is not a path on this site`, 'run "content build" again');
    thanks[locale] = localPath(path.split('/'));
  }
  const log = options.log ?? (() => {});
  const data = resolve(options.data);
  const inbox: EnquiryStore = options.database ? await openDatabase(options.database) : await Inbox.open(data);
  const mailEvent = (e: { kind: 'sent'; id: number } | { kind: 'failed'; id: number; error: string; retryInMs: number }) =>
    log(e.kind === 'sent' ? { kind: 'mail-sent', id: e.id } : { kind: 'mail-failed', id: e.id, error: e.error, retryInMs: e.retryInMs });
  const outbox = !options.mail
    ? undefined
    : inbox instanceof PgStore
      ? new PgOutbox(inbox.pool, { manifest, ...options.mail, onEvent: mailEvent })
      : new Outbox(
          {
            dir: data,
            manifest,
            mailer: options.mail.mailer,
            to: options.mail.to,
            from: options.mail.from,
            retry: options.mail.retry,
            onEvent: mailEvent,
          },
          readInbox(data).enquiries,
        );
  const limit = options.rateLimit ?? { max: 20, windowMs: 10 * 60_000 };
  const minFillMs = options.minFillMs ?? 3000;
  // The inbox is never served, even when --data lies inside the site.
  const serveStatic = createStaticHandler(dir, manifest.locales, { exclude: [data] });
  const siteOrigin = new URL(manifest.baseUrl).origin;
  const hops = options.trustProxy === true ? 1 : options.trustProxy || 0;
  const store = boundedStore(options.trackedAddresses ?? DEFAULT_TRACKED_ADDRESSES);
  const extraOrigins = (options.origins ?? []).map((o) => new URL(o).origin);

  const app = Fastify({
    logger: false,
    trustProxy: trustedHops(hops),
    bodyLimit: MAX_BODY_BYTES,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A malformed percent-encoding or similar: answered before any route runs.
    frameworkErrors: (error, _request, reply) => {
      (reply as FastifyReply)
        .headers(SECURITY_HEADERS)
        .code(400)
        .type(TEXT)
        .send(`Bad request: ${error.code === 'FST_ERR_BAD_URL' ? 'the address is not valid percent-encoding' : 'the request could not be read'}\n`);
    },
  });
  app.server.headersTimeout = 15_000;

  // Every answer carries the policy headers (errors, redirects and not-found pages too).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    const problem = asProblem(error);
    const kind = kindOf(request);
    const locale = answerLocale(undefined, request, manifest);
    if (problem) {
      log({ kind: 'refused', status: problem.status, code: problem.code });
      return refuse(request, reply, kind, locale, problem);
    }
    log({ kind: 'error', error: `${request.method} ${JSON.stringify(request.url.slice(0, 200))}: ${String((error as Error)?.stack ?? error)}` });
    if (request.routeOptions.url === manifest.endpoint) {
      const m = manifest.messages[locale];
      return json(reply, 500, { ok: false, error: 'internal', message: withContacts(m.failure, m) });
    }
    return reply.code(500).type(TEXT).send('Internal error\n');
  });

  // Bodies are read only at the enquiry endpoint; elsewhere a body is never parsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: serveStatic });
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return reply.code(404).type(TEXT).send('Not found\n');
    return reply.code(405).header('allow', 'GET, HEAD').type(TEXT).send('Method not allowed\n');
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/health',
    handler: (_request, reply) => {
      const health = inbox.health();
      return json(reply, health.ok ? 200 : 503, health.ok ? { ok: true } : { ok: false, reason: health.reason });
    },
  });

  app.route({
    method: [...NOT_POST],
    url: manifest.endpoint,
    handler: (_request, reply) => reply.code(405).header('allow', 'POST').type(TEXT).send('Enquiries are sent with POST.\n'),
  });

  await app.register(async (scope) => {
    if (limit.max > 0)
      await scope.register(rateLimit, {
        global: true,
        max: limit.max,
        timeWindow: limit.windowMs,
        store: store.Store,
        keyGenerator: (request) => request.ip || 'unknown',
        addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
        addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
        errorResponseBuilder: (request, context) =>
          new RequestProblem(429, 'rate_limited', manifest.messages[answerLocale(undefined, request, manifest)].errorRateLimited, {
            'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
          }),
      });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => {
      try {
        done(null, parseBody('json', body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    await scope.register(formbody, { bodyLimit: MAX_BODY_BYTES });
    scope.route({
      method: 'POST',
      url: manifest.endpoint,
      // Before the body is read: what kind it is (415), and whether it comes from the site (403).
      preParsing: async (request, _reply, payload) => {
        const kind = bodyKind(request.headers['content-type']);
        const origin = request.headers.origin;
        // A JSON post comes from the site's own script, which always sends Origin; a plain form post may lack it.
        if ((kind === 'json' || origin) && !(origin && ownOrigins(request).has(origin)))
          throw new RequestProblem(
            403,
            'forbidden_origin',
            origin ? `Enquiries are accepted only from the site's own pages, not from ${origin.slice(0, 200)}.` : 'A JSON enquiry must say its Origin.',
          );
        return payload;
      },
      handler: receive,
    });
  });

  const ownOrigins = (request: FastifyRequest) => {
    const host = request.headers.host;
    const forwarded = hops
      ? String(request.headers['x-forwarded-proto'] ?? '')
          .split(',')[0]!
          .trim()
      : '';
    const proto = forwarded === 'https' ? 'https' : 'http';
    return new Set([siteOrigin, ...extraOrigins, ...(host ? [`${proto}://${host}`] : [])]);
  };

  async function receive(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const kind = kindOf(request);
    const fields = (request.body ?? {}) as Record<string, unknown>;
    const locale = answerLocale(fields, request, manifest!);
    try {
      return await take(reply, kind, locale, fields);
    } catch (error) {
      // Refused once the body is read: answered in the language the enquiry names.
      if (!(error instanceof RequestProblem)) throw error;
      log({ kind: 'refused', status: error.status, code: error.code });
      return refuse(request, reply, kind, locale, error);
    }
  }

  async function take(reply: FastifyReply, kind: BodyKind, locale: Locale, fields: Record<string, unknown>): Promise<FastifyReply> {
    const checked = checkEnquiry(fields, manifest!, locale, minFillMs, kind);
    if (!checked.ok) return invalid(reply, kind, locale, checked.errors);
    if (checked.bot) {
      log({ kind: 'dropped', reason: checked.reason });
      return accepted(reply, kind, locale, undefined);
    }
    const m = manifest!.messages[locale];
    let stored: { enquiry: StoredEnquiry; duplicate: boolean };
    try {
      stored = await inbox.add({ ...checked.enquiry, via: kind, notify: !!outbox });
    } catch (error) {
      if (error instanceof EnquiryConflict) throw new RequestProblem(409, 'idempotency_conflict', m.errorConflict ?? serverText(locale, 'errorConflict'));
      log({ kind: 'error', error: `the inbox could not store an enquiry: ${(error as Error).message}` });
      throw new RequestProblem(503, 'storage_unavailable', withContacts(m.failure, m), { 'retry-after': '60' });
    }
    log({ kind: 'stored', id: stored.enquiry.id, duplicate: stored.duplicate });
    if (!stored.duplicate) outbox?.push(stored.enquiry);
    return accepted(reply, kind, locale, stored);
  }

  function accepted(reply: FastifyReply, kind: BodyKind, locale: Locale, stored: { enquiry: StoredEnquiry; duplicate: boolean } | undefined) {
    if (kind === 'form') return reply.code(303).header('location', thanks[locale]).header('cache-control', 'no-store').send();
    const body = stored ? { ok: true, id: stored.enquiry.id, duplicate: stored.duplicate } : { ok: true };
    return json(reply, stored?.duplicate ? 200 : 201, body);
  }

  function invalid(reply: FastifyReply, kind: BodyKind, locale: Locale, errors: FieldError[]) {
    const m = manifest!.messages[locale];
    const message = summaryText(errors.length, locale, m);
    log({ kind: 'refused', status: 422, code: 'invalid' });
    if (kind === 'json')
      return json(reply, 422, { ok: false, error: 'invalid', message, errors: Object.fromEntries(errors.map((e) => [e.field, e.message])), fields: errors });
    const label = (f: string) => (m.fields as Record<string, string>)[f] ?? f;
    const items = errors.map((e) => `<li><b>${escapeHtml(label(e.field))}</b>: ${escapeHtml(e.message)}</li>`).join('');
    return answerPage(reply, 422, locale, message, `<p>${escapeHtml(m.errorBack)}</p><ul>${items}</ul>`);
  }

  function refuse(request: FastifyRequest, reply: FastifyReply, kind: BodyKind, locale: Locale, problem: RequestProblem) {
    for (const [k, v] of Object.entries(problem.headers)) reply.header(k, v);
    if (problem.status === 413) {
      // Do not read the rest of an oversized body; close once the answer is out.
      reply.header('connection', 'close');
      reply.raw.once('finish', () => request.raw.destroy());
    }
    const m = manifest!.messages[locale];
    if (kind === 'form' && [409, 429, 503].includes(problem.status)) {
      const contacts = [m.contacts.phone, m.contacts.email].filter(Boolean).map(escapeHtml).join(' · ');
      return answerPage(reply, problem.status, locale, problem.message, contacts && problem.status !== 503 ? `<p>${contacts}</p>` : '');
    }
    const extra = problem.status === 503 ? { contacts: m.contacts } : {};
    return json(reply, problem.status, { ok: false, error: problem.code, message: problem.message, ...extra });
  }

  function answerPage(reply: FastifyReply, status: number, locale: Locale, title: string, body: string) {
    const css = manifest!.stylesheet ? `<link rel="stylesheet" href="${escapeHtml(manifest!.stylesheet)}">` : '';
    const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · ${escapeHtml(manifest!.siteName)}</title>${css}</head><body><main id="app" class="container"><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`;
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  }

  try {
    await app.listen({ port: options.port, host: options.host, backlog: 4096 });
  } catch (error) {
    await app.close().catch(() => {});
    await outbox?.close();
    await inbox.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is already in use`, 'choose another with --port');
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${options.port}`, 'use a port above 1023, or put a web server in front');
    throw error;
  }
  const address = app.server.address() as { port: number; address: string };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // fastify stops accepting, closes idle connections and waits for the requests under way;
      // a request still running after 10 s is cut off.
      const deadline = setTimeout(() => app.server.closeAllConnections(), 10_000).unref();
      await app.close();
      clearTimeout(deadline);
      await outbox?.close();
      await inbox.close();
    })());

  return {
    url: `http://${host}:${address.port}`,
    server: app.server,
    inbox,
    outbox,
    manifest,
    trackedAddresses: store.tracked,
    close,
  };
}

/** The PostgreSQL store; an address that waiting will not mend is a usage error (a database that is away is not: it is waited for). */
async function openDatabase(url: string): Promise<PgStore> {
  try {
    return await PgStore.open(url);
  } catch (error) {
    if (error instanceof DatabaseRefused)
      throw new UsageError(
        `the database ${redactUrl(url)} cannot take enquiries: ${error.message}`,
        'check the address, the user and PGPASSWORD or the password in STUDIO_DATABASE_URL',
      );
    throw error;
  }
}

/** JSON enquiries and plain form posts are answered differently; a body of another kind is answered as JSON. */
function kindOf(request: FastifyRequest): BodyKind {
  try {
    return bodyKind(request.headers['content-type']);
  } catch {
    return 'json';
  }
}

/** The visitor-facing failure text with the studio's phone and e-mail, so they can reach the studio another way. */
function withContacts(text: string, m: EnquiryManifest['messages'][Locale]): string {
  const contacts = [m.contacts.phone, m.contacts.email].filter(Boolean).join(' · ');
  return contacts ? `${text} ${contacts}` : text.replace(/[:：]\s*$/, '.');
}

/** A refusal we meant (ours, or one of fastify's for a request it could not take), or undefined for a bug. */
function asProblem(error: unknown): RequestProblem | undefined {
  if (error instanceof RequestProblem) return error;
  const e = error as { code?: string; statusCode?: number };
  if (e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e?.statusCode === 413)
    return new RequestProblem(413, 'too_large', `An enquiry may be at most ${MAX_BODY_BYTES / 1024} KB.`);
  if (e?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new RequestProblem(415, 'unsupported_media_type', 'An enquiry is sent as application/json, application/x-www-form-urlencoded.', {
      'accept-post': 'application/json, application/x-www-form-urlencoded',
    });
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return new RequestProblem(e.statusCode, 'bad_request', 'The request could not be read; an enquiry is a JSON object or a form of at most 16 KB.');
  return undefined;
}

function json(reply: FastifyReply, status: number, body: unknown) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`${JSON.stringify(body)}\n`);
}
