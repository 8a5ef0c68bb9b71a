import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { resolve } from 'node:path';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { UsageError } from '../report/problem.ts';
import { DEFAULT_KEEP_DAYS } from '../schema/legal.ts';
import type { ServeEvent, ServeLog } from './events.ts';
import { asProblem, json, kindOf, refuse, TEXT, withContacts } from './http/answer.ts';
import { answerLocale, MAX_BODY_BYTES } from './http/enquiry.ts';
import { registerEnquiryRoute } from './http/enquiry-route.ts';
import { LiveSite } from './http/live-site.ts';
import type { LogStream } from './http/log-lines.ts';
import { DEFAULT_TRACKED_ADDRESSES, databaseCounter, memoryCounter, trustedHops } from './http/rate-limit.ts';
import { HSTS, SECURITY_HEADERS } from './http/security-headers.ts';
import type { MailEvent, Mailer } from './mail/outbox.ts';
import { type AnyOutbox, outboxFor } from './mail/outboxes.ts';
import type { EnquiryManifest } from './manifest.ts';
import { startRetention } from './personal-data/retention.ts';
import type { ImportReport } from './store/file-inbox-import.ts';
import { optionsMemory } from './store/options-memory.ts';
import type { PgStore } from './store/pg-store.ts';
import { redactUrl } from './store/redact-url.ts';
import { SqliteStore } from './store/sqlite-store.ts';
import type { EnquiryStore, StoreHealth } from './store/store.ts';

export interface ServeOptions {
  /** The built site. */
  dir: string;
  /** Where the enquiry database (SQLite) lives. */
  data: string;
  /** A PostgreSQL address (postgres://…): enquiries go there instead of into the SQLite database in `data`. */
  database?: string;
  host: string;
  port: number;
  /**
   * A listening socket the service manager passed (systemd socket activation, see `inheritedSocket`):
   * served instead of `host` and `port`. It stays open while this process restarts, so a request
   * that arrives meanwhile waits in its queue instead of being refused.
   */
  listenFd?: number;
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
  /** How many counts (IPv4 addresses, IPv6 /64s and /48s) the rate limit remembers at most; when full, the least recent is dropped. */
  trackedAddresses?: number;
  /** E-mail to the studio; absent: no e-mail, and /api/health says degraded (see `mailOff`). */
  mail?: { mailer: Mailer; to: string; from: string; retry?: { initialMs: number; maxMs: number } };
  /** Without `mail`: why e-mail to the studio is off, in words /api/health may show anyone (no address, no password). */
  mailOff?: string;
  /** Enquiries older than this many days are deleted (default DEFAULT_KEEP_DAYS). */
  keepDays?: number;
  /** Sees every event (tests); the log lines go to `logStream`. */
  log?: ServeLog;
  /** The log: fastify's own logger (pino) writes one JSON line per entry here (see log-lines.ts for a terminal); absent: none. */
  logStream?: LogStream;
  /** No line per request or per enquiry, only what needs attention (and the start and stop). */
  quiet?: boolean;
}

export interface RunningServer {
  url: string;
  server: Server;
  /** The SQLite store, or the PostgreSQL store with --database. */
  inbox: EnquiryStore;
  /** What the first start after the upgrade imported from the old file inbox, if there was one. */
  imported?: ImportReport;
  outbox?: AnyOutbox;
  manifest: EnquiryManifest;
  /** The server's log (fastify's pino logger; silent without `logStream`). */
  logger: FastifyBaseLogger;
  /** How many counts the rate limit holds now (never more than `trackedAddresses`). */
  trackedAddresses(): number;
  /**
   * Stops accepting (a socket the service manager passed stays open for the next process), serves
   * what already reached this one, each answer with `Connection: close`, then closes the inbox.
   */
  close(): Promise<void>;
}

/** The first socket systemd passes (SD_LISTEN_FDS_START in sd_listen_fds(3)). */
const FIRST_PASSED_FD = 3;

/**
 * The listening socket systemd passed to this process (a `.socket` unit; sd_listen_fds(3)): fd 3
 * when LISTEN_PID names this process and LISTEN_FDS counts at least one. The variables are removed
 * then, as sd_listen_fds does, so that no process this one starts takes them for its own.
 */
export function inheritedSocket(env: NodeJS.ProcessEnv = process.env, pid = process.pid): number | undefined {
  if (env.LISTEN_PID !== String(pid)) return undefined;
  const count = Number(env.LISTEN_FDS);
  delete env.LISTEN_PID;
  delete env.LISTEN_FDS;
  delete env.LISTEN_FDNAMES;
  return Number.isInteger(count) && count >= 1 ? FIRST_PASSED_FD : undefined;
}

export { SECURITY_HEADERS } from './http/security-headers.ts';

/**
 * The HTTP layer is fastify: its router decodes paths (a malformed escape is a 400 before
 * our code runs), our parser reads JSON and plain form bodies within the 16 KB limit,
 * the rate limit counts stored enquiries per client address (rate-limit.ts), and fastify's error handling
 * turns an exception in one request into that request's 500, never the process's end.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = resolve(options.dir);
  let logger: FastifyBaseLogger | undefined;
  const log = eventLog(options, () => logger);
  const data = resolve(options.data);
  // The inbox is never served, even when --data lies inside the site.
  let imported: ImportReport | undefined;
  const inbox: EnquiryStore = options.database
    ? await openDatabase(options.database)
    : await openSqlite(data, (report) => {
        imported = report;
      });
  // The form's options of the build before are remembered in the store (either), so a restart still accepts them.
  const memory = await optionsMemory(inbox);
  let site: LiveSite;
  try {
    site = new LiveSite(dir, options.dir, [data], (message) => log({ kind: 'error', error: message }), memory);
  } catch (error) {
    await inbox.close();
    throw error;
  }
  const { manifest } = site.current;
  const outbox = openOutbox(options, inbox, site, log);
  const keepDays = options.keepDays ?? DEFAULT_KEEP_DAYS;
  const retention = startRetention(inbox, keepDays, {
    onErased: (ids) => log({ kind: 'expired', ids, days: keepDays }),
    onError: (error) => log({ kind: 'error', error: `could not delete the enquiries past ${keepDays} days (tried again in an hour): ${error.message}` }),
  });
  const hops = options.trustProxy === true ? 1 : options.trustProxy || 0;
  // Several instances on one database share one count; a single one counts in memory.
  const rateCounter =
    inbox instanceof SqliteStore ? memoryCounter(options.trackedAddresses ?? DEFAULT_TRACKED_ADDRESSES) : databaseCounter((inbox as PgStore).pool);

  const draining = { on: false };
  const app = createApp(site, hops, log, options, draining);
  logger = app.log;
  routeSiteAndHealth(app, site, inbox, options, keepDays);
  await registerEnquiryRoute(app, {
    site,
    inbox,
    outbox,
    log,
    rateLimit: options.rateLimit ?? { max: 20, windowMs: 10 * 60_000 },
    rateCounter,
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
      draining.on = true;
      await stopAccepting(app, options.listenFd !== undefined);
      await closeStores();
    })());
  return {
    url,
    server: app.server,
    inbox,
    imported,
    outbox,
    get manifest() {
      return site.current.manifest;
    },
    logger: app.log,
    trackedAddresses: rateCounter.tracked,
    close,
  };
}

/**
 * How long an idle keep-alive connection is kept. A proxy in front must let its idle connections
 * go sooner (deploy/Caddyfile: 2 s), so that it never sends a request on one this server is closing.
 */
export const KEEP_ALIVE_MS = 5_000;

/** The site's files (GET and HEAD only), and /api/health. */
function routeSiteAndHealth(app: FastifyInstance, site: LiveSite, inbox: EnquiryStore, options: ServeOptions, keepDays: number): void {
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: (request, reply) => site.current.serve(request, reply) });
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return reply.code(404).type(TEXT).send('Not found\n');
    return reply.code(405).header('allow', 'GET, HEAD').type(TEXT).send('Method not allowed\n');
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/health',
    handler: (_request, reply) => {
      const mailOff = options.mail ? undefined : (options.mailOff ?? 'no mail server is set');
      const health = publicHealth(inbox.health(), inbox instanceof SqliteStore ? 'sqlite' : 'database', { keepDays, mailOff });
      return json(reply, health.ok ? 200 : 503, health);
    },
  });
}

/** Each event to the test's hook and, as a log line, to the request's logger (with its id) or the server's. */
function eventLog(options: ServeOptions, serverLogger: () => FastifyBaseLogger | undefined): ServeLog {
  return (event, request) => {
    options.log?.(event, request);
    const target = (request as { log?: FastifyBaseLogger } | undefined)?.log ?? serverLogger();
    if (target) logEvent(target, event, !!options.quiet);
  };
}

/**
 * Stops taking connections and waits until every connection has ended (what reached the server is
 * answered first); then closes the app. `passedSocket`: the listening socket is systemd's, kept for
 * the next process.
 */
async function stopAccepting(app: FastifyInstance, passedSocket: boolean): Promise<void> {
  // Stop accepting and wait until every connection has ended. Not http.Server's close: it also
  // ends at once the connections that look idle, and one accepted a moment ago whose request is
  // not read yet looks idle: a request a proxy has already sent would be cut off (a 502, the
  // enquiry lost). net.Server's close leaves them be: each request is served, answered with
  // Connection: close, and its connection ends. A request still running after 10 s is cut off.
  const ended = new Promise<void>((done) => NetServer.prototype.close.call(app.server, () => done()));
  const deadline = setTimeout(() => app.server.closeAllConnections(), 10_000).unref();
  if (!passedSocket) {
    // The port closes with this process: no one takes the next request, so idle keep-alive
    // connections are ended now, once what reached the connections just accepted is read (the
    // next turn of the event loop).
    for (let turn = 0; turn < 2; turn++) await new Promise((next) => setImmediate(next));
    app.server.closeIdleConnections();
  }
  // On a passed socket the next process takes over: an idle keep-alive connection is left for
  // the client to let go (a proxy sends its next request on it, or opens a new one, which waits
  // in the socket for the next process), and ends after keepAliveTimeout at the latest. Ending it
  // here could meet a request the proxy is sending on it at that moment.
  await ended;
  clearTimeout(deadline);
  await app.close();
}

/** An e-mail owed to the studio for longer than this is late (health says so). */
export const MAIL_LATE_MS = 60 * 60_000;

/**
 * What /api/health tells anyone: ok or degraded, and why in plain words. Never the store's own
 * message: that names hosts, ports, users and paths (it goes to the server's log instead).
 * `ok` says whether an enquiry can be stored now (503 when not); `status` is degraded also when
 * e-mail to the studio is off (`mailOff`: why), was refused for good or is late, though
 * enquiries are still stored: the studio may not know of them.
 */
export function publicHealth(
  health: StoreHealth,
  kind: 'sqlite' | 'database',
  { keepDays, mailOff }: { keepDays?: number; mailOff?: string } = {},
  now = Date.now(),
) {
  const reasons: string[] = health.ok ? [] : [inWords(health.reason, kind)];
  if (mailOff) reasons.push(`e-mail to the studio is off (${mailOff}): enquiries are stored, but no one is told of them ("content enquiries list" shows them)`);
  const failed = health.mail?.failed ?? 0;
  if (failed > 0)
    reasons.push(
      `the mail server refused ${failed === 1 ? 'one e-mail' : `${failed} e-mails`} to the studio for good: "content enquiries list" shows ${failed === 1 ? 'it' : 'them'}, "content enquiries resend ID" sends again`,
    );
  const oldest = health.mail?.oldestOwedAt ? Date.parse(health.mail.oldestOwedAt) : Number.NaN;
  if (now - oldest > MAIL_LATE_MS)
    reasons.push(`e-mail to the studio is late: one has been owed for ${Math.round((now - oldest) / 60_000)} minutes (is the mail server reachable?)`);
  const details = {
    ...(health.mail ? { mailFailed: failed } : {}),
    ...((health.retentionDays ?? keepDays) !== undefined ? { retentionDays: health.retentionDays ?? keepDays } : {}),
  };
  return { ok: health.ok, status: reasons.length ? 'degraded' : 'ok', ...(reasons.length ? { reasons } : {}), ...details };
}

function inWords(reason: string, kind: 'sqlite' | 'database'): string {
  if (/closed/i.test(reason)) return 'the server is shutting down';
  if (kind === 'database') {
    if (/timeout|timed out|canceling statement/i.test(reason)) return 'the database does not answer in time; enquiries are answered 503';
    if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|connect|terminat|shut ?down|not connected/i.test(reason))
      return 'the database cannot be reached; enquiries are answered 503';
    return 'the database cannot store enquiries; enquiries are answered 503';
  }
  if (/ENOSPC|no space|disk is full/i.test(reason)) return 'the disk of the enquiry database is full; enquiries are answered 503';
  if (/EACCES|EPERM|permission|readonly|read-only/i.test(reason)) return 'the enquiry database may not be written; enquiries are answered 503';
  if (/locked|busy/i.test(reason)) return 'the enquiry database is busy with another process; enquiries are answered 503';
  return 'the enquiry database cannot store enquiries; enquiries are answered 503';
}

/** The SQLite store in `--data`; a database this tool cannot use (too new, not a database, not readable) is a usage error. */
async function openSqlite(dir: string, onImport: (report: ImportReport) => void): Promise<SqliteStore> {
  try {
    return await SqliteStore.open(dir, { onImport });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `the enquiry database in ${dir} cannot be opened: ${(error as Error).message}`,
      'is --data the folder "content serve" was started with, and may this user write it?',
    );
  }
}

/** The PostgreSQL store; an address that waiting will not mend is a usage error (a database that is away is not: it is waited for). */
async function openDatabase(url: string): Promise<PgStore> {
  // The PostgreSQL client is loaded only by a server on PostgreSQL.
  const { DatabaseRefused, PgStore } = await import('./store/pg-store.ts');
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

/** The e-mail outbox beside the store (a table in its database); none without e-mail. */
function openOutbox(options: ServeOptions, inbox: EnquiryStore, site: LiveSite, log: ServeLog): RunningServer['outbox'] {
  if (!options.mail) return undefined;
  // The course names of the build served now (a rebuild may add an option).
  const manifest = new Proxy({} as EnquiryManifest, { get: (_target, key) => site.current.manifest[key as keyof EnquiryManifest] });
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

/** fastify's schema compilers, for no schema: a route that declares one stops the server from starting (fastify compiles schemas when it gets ready). */
type SchemaCompilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
const refuseSchema = (route: { url?: string }): never => {
  throw new Error(`${route.url ?? 'a route'} declares a fastify schema; this server checks requests itself and loads no schema compiler`);
};
const NO_SCHEMA_COMPILERS: SchemaCompilers = {
  // ajv-compiler's type is a union of its two factories, both with ajv's own options: this one takes none.
  buildValidator: (() => refuseSchema) as unknown as SchemaCompilers['buildValidator'],
  buildSerializer: () => refuseSchema,
};

/** fastify with the server's limits, the policy headers on every answer, and errors answered, never thrown. */
function createApp(
  site: LiveSite,
  hops: number,
  log: ServeLog,
  options: Pick<ServeOptions, 'logStream' | 'quiet'>,
  draining: { on: boolean },
): FastifyInstance {
  const app = Fastify({
    // pino, as fastify makes it: JSON lines with a level, a time and the request's id (reqId).
    logger: options.logStream ? { level: 'info', stream: options.logStream, serializers: LOG_SERIALIZERS } : false,
    logController: new RequestLines(!!options.quiet),
    trustProxy: trustedHops(hops),
    bodyLimit: MAX_BODY_BYTES,
    requestTimeout: 30_000,
    keepAliveTimeout: KEEP_ALIVE_MS,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // No route declares a fastify schema (an enquiry is checked by its zod shape, http/enquiry.ts):
    // fastify's default compilers (ajv, fast-json-stringify) are not loaded, which is about a
    // quarter of fastify's start. A route given a schema stops the start, never a request.
    schemaController: { compilersFactory: NO_SCHEMA_COMPILERS },
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
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    // While the server stops, a connection ends after the answer it is given (the client opens the next one on the socket that stays).
    if (draining.on) reply.header('connection', 'close');
    // https only as a trusted proxy says (fastify reads X-Forwarded-Proto only from a hop --trust-proxy trusts).
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    const { manifest } = site.current;
    const problem = asProblem(error);
    const locale = answerLocale(undefined, request, manifest);
    if (problem) {
      log({ kind: 'refused', status: problem.status, code: problem.code }, request);
      return refuse(request, reply, manifest, kindOf(request), locale, problem);
    }
    log({ kind: 'error', error: `${request.method} ${JSON.stringify(pathOf(request.url))}: ${String((error as Error)?.stack ?? error)}` }, request);
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

/**
 * What a log line may say about a request: its method and path. Never the visitor's address
 * (it lives only in the rate limit's memory), never the query (a form sent with GET would put
 * what a visitor typed there), never headers or the body.
 */
const LOG_SERIALIZERS = {
  req: (request: { method?: string; url?: string }) => ({ method: request.method, path: pathOf(request.url ?? '') }),
  res: (reply: { statusCode?: number }) => ({ status: reply.statusCode }),
};

/** fastify's lines about requests: one per request once it is answered, without the visitor's address; none with --quiet. */
class RequestLines extends LogController {
  constructor(private readonly quiet: boolean) {
    super();
  }
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.quiet && !error) return;
    const path = pathOf(request.url);
    const line = { method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, `${request.method} ${path} ${reply.statusCode}: ${error.message}`);
    else reply.log.info(line, `${request.method} ${path} ${reply.statusCode}`);
  }
}

/** A request's path without its query, cut to 200 characters. */
const pathOf = (url: string) => url.split('?')[0]!.slice(0, 200);

/**
 * One event as a log line. Events never carry a visitor's name, address, e-mail or message
 * (events.ts), so the line cannot either. With `quiet`, only what needs attention.
 */
function logEvent(logger: FastifyBaseLogger, e: ServeEvent, quiet: boolean): void {
  if (e.kind === 'stored')
    !quiet &&
      logger.info({ event: e.kind, enquiry: e.id, duplicate: e.duplicate }, `enquiry ${e.id} ${e.duplicate ? 'was already stored (sent twice)' : 'stored'}`);
  else if (e.kind === 'suspected')
    !quiet &&
      logger.info(
        { event: e.kind, enquiry: e.id, reason: e.reason, duplicate: e.duplicate },
        `enquiry ${e.id} ${e.duplicate ? 'was already kept' : 'kept aside'} as suspected spam (${e.reason === 'honeypot' ? 'hidden field filled' : 'sent too fast'}); not e-mailed: content enquiries list --spam, restore ${e.id}`,
      );
  else if (e.kind === 'mail-sent') !quiet && logger.info({ event: e.kind, enquiry: e.id }, `e-mail for enquiry ${e.id} sent`);
  else if (e.kind === 'mail-failed')
    logger.warn(
      { event: e.kind, enquiry: e.id, retryInMs: e.retryInMs },
      `e-mail for enquiry ${e.id} failed (${withoutAddresses(e.error)}); trying again in ${Math.round(e.retryInMs / 1000)} s`,
    );
  else if (e.kind === 'mail-refused')
    logger.warn(
      { event: e.kind, enquiry: e.id },
      `the mail server refused the e-mail for enquiry ${e.id} for good (${withoutAddresses(e.error)}); marked failed: content enquiries resend ${e.id} sends it again`,
    );
  else if (e.kind === 'expired')
    !quiet &&
      logger.info(
        { event: e.kind, enquiries: e.ids, days: e.days },
        `deleted ${e.ids.length} enquir${e.ids.length === 1 ? 'y' : 'ies'} older than ${e.days} days (ids ${e.ids.join(', ')})`,
      );
  else if (e.kind === 'error') logger.error({ event: e.kind }, e.error);
  else if (e.kind === 'refused') logger.debug({ event: e.kind, status: e.status, code: e.code }, `refused: ${e.code}`);
}

/** A mail server's reply may quote an address (the visitor's, in a Reply-To): not in the log. */
const withoutAddresses = (text: string) => text.replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+/g, '<address>');

/**
 * Listens on the socket the service manager passed, or on `host` and `port`; or closes what was
 * opened and says why it cannot. Resolves to the server's address. fastify's routes are made
 * ready first, and the HTTP server listens by itself (fastify's listen knows no passed socket).
 */
async function listen(app: FastifyInstance, options: ServeOptions, closeStores: () => Promise<void>): Promise<string> {
  const server = app.server;
  try {
    await app.ready();
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => {
        server.off('listening', listening);
        reject(error);
      };
      const listening = () => {
        server.off('error', failed);
        resolve();
      };
      server.once('error', failed).once('listening', listening);
      server.listen(options.listenFd === undefined ? { port: options.port, host: options.host, backlog: 4096 } : { fd: options.listenFd });
    });
  } catch (error) {
    await app.close().catch(() => {});
    await closeStores();
    const code = (error as NodeJS.ErrnoException).code;
    if (options.listenFd !== undefined)
      throw new UsageError(
        `the socket passed as file descriptor ${options.listenFd} (LISTEN_FDS) cannot be listened on: ${(error as Error).message}`,
        'is the service started by its .socket unit (deploy/studio-serve.socket, ListenStream=127.0.0.1:8080)?',
      );
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is already in use`, 'choose another with --port');
    if (code === 'EACCES') throw new UsageError(`not allowed to listen on port ${options.port}`, 'use a port above 1023, or put a web server in front');
    throw error;
  }
  const address = server.address() as { port: number; address: string };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
