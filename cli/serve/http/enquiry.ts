import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { Locale } from '../../../templates/model.ts';
import { Enquiry } from '../../schema/enquiry.ts';
import type { EnquiryManifest, ServerMessages } from '../manifest.ts';

/** The largest request body accepted at the enquiry endpoint. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Fields a request may carry that are not part of the enquiry itself. */
const BOT_FIELDS = ['website', 'fillMs'] as const;
/** The plain form's hidden thank-you address: the server redirects by locale instead. */
const IGNORED_FIELDS = ['thanks'] as const;

export type BodyKind = 'json' | 'form';

/** A request the endpoint refuses before looking at the enquiry. */
export class RequestProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** `application/json` or `application/x-www-form-urlencoded`, in UTF-8; anything else is a 415. */
export function bodyKind(contentType: string | undefined): BodyKind {
  const [type = '', ...params] = (contentType ?? '').split(';').map((s) => s.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  const accepted = 'application/json, application/x-www-form-urlencoded';
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    throw new RequestProblem(415, 'unsupported_charset', `Only UTF-8 is accepted, not ${charset}.`, { 'accept-post': accepted });
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  throw new RequestProblem(415, 'unsupported_media_type', `An enquiry is sent as ${accepted}${type ? `, not ${type}` : '; the request has no Content-Type'}.`, {
    'accept-post': accepted,
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The fields of a body: a JSON object, or form fields (a repeated field is kept as a list, and refused later). */
export function parseBody(kind: BodyKind, body: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new RequestProblem(400, 'invalid_utf8', 'The request body is not valid UTF-8.');
  }
  if (kind === 'form') {
    // Without a prototype: a field named __proto__, constructor or toString is a field like any other.
    const fields: Record<string, unknown> = Object.create(null);
    for (const [k, v] of new URLSearchParams(text)) {
      const seen = Object.hasOwn(fields, k) ? fields[k] : undefined;
      fields[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
    }
    return fields;
  }
  if (!text.trim()) throw new RequestProblem(400, 'empty_body', 'The request body is empty; an enquiry is a JSON object.');
  let value: unknown;
  try {
    // JSON.parse makes "__proto__" an own property, never the prototype; it is then an unknown field.
    value = JSON.parse(text);
  } catch (error) {
    throw new RequestProblem(400, 'invalid_json', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RequestProblem(
      400,
      'not_an_object',
      `An enquiry is a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}.`,
    );
  return Object.assign(Object.create(null), value) as Record<string, unknown>;
}

export interface FieldError {
  field: string;
  code: 'required' | 'too_long' | 'invalid_email' | 'invalid_phone' | 'unknown_option' | 'invalid' | 'unknown_field';
  message: string;
}

export type Checked =
  | { ok: true; enquiry: Enquiry; bot: false }
  /** Suspected of coming from a bot; `enquiry` is what it says, for keeping it aside rather than dropping it. */
  | { ok: true; bot: true; reason: 'honeypot' | 'too_fast'; enquiry: Enquiry }
  | { ok: false; errors: FieldError[] };

/**
 * The enquiry's own rules (the zod shape the form's rules come from), the course options of
 * the built form, and the bot checks: a filled honeypot, or a form sent sooner after the
 * page loaded than a person can fill it in.
 */
export function checkEnquiry(fields: Record<string, unknown>, manifest: EnquiryManifest, locale: Locale, minFillMs: number, kind: BodyKind = 'json'): Checked {
  const m = manifest.messages[locale];
  const rest: Record<string, unknown> = { ...fields };
  for (const f of [...BOT_FIELDS, ...IGNORED_FIELDS]) delete rest[f];
  const errors: FieldError[] = [];
  for (const [k, v] of Object.entries(fields))
    if (Array.isArray(v) && !(BOT_FIELDS as readonly string[]).includes(k)) {
      errors.push({ field: k, code: 'invalid', message: m.errorInvalid });
      delete rest[k];
    }
  errors.push(...unstorable(rest, m));
  const parsed = Enquiry.safeParse(rest);
  if (!parsed.success) errors.push(...parsed.error.issues.flatMap((issue) => fieldErrors(issue, rest, m)));
  const course = rest.course;
  if (typeof course === 'string' && course && !manifest.options.some((o) => o.value === course))
    errors.push({ field: 'course', code: 'unknown_option', message: m.errorCourse });
  if (errors.length) return { ok: false, errors: dedupe(errors) };

  const honeypot = fields.website;
  if (honeypot !== undefined && honeypot !== '') return { ok: true, bot: true, reason: 'honeypot', enquiry: parsed.data! };
  const fillMs = fillTime(fields.fillMs, kind);
  if (fillMs !== undefined && fillMs < minFillMs) return { ok: true, bot: true, reason: 'too_fast', enquiry: parsed.data! };
  return { ok: true, bot: false, enquiry: parsed.data! };
}

/** The longest time a form may plausibly stay open before it is sent (a year); more is not a measurement. */
export const MAX_FILL_MS = 365 * 24 * 3600 * 1000;

/**
 * How long the form was on screen before it was sent, in milliseconds: the site's script counts
 * from when the browser began to show the page (`performance.now()`, from the page's time
 * origin), never from when the script itself arrived, so a person on a slow connection who
 * filled in the form before it hydrated, or whose browser filled it in, is not taken for a bot
 * (issue #24). The site's script always
 * sends it with a JSON enquiry, so a JSON enquiry without a plausible one (missing, not a
 * number, negative, infinite, over a year) is refused: the minimum-fill-time check cannot be
 * dodged by leaving it out. The form without JavaScript cannot measure anything (its page is
 * the same static file for every visitor, so it cannot carry a per-visitor start time either):
 * it is undefined there, and such a post relies on the honeypot, the Origin check and the rate
 * limit. A form post that does carry a fill time is held to the same rule as JSON.
 */
export function fillTime(value: unknown, kind: BodyKind): number | undefined {
  if (value === undefined && kind === 'form') return undefined;
  const n = typeof value === 'number' ? value : kind === 'form' && typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isFinite(n) && n >= 0 && n <= MAX_FILL_MS) return n;
  const found = value === undefined ? 'it is missing' : `not ${JSON.stringify(value)?.slice(0, 40) ?? typeof value}`;
  throw new RequestProblem(
    400,
    'invalid_fill_time',
    `An enquiry must say how long its form was open: fillMs, a number of milliseconds from 0 to ${MAX_FILL_MS} (${found}).`,
  );
}

/**
 * A NUL character (U+0000) in any field: PostgreSQL's text cannot hold it, and no person types
 * one into a form, so it is refused as input (422, naming the field) by both stores alike,
 * rather than stored escaped: an escape would change what the visitor sent without anyone seeing it.
 */
function unstorable(fields: Record<string, unknown>, m: ServerMessages): FieldError[] {
  return Object.entries(fields)
    .filter(([, v]) => typeof v === 'string' && v.includes('\u0000'))
    .map(([field]) => ({ field, code: 'invalid', message: m.errorUnstorable ?? m.errorInvalid }));
}

function fieldErrors(issue: z.core.$ZodIssue, input: Record<string, unknown>, m: ServerMessages): FieldError[] {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => ({ field: k, code: 'unknown_field', message: m.errorInvalid }));
  const field = String(issue.path[0] ?? '');
  const value = input[field];
  const blank = value === undefined || value === null || (typeof value === 'string' && !value.trim());
  if (blank && typeof value !== 'number') return [{ field, code: 'required', message: field === 'course' ? m.errorCourse : m.errorRequired }];
  if (issue.code === 'too_big' && typeof value === 'string')
    return [{ field, code: 'too_long', message: m.errorTooLong.replace('{{max}}', String(issue.maximum)) }];
  if (field === 'email' && typeof value === 'string') return [{ field, code: 'invalid_email', message: m.errorEmail }];
  if (field === 'phone' && typeof value === 'string') return [{ field, code: 'invalid_phone', message: m.errorPhone ?? m.errorInvalid }];
  return [{ field, code: 'invalid', message: m.errorInvalid }];
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.field) && seen.add(e.field));
}

/** The language to answer in: the one the enquiry names, else the browser's first choice we have, else the default. */
export function answerLocale(fields: Record<string, unknown> | undefined, req: { headers: IncomingHttpHeaders }, manifest: EnquiryManifest): Locale {
  const named = fields?.locale;
  if (typeof named === 'string' && (manifest.locales as string[]).includes(named)) return named as Locale;
  return acceptedLocale(String(req.headers['accept-language'] ?? ''), manifest.locales as Locale[]) ?? manifest.defaultLocale;
}

/**
 * The first of `locales` an Accept-Language header asks for (RFC 9110, 12.5.4): by weight, the
 * order given among equal weights, never a language weighted `q=0` ("not this one"), and by its
 * whole primary tag (`de-AT` is German; `english` or `dek` is no language of ours).
 */
export function acceptedLocale(header: string, locales: readonly Locale[]): Locale | undefined {
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [range = '', ...params] = part.split(';').map((p) => p.trim());
      const q = params.find((p) => /^q=/i.test(p));
      const weight = q === undefined ? 1 : /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i.test(q) ? Number(q.slice(2)) : 0;
      return { primary: range.toLowerCase().split('-')[0]!, weight, order };
    })
    .filter((r) => r.weight > 0 && r.primary)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const r of ranges) if ((locales as string[]).includes(r.primary)) return r.primary as Locale;
  return undefined;
}

export function summaryText(count: number, locale: Locale, m: ServerMessages): string {
  const rule = new Intl.PluralRules(locale).select(count);
  return (m.errorSummary[rule] ?? m.errorSummary.other).replace('{{count}}', String(count));
}
