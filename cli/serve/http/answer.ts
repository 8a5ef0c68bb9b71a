import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../../templates/model.ts';
import { ENQUIRY_RULES, FORM_FIELDS } from '../../schema/enquiry-rules.ts';
import { escapeHtml } from '../../util/escape.ts';
import type { EnquiryManifest, ServerMessages } from '../manifest.ts';
import { type BodyKind, bodyKind, type FieldError, MAX_BODY_BYTES, RequestProblem, summaryText } from './enquiry.ts';

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

/**
 * A plain form post the server refused: what is wrong, and the form again with everything the
 * visitor sent in it, each error beside its field, so nothing typed is lost even where the
 * browser's Back button is hard to find (an in-app browser). It posts as the site's form does.
 */
export function invalidPage(reply: FastifyReply, manifest: EnquiryManifest, locale: Locale, errors: FieldError[]) {
  const m = manifest.messages[locale];
  const sent = (reply.request.body ?? {}) as Record<string, unknown>;
  const value = (name: string) => (typeof sent[name] === 'string' ? (sent[name] as string) : '');
  const label = (f: string) => (Object.hasOwn(m.fields, f) ? ((m.fields as Record<string, string>)[f] ?? f) : f);
  const errorOf = (f: string) => errors.find((e) => e.field === f)?.message;
  const items = errors.map((e) => `<li><b>${escapeHtml(label(e.field))}</b>: ${escapeHtml(e.message)}</li>`).join('');
  if (!m.submit) return answerPage(reply, manifest, 422, locale, summaryText(errors.length, locale, m), `<p>${escapeHtml(m.errorBack)}</p><ul>${items}</ul>`);
  // The fields of the site's form (FORM_FIELDS), those of the build it was made with (a field newer than the build has no label there).
  const fields = FORM_FIELDS.filter((f) => Object.hasOwn(m.fields, f.name))
    .map((f) => {
      const required = (ENQUIRY_RULES.required as readonly string[]).includes(f.name);
      const id = `again-${f.name}`;
      const error = errorOf(f.name);
      const attrs = `id="${id}" name="${f.name}"${required ? ' required' : ''}${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}`;
      let control: string;
      if (f.control === 'select') {
        const chosen = value(f.name);
        const options = manifest.options
          .map((o) => `<option value="${escapeHtml(o.value)}"${o.value === chosen ? ' selected' : ''}>${escapeHtml(o.labels?.[locale] ?? o.label)}</option>`)
          .join('');
        control = `<select ${attrs}><option value="">${escapeHtml(m.coursePlaceholder ?? '')}</option>${options}</select>`;
      } else if (f.control === 'textarea') control = `<textarea ${attrs} rows="4">${escapeHtml(value(f.name))}</textarea>`;
      else control = `<input ${attrs} type="${f.type}" autocomplete="${f.autocomplete}" value="${escapeHtml(value(f.name))}">`;
      const marker = required ? '<span class="required" aria-hidden="true"> *</span>' : '';
      const foot = `<div class="field-foot"><p class="field-error" id="${id}-error">${error ? escapeHtml(error) : ''}</p></div>`;
      return `<div class="field${error ? ' has-error' : ''}"><label for="${id}">${escapeHtml(label(f.name))}${marker}</label>${control}${foot}</div>`;
    })
    .join('');
  const hidden =
    '<div class="hp" aria-hidden="true"><label for="again-website">Website</label><input id="again-website" name="website" type="text" tabindex="-1" autocomplete="off" value=""></div>' +
    `<input type="hidden" name="locale" value="${escapeHtml(locale)}"><input type="hidden" name="thanks" value="${escapeHtml(manifest.thanks[locale])}">`;
  const form = `<section class="enquiry"><form method="post" action="${escapeHtml(manifest.endpoint)}">${fields}${hidden}<button type="submit" class="button">${escapeHtml(m.submit)}</button></form></section>`;
  return answerPage(reply, manifest, 422, locale, summaryText(errors.length, locale, m), `<p>${escapeHtml(m.errorBack)}</p><ul>${items}</ul>${form}`);
}
