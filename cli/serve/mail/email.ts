import { DEFAULT_LOCALE } from '../../locales.ts';
import { FORM_FIELDS, type FormFieldName } from '../../schema/enquiry-rules.ts';
import { escapeHtml } from '../../util/escape.ts';
import type { EnquiryManifest } from '../manifest.ts';
import type { StoredEnquiry } from '../store/store.ts';

/**
 * One line: a line break (CR, LF, NEL, U+2028/2029, vertical tab, form feed) or other control
 * character a visitor typed in a single-line field becomes a space, so it cannot start a
 * header-like line ("Bcc: …") in the text part or a header in the subject.
 */
export const oneLine = (s: string) => s.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();

/** One line for a header, shortened. */
const headerText = (s: string, max = 80) => {
  const t = oneLine(s);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

export interface Notification {
  subject: string;
  text: string;
  html: string;
  replyTo: string;
  /**
   * The same for every sending of one enquiry's e-mail. Sending is at least once: a crash after
   * the SMTP server took the e-mail but before it was recorded as sent sends it again after the
   * restart, and mail programs recognise the copy by this header (Gmail keeps one).
   */
  messageId: string;
}

/** `<enquiry-ID.RECEIVED_MS@SITE_HOST>`: the time keeps it apart from an enquiry of another inbox with the same number. */
function messageIdOf(e: StoredEnquiry, baseUrl: string): string {
  let host = 'studio-site.invalid';
  try {
    host = new URL(baseUrl).hostname || host;
  } catch {
    // a manifest without a usable address: the id stays unique through the number and the time
  }
  return `<enquiry-${e.id}.${Date.parse(e.receivedAt)}@${host}>`;
}

/** What the studio calls each field of the form, in its language (a field without one does not compile). */
const FIELD_LABELS: Record<FormFieldName, string> = { name: 'Имя', course: 'Курс', message: 'Сообщение', email: 'E-mail', phone: 'Телефон' };

/**
 * The e-mail the studio gets for an enquiry, in Russian (the studio's language) with the
 * visitor's language named. Everything the visitor typed is escaped in the HTML part and
 * flattened to one line in the subject; the visitor's address is only a Reply-To.
 */
export function notification(e: StoredEnquiry, manifest: EnquiryManifest): Notification {
  const course = manifest.options.find((o) => o.value === e.course)?.label ?? e.course;
  const subject = `${manifest.notify?.subject[DEFAULT_LOCALE] ?? 'Enquiry'}: ${headerText(e.name, 60)} — ${headerText(course, 60)}`;
  // The fields the visitor filled in, in the form's order; the message, long, comes below them.
  const filledIn = FORM_FIELDS.filter((f) => f.name !== 'message').map((f): [string, string] => [
    FIELD_LABELS[f.name],
    f.name === 'course' ? course : (e[f.name] ?? '—'),
  ]);
  const rows: [string, string][] = [['Заявка', `№ ${e.id}`], ['Получена', e.receivedAt], ...filledIn, ['Язык сайта', e.locale], ['Страница', e.page ?? '']];
  const text = `${rows.map(([k, v]) => `${k}: ${oneLine(v)}`).join('\n')}\n\n${FIELD_LABELS.message}:\n${e.message || '—'}\n`;
  const html = [
    '<!doctype html><html lang="ru"><body>',
    '<table>',
    ...rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`),
    '</table>',
    `<p><b>${FIELD_LABELS.message}:</b></p><p style="white-space:pre-wrap">${escapeHtml(e.message || '—')}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html, replyTo: e.email, messageId: messageIdOf(e, manifest.baseUrl) };
}
