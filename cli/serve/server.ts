import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { CSP } from '../../templates/csp.ts';
import type { Locale } from '../../templates/model.ts';
import { UsageError } from '../report/problem.ts';
import { asProblem, json, kindOf, refuse, TEXT, withContacts } from './answer.ts';
import { answerLocale, MAX_BODY_BYTES } from './enquiry.ts';
import { registerEnquiryRoute } from './enquiry-route.ts';
import type { ServeLog } from './events.ts';
import { Inbox } from './inbox.ts';
import { type EnquiryManifest, MANIFEST_FILE, readManifest } from './manifest.ts';
import type { MailEvent, Mailer } from './outbox.ts';
import { type AnyOutbox, outboxFor } from './outboxes.ts';
import { DatabaseRefused, PgStore, redactUrl } from './pg-store.ts';
import { boundedStore, DEFAULT_TRACKED_ADDRESSES, trustedHops } from './rate-limit.ts';
import { DEFAULT_KEEP_DAYS, startRetention } from './retention.ts';
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
  /** Enquiries older than this many days are deleted (default DEFAULT_KEEP_DAYS). */
  keepDays?: number;
  log?: ServeLog;
}

export interface RunningServer {
  url: string;
  server: Server;
  /** The file inbox, or the PostgreSQL store with --database. */
  inbox: EnquiryStore;
  outbox?: AnyOutbox;
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

/**
 * The HTTP layer is fastify: its router decodes paths (a malformed escape is a 400 before
 * our code runs), @fastify/formbody and our JSON parser read bodies within the 16 KB limit,
 * @fastify/rate-limit counts enquiries per client address, and fastify's error handling
 * turns an exception in one request into that request's 500, never the process's end.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  const { manifest, thanks } = readSite(dir, options.dir);
  const log = options.log ?? (() => {});
  const data = resolve(options.data);
  const inbox: EnquiryStore = options.database ? await openDatabase(options.database) : await Inbox.open(data);
  const outbox = openOutbox(options, inbox, manifest, log);
  const keepDays = options.keepDays ?? DEFAULT_KEEP_DAYS;
  const retention = startRetention(inbox, keepDays, {
    onErased: (ids) => log({ kind: 'expired', ids, days: keepDays }),
    onError: (error) => log({ kind: 'error', error: `could not delete the enquiries past ${keepDays} days (tried again in an hour): ${error.message}` }),
  });
  const hops = options.trustProxy === true ? 1 : options.trustProxy || 0;
  const rateLimitStore = boundedStore(options.trackedAddresses ?? DEFAULT_TRACKED_ADDRESSES);

  const app = createApp(manifest, hops, log);
  // The inbox is never served, even when --data lies inside the site.
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: createStaticHandler(dir, manifest.locales, { exclude: [data] }) });
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
  await registerEnquiryRoute(app, {
    manifest,
    thanks,
    inbox,
    outbox,
    log,
    rateLimit: options.rateLimit ?? { max: 20, windowMs: 10 * 60_000 },
    rateLimitStore,
    minFillMs: options.minFillMs ?? 3000,
    origins: [new URL(manifest.baseUrl).origin, ...(options.origins ?? []).map((o) => new URL(o).origin)],
    hops,
  });

  const closeStores = async () => {
    retention.stop();
    await outbox?.close();
    await inbox.close();
  };
  const url = await listen(app, options, closeStores);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // fastify stops accepting, closes idle connections and waits for the requests under way;
      // a request still running after 10 s is cut off.
      const deadline = setTimeout(() => app.server.closeAllConnections(), 10_000).unref();
      await app.close();
      clearTimeout(deadline);
      await closeStores();
    })());
  return { url, server: app.server, inbox, outbox, manifest, trackedAddresses: rateLimitStore.tracked, close };
}

/** The site's manifest, and its thank-you addresses as Locations: paths on this site, percent-encoded. */
function readSite(dir: string, given: string): { manifest: EnquiryManifest; thanks: Record<Locale, string> } {
  if (!existsSync(dir)) throw new UsageError(`there is no built site in ${given}`, 'run "content build" first');
  const manifest = readManifest(dir);
  if (!manifest) throw new UsageError(`${given} has no ${MANIFEST_FILE} from this version of "content build"`, 'run "content build" again');
  const thanks = { ...manifest.thanks };
  for (const [locale, path] of Object.entries(manifest.thanks) as [Locale, string][]) {
    if (typeof path !== 'string' || !/^\/(?![/\\])/.test(path) || hasControl(path))
      throw new UsageError(`${given}/${MANIFEST_FILE}: the thank-you address for ${locale} is not a path on this site`, 'run "content build" again');
    thanks[locale] = localPath(path.split('/'));
  }
  return { manifest, thanks };
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

/** The e-mail outbox beside the store (in the database, or the mail log beside the file inbox); none without e-mail. */
function openOutbox(options: ServeOptions, inbox: EnquiryStore, manifest: EnquiryManifest, log: ServeLog): RunningServer['outbox'] {
  if (!options.mail) return undefined;
  const onEvent = (e: MailEvent) =>
    log(
      e.kind === 'sent'
        ? { kind: 'mail-sent', id: e.id }
        : e.kind === 'refused'
          ? { kind: 'mail-refused', id: e.id, error: e.error }
          : { kind: 'mail-failed', id: e.id, error: e.error, retryInMs: e.retryInMs },
    );
  return outboxFor(inbox, { manifest, ...options.mail, onEvent });
}

/** fastify with the server's limits, the policy headers on every answer, and errors answered, never thrown. */
function createApp(manifest: EnquiryManifest, hops: number, log: ServeLog): FastifyInstance {
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
    const locale = answerLocale(undefined, request, manifest);
    if (problem) {
      log({ kind: 'refused', status: problem.status, code: problem.code });
      return refuse(request, reply, manifest, kindOf(request), locale, problem);
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
  return app;
}

/** Listens, or closes what was opened and says why it cannot; resolves to the server's address. */
async function listen(app: FastifyInstance, options: ServeOptions, closeStores: () => Promise<void>): Promise<string> {
  try {
    await app.listen({ port: options.port, host: options.host, backlog: 4096 });
  } catch (error) {
    await app.close().catch(() => {});
    await closeStores();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is already in use`, 'choose another with --port');
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${options.port}`, 'use a port above 1023, or put a web server in front');
    throw error;
  }
  const address = app.server.address() as { port: number; address: string };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
