import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { Locale } from '../../templates/model.ts';
import { Enquiry } from '../schema/enquiry.ts';
import type { EnquiryManifest, ServerMessages } from './manifest.ts';

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

/** Reads at most MAX_BODY_BYTES; a longer body is a 413 (told by Content-Length up front, or when it overflows). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const tooLarge = () => new RequestProblem(413, 'too_large', `An enquiry may be at most ${MAX_BODY_BYTES / 1024} KB.`);
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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
    const fields: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      const seen = fields[k];
      fields[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
    }
    return fields;
  }
  if (!text.trim()) throw new RequestProblem(400, 'empty_body', 'The request body is empty; an enquiry is a JSON object.');
  let value: unknown;
  try {
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
  return value as Record<string, unknown>;
}

export interface FieldError {
  field: string;
  code: 'required' | 'too_long' | 'invalid_email' | 'unknown_option' | 'invalid' | 'unknown_field';
  message: string;
}

export type Checked =
  | { ok: true; enquiry: Enquiry; bot: false }
  | { ok: true; bot: true; reason: 'honeypot' | 'too_fast' }
  | { ok: false; errors: FieldError[] };

/**
 * The enquiry's own rules (the zod shape the form's rules come from), the course options of
 * the built form, and the bot checks: a filled honeypot, or a form sent sooner after the
 * page loaded than a person can fill it in.
 */
export function checkEnquiry(fields: Record<string, unknown>, manifest: EnquiryManifest, locale: Locale, minFillMs: number): Checked {
  const m = manifest.messages[locale];
  const rest: Record<string, unknown> = { ...fields };
  for (const f of [...BOT_FIELDS, ...IGNORED_FIELDS]) delete rest[f];
  const errors: FieldError[] = [];
  for (const [k, v] of Object.entries(fields))
    if (Array.isArray(v) && !(BOT_FIELDS as readonly string[]).includes(k)) {
      errors.push({ field: k, code: 'invalid', message: m.errorInvalid });
      delete rest[k];
    }
  const parsed = Enquiry.safeParse(rest);
  if (!parsed.success) errors.push(...parsed.error.issues.flatMap((issue) => fieldErrors(issue, rest, m)));
  const course = rest.course;
  if (typeof course === 'string' && course && !manifest.options.some((o) => o.value === course))
    errors.push({ field: 'course', code: 'unknown_option', message: m.errorCourse });
  if (errors.length) return { ok: false, errors: dedupe(errors) };

  const honeypot = fields.website;
  if (honeypot !== undefined && honeypot !== '') return { ok: true, bot: true, reason: 'honeypot' };
  const fillMs = typeof fields.fillMs === 'number' ? fields.fillMs : typeof fields.fillMs === 'string' ? Number(fields.fillMs) : undefined;
  if (fillMs !== undefined && Number.isFinite(fillMs) && fillMs < minFillMs) return { ok: true, bot: true, reason: 'too_fast' };
  return { ok: true, bot: false, enquiry: parsed.data! };
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
  return [{ field, code: 'invalid', message: m.errorInvalid }];
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.field) && seen.add(e.field));
}

/** The language to answer in: the one the enquiry names, else the browser's, else the default. */
export function answerLocale(fields: Record<string, unknown> | undefined, req: IncomingMessage, manifest: EnquiryManifest): Locale {
  const named = fields?.locale;
  if (typeof named === 'string' && (manifest.locales as string[]).includes(named)) return named as Locale;
  for (const part of String(req.headers['accept-language'] ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().slice(0, 2).toLowerCase();
    if ((manifest.locales as string[]).includes(tag)) return tag as Locale;
  }
  return manifest.defaultLocale;
}

export function summaryText(count: number, locale: Locale, m: ServerMessages): string {
  const rule = new Intl.PluralRules(locale).select(count);
  return (m.errorSummary[rule] ?? m.errorSummary.other).replace('{{count}}', String(count));
}
