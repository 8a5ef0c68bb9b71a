import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../templates/model.ts';
import { escapeHtml } from '../util/escape.ts';
import { type BodyKind, bodyKind, MAX_BODY_BYTES, RequestProblem } from './enquiry.ts';
import type { EnquiryManifest, ServerMessages } from './manifest.ts';

/** How the server answers: JSON to the site's script, a small page to a plain form post, plain text elsewhere. */

export const TEXT = 'text/plain; charset=utf-8';

export function json(reply: FastifyReply, status: number, body: unknown) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`${JSON.stringify(body)}\n`);
}

/** JSON enquiries and plain form posts are answered differently; a body of another kind is answered as JSON. */
export function kindOf(request: FastifyRequest): BodyKind {
  try {
    return bodyKind(request.headers['content-type']);
  } catch {
    return 'json';
  }
}

/** The visitor-facing failure text with the studio's phone and e-mail, so they can reach the studio another way. */
export function withContacts(text: string, m: ServerMessages): string {
  const contacts = [m.contacts.phone, m.contacts.email].filter(Boolean).join(' · ');
  return contacts ? `${text} ${contacts}` : text.replace(/[:：]\s*$/, '.');
}

/** A refusal we meant (ours, or one of fastify's for a request it could not take), or undefined for a bug. */
export function asProblem(error: unknown): RequestProblem | undefined {
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

/** A refused request, in the visitor's language: a page for a form post the visitor can act on, JSON otherwise. */
export function refuse(request: FastifyRequest, reply: FastifyReply, manifest: EnquiryManifest, kind: BodyKind, locale: Locale, problem: RequestProblem) {
  for (const [k, v] of Object.entries(problem.headers)) reply.header(k, v);
  if (problem.status === 413) {
    // Do not read the rest of an oversized body; close once the answer is out.
    reply.header('connection', 'close');
    reply.raw.once('finish', () => request.raw.destroy());
  }
  const m = manifest.messages[locale];
  if (kind === 'form' && [409, 429, 503].includes(problem.status)) {
    const contacts = [m.contacts.phone, m.contacts.email].filter(Boolean).map(escapeHtml).join(' · ');
    return answerPage(reply, manifest, problem.status, locale, problem.message, contacts && problem.status !== 503 ? `<p>${contacts}</p>` : '');
  }
  const extra = problem.status === 503 ? { contacts: m.contacts } : {};
  return json(reply, problem.status, { ok: false, error: problem.code, message: problem.message, ...extra });
}

/**
 * A page of the site for a plain form post (without the site's script): its stylesheet, a header
 * leading home, the answer, and a link back to the form the visitor came from, all in the
 * visitor's language. In an in-app browser (WhatsApp, Telegram) that link is the only way back.
 */
export function answerPage(reply: FastifyReply, manifest: EnquiryManifest, status: number, locale: Locale, title: string, body: string) {
  const m = manifest.messages[locale];
  const home = locale === manifest.defaultLocale ? '/' : `/${locale}`;
  const css = manifest.stylesheet ? `<link rel="stylesheet" type="text/css" href="${escapeHtml(manifest.stylesheet)}">` : '';
  const back = `${formPage(reply.request, home)}#enquiry`;
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)} · ${escapeHtml(manifest.siteName)}</title>${css}</head><body>` +
    `<header class="site-header"><div class="wrap header-row"><a class="brand" href="${escapeHtml(home)}">${escapeHtml(manifest.siteName)}</a></div></header>` +
    `<main id="app" class="wrap"><h1>${escapeHtml(title)}</h1>${body}` +
    `<p><a class="button" href="${escapeHtml(back)}">${escapeHtml(m.backToForm ?? '←')}</a></p></main></body></html>\n`;
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/**
 * The page the form was sent from: the path of a Referer of this very host (a page of the site,
 * never the endpoint), or else the home page of the visitor's language, which has the form too.
 */
function formPage(request: FastifyRequest, home: string): string {
  const referer = request.headers.referer;
  const host = request.headers.host;
  if (typeof referer !== 'string' || !host || referer.length > 2000) return home;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return home;
  }
  const page = url.pathname;
  const ownPage = url.host === host && /^\/(?!\/)[^\s]*$/.test(page) && !page.startsWith('/api/') && !/[\\<>"']/.test(page);
  return ownPage ? page : home;
}
