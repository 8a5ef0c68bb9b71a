import type { Errors } from './validate.ts';

/**
 * What became of an enquiry the island sent: stored; refused with the server's own field
 * errors; refused for a key used before with another text; too many from this visitor; failed
 * on the server's side (the visitor can try again, everything typed is kept); or not sent by
 * the island at all, so the browser must post the form itself (`native`).
 */
export type Outcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; errors: Errors }
  | { kind: 'conflict' }
  | { kind: 'rateLimited' }
  | { kind: 'failed' }
  | { kind: 'native' };

/** Posts an enquiry as JSON and says what became of it; never throws. */
export async function sendEnquiry(action: string, enquiry: Record<string, unknown>): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(enquiry),
      credentials: 'same-origin',
    });
  } catch {
    // The request did not get through. Offline, the browser's own post would fail as well and
    // take the visitor away from the form: stay, keep the text, offer to try again. Online,
    // something refused the island's request (a filter, a proxy): the browser's post may pass.
    return typeof navigator !== 'undefined' && navigator.onLine === false ? { kind: 'failed' } : { kind: 'native' };
  }
  if (response.ok) return { kind: 'sent' };
  if (response.status === 422) {
    const body = (await response.json().catch(() => ({}))) as { errors?: Errors };
    return body.errors && typeof body.errors === 'object' ? { kind: 'invalid', errors: body.errors } : { kind: 'failed' };
  }
  if (response.status === 409) return { kind: 'conflict' };
  if (response.status === 429) return { kind: 'rateLimited' };
  // The server could not store it (5xx): the browser's post would meet the same.
  if (response.status >= 500) return { kind: 'failed' };
  // Any other refusal means the island's request is not what this server takes (an older
  // script, a proxy in between): the plain form is what every server of the site accepts.
  return { kind: 'native' };
}

/**
 * The browser's own submit of the form, with what is in its fields: what the page does without
 * JavaScript. `submit()` of the prototype, in case a field is named `submit`; it skips the
 * submit event, so the island does not catch it again. `sameAs` makes the post the same enquiry
 * as the island's request (its key and page): if that request did reach the server, it is stored once.
 */
export function postNatively(form: HTMLFormElement, sameAs?: { idempotencyKey: string; page: string }): void {
  for (const [name, value] of Object.entries(sameAs ?? {})) {
    let field = form.elements.namedItem(name) as HTMLInputElement | null;
    if (!field) {
      field = document.createElement('input');
      field.type = 'hidden';
      field.name = name;
      form.appendChild(field);
    }
    field.value = value;
  }
  HTMLFormElement.prototype.submit.call(form);
}
