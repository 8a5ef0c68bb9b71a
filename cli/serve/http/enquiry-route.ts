import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../../templates/model.ts';
import type { ServeLog } from '../events.ts';
import type { EnquiryStore } from '../store/store.ts';
import { EnquiryConflict, type StoredEnquiry } from '../store/store.ts';
import { invalidPage, json, kindOf, refuse, TEXT, withContacts } from './answer.ts';
import { answerLocale, type BodyKind, bodyKind, checkEnquiry, type FieldError, MAX_BODY_BYTES, parseBody, RequestProblem, summaryText } from './enquiry.ts';
import type { LiveSite, SiteBuild } from './live-site.ts';
import { clientLimits, type RateCounter } from './rate-limit.ts';

/** What the enquiry endpoint works with; startServer makes it. */
export interface EnquiryRoute {
  /** The build served now: its form rules and thank-you pages (see LiveSite). */
  site: LiveSite;
  inbox: EnquiryStore;
  /** Set when e-mail to the studio is on: every new enquiry is pushed to it. */
  outbox?: { push(enquiry: StoredEnquiry): void };
  log: ServeLog;
  /** Enquiries one address (IPv6: one /64) may have stored per window; 0 turns the limit off. */
  rateLimit: { max: number; windowMs: number };
  rateCounter: RateCounter;
  minFillMs: number;
  /** The site's origin and the others allowed (--origin); the server's own address is added per request. */
  origins: string[];
  /** How many proxies are trusted: with any, X-Forwarded-Proto says the scheme of the server's own address. */
  hops: number;
}

/** Methods the enquiry endpoint answers with 405 (it takes POST only). */
const NOT_POST = ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * The enquiry endpoint: POST only, from the site's own pages, rate-limited per client address:
 * only enquiries that are stored are counted (see take), so posts refused as invalid fill nothing.
 * Only here is a body read: JSON and plain forms by parseBody (into objects without a prototype), both within
 * the 16 KB limit.
 */
export async function registerEnquiryRoute(app: FastifyInstance, route: EnquiryRoute): Promise<void> {
  const { manifest } = route.site.current;
  app.route({
    method: [...NOT_POST],
    url: manifest.endpoint,
    handler: (_request, reply) => reply.code(405).header('allow', 'POST').type(TEXT).send('Enquiries are sent with POST.\n'),
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    for (const [type, kind] of [
      ['application/json', 'json'],
      ['application/x-www-form-urlencoded', 'form'],
    ] as const)
      scope.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => {
        try {
          done(null, parseBody(kind, body as Buffer));
        } catch (error) {
          done(error as Error, undefined);
        }
      });
    scope.route({
      method: 'POST',
      url: manifest.endpoint,
      // Before the body is read: what kind it is (415), and whether it comes from the site (403).
      preParsing: async (request, _reply, payload) => {
        checkOrigin(request, route);
        return payload;
      },
      handler: (request, reply) => receive(request, reply, route),
    });
  });
}

function checkOrigin(request: FastifyRequest, route: EnquiryRoute): void {
  const kind = bodyKind(request.headers['content-type']);
  const origin = request.headers.origin;
  // A JSON post comes from the site's own script, which always sends Origin; a plain form post may lack it.
  if ((kind === 'json' || origin) && !(origin && ownOrigins(request, route).has(origin)))
    throw new RequestProblem(
      403,
      'forbidden_origin',
      origin ? `Enquiries are accepted only from the site's own pages, not from ${origin.slice(0, 200)}.` : 'A JSON enquiry must say its Origin.',
    );
}

function ownOrigins(request: FastifyRequest, route: EnquiryRoute): Set<string> {
  const host = request.headers.host;
  const forwarded = route.hops
    ? String(request.headers['x-forwarded-proto'] ?? '')
        .split(',')[0]!
        .trim()
    : '';
  const proto = forwarded === 'https' ? 'https' : 'http';
  return new Set([...route.origins, ...(host ? [`${proto}://${host}`] : [])]);
}

async function receive(request: FastifyRequest, reply: FastifyReply, route: EnquiryRoute): Promise<FastifyReply> {
  const kind = kindOf(request);
  const fields = (request.body ?? {}) as Record<string, unknown>;
  // One build for the whole request: its rules, its messages, its thank-you page.
  const build = route.site.current;
  const locale = answerLocale(fields, request, build.manifest);
  try {
    return await take(reply, route, build, kind, locale, fields);
  } catch (error) {
    // Refused once the body is read: answered in the language the enquiry names.
    if (!(error instanceof RequestProblem)) throw error;
    route.log({ kind: 'refused', status: error.status, code: error.code }, request);
    return refuse(request, reply, build.manifest, kind, locale, error);
  }
}

async function take(
  reply: FastifyReply,
  route: EnquiryRoute,
  build: SiteBuild,
  kind: BodyKind,
  locale: Locale,
  fields: Record<string, unknown>,
): Promise<FastifyReply> {
  const { log, outbox } = route;
  const { manifest } = build;
  const checked = checkEnquiry(fields, manifest, locale, route.minFillMs, kind);
  if (!checked.ok) return invalid(reply, route, build, kind, locale, checked.errors);
  // What the spam trap suspects is kept aside, never dropped: a person sent too fast (autofill)
  // or a form filler filled the hidden field. Stored like any enquiry, not e-mailed, listed by
  // `content enquiries list --spam`, and `content enquiries restore ID` takes it back.
  const spam = checked.bot ? checked.reason : undefined;
  const enquiry = checked.enquiry;
  const m = manifest.messages[locale];
  // Counted before it is stored (so that concurrent posts cannot pass the limit together), given back when it is not.
  const { max, windowMs } = route.rateLimit;
  const limits = max > 0 ? clientLimits(reply.request.ip || 'unknown', max) : [];
  const taken = await route.rateCounter.take(limits, windowMs);
  if (!taken.ok) throw new RequestProblem(429, 'rate_limited', m.errorRateLimited, { 'retry-after': String(Math.max(1, Math.ceil(taken.ttl / 1000))) });
  let stored: { enquiry: StoredEnquiry; duplicate: boolean };
  try {
    stored = await route.inbox.add({ ...enquiry, via: kind, notify: !!outbox && !spam, ...(spam ? { spam } : {}) });
  } catch (error) {
    await route.rateCounter.giveBack(limits, windowMs);
    if (error instanceof EnquiryConflict) throw new RequestProblem(409, 'idempotency_conflict', m.errorConflict ?? m.errorInvalid);
    log({ kind: 'error', error: `the inbox could not store an enquiry: ${(error as Error).message}` }, reply.request);
    throw new RequestProblem(503, 'storage_unavailable', withContacts(m.failure, m), { 'retry-after': '60' });
  }
  // The same enquiry sent again (its idempotency key) adds nothing to the inbox, so nothing to the count.
  if (stored.duplicate) await route.rateCounter.giveBack(limits, windowMs);
  if (spam) log({ kind: 'suspected', id: stored.enquiry.id, reason: spam, duplicate: stored.duplicate }, reply.request);
  else log({ kind: 'stored', id: stored.enquiry.id, duplicate: stored.duplicate }, reply.request);
  if (!stored.duplicate) outbox?.push(stored.enquiry);
  // The same enquiry sent again, this time beyond suspicion (a person who sent too fast, then once
  // more): the one kept aside is theirs, taken back and e-mailed like any other.
  else if (!spam && stored.enquiry.spam && outbox) await restoreSuspected(route, stored.enquiry.id, reply);
  return accepted(reply, build, kind, locale, stored);
}

async function restoreSuspected(route: EnquiryRoute, id: number, reply: FastifyReply): Promise<void> {
  try {
    if ((await route.inbox.restore(id)) === 'done') route.log({ kind: 'stored', id, duplicate: false }, reply.request);
  } catch (error) {
    // It is stored either way; the studio finds it with `content enquiries list --spam`.
    route.log(
      { kind: 'error', error: `enquiry ${id}, kept aside, was sent again unsuspected but could not be taken back: ${(error as Error).message}` },
      reply.request,
    );
  }
}

function accepted(reply: FastifyReply, build: SiteBuild, kind: BodyKind, locale: Locale, stored: { enquiry: StoredEnquiry; duplicate: boolean } | undefined) {
  if (kind === 'form') return reply.code(303).header('location', build.thanks[locale]).header('cache-control', 'no-store').send();
  const body = stored ? { ok: true, id: stored.enquiry.id, duplicate: stored.duplicate } : { ok: true };
  return json(reply, stored?.duplicate ? 200 : 201, body);
}

function invalid(reply: FastifyReply, route: EnquiryRoute, build: SiteBuild, kind: BodyKind, locale: Locale, errors: FieldError[]) {
  const m = build.manifest.messages[locale];
  const message = summaryText(errors.length, locale, m);
  route.log({ kind: 'refused', status: 422, code: 'invalid' }, reply.request);
  if (kind === 'json')
    return json(reply, 422, { ok: false, error: 'invalid', message, errors: Object.fromEntries(errors.map((e) => [e.field, e.message])), fields: errors });
  return invalidPage(reply, build.manifest, locale, errors);
}
