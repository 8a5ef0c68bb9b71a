import { type FocusEvent, type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FormView } from './props.ts';
import { postNatively, sendEnquiry } from './send.ts';
import { type Errors, emptyValues, FIELDS, type FieldName, type Values, validateAll, validateField } from './validate.ts';

export type Phase = 'idle' | 'sending' | 'sent' | 'failed' | 'rateLimited';

/** What gets the focus once a send is answered, so a screen reader announces the outcome. */
type FocusTarget = 'status' | 'alert' | FieldName;

/**
 * The enquiry form's state and what a visitor does to it: typing and leaving a field (inline
 * validation), and sending with fetch. The island only adds to the browser's own submit: where
 * it cannot send (a missing API, a script error, a request the network refused) it lets the
 * browser post the form itself (send.ts), and a failure keeps everything typed.
 */
export function useEnquiry(form: FormView) {
  const [values, setValues] = useState<Values>(() => emptyValues(form.selected));
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<Phase>('idle');
  const [showSummary, setShowSummary] = useState(false);
  const [focusTarget, setFocusTarget] = useState<{ target: FocusTarget } | null>(null);
  const sending = useRef(false);
  /** The idempotency key and the enquiry it was made for: a retry of the same text reuses it, a changed text gets a new one. */
  const key = useRef<{ key: string; for: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  // False on the server and during hydration, so both render the same markup.
  const [hydrated, setHydrated] = useState(false);
  useLayoutEffect(() => {
    // What the visitor typed or chose before the script arrived is in the fields, not in the
    // state the page was rendered with: take it over, so the controlled fields keep it.
    const typed = formRef.current ? readFields(formRef.current) : undefined;
    if (typed) setValues((v) => ({ ...v, ...typed }));
    setHydrated(true);
  }, []);
  useEffect(() => {
    if (!focusTarget) return;
    const { target } = focusTarget;
    const el =
      target === 'status' ? statusRef.current : target === 'alert' ? alertRef.current : formRef.current?.querySelector<HTMLElement>(`[name="${target}"]`);
    el?.focus();
  }, [focusTarget]);

  const set = (field: FieldName, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // Past a length limit the field says so at once: nothing typed is cut off, and nothing cut off without a word.
    const max = form.rules.maxLength[field as keyof FormView['rules']['maxLength']];
    if (errors[field] || (max && value.trim().length > max)) setErrors((e) => ({ ...e, [field]: validateField(field, { ...values, [field]: value }, form) }));
  };
  const blur = (field: FieldName, event: FocusEvent) => {
    // Leaving a field for the Send button: the submit checks every field at once. Showing this
    // field's error now would move the button under the pointer and lose the click.
    if ((event.relatedTarget as HTMLElement | null)?.getAttribute?.('type') === 'submit') return;
    if (values[field] || errors[field]) setErrors((e) => ({ ...e, [field]: validateField(field, values, form) }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    const element = event.currentTarget;
    // Without what sending needs, the island does nothing and the browser posts the form.
    if (typeof fetch !== 'function') return;
    event.preventDefault();
    if (sending.current) return;
    sending.current = true;
    send(element)
      .catch(() => postNatively(element))
      .finally(() => {
        sending.current = false;
      });
  };

  const send = async (element: HTMLFormElement) => {
    const found = validateAll(values, form);
    setErrors(found);
    const firstInvalid = FIELDS.find((f) => found[f]);
    if (firstInvalid) {
      setShowSummary(true);
      setFocusTarget({ target: firstInvalid });
      return;
    }
    setShowSummary(false);
    const text = JSON.stringify(values);
    if (key.current?.for !== text) key.current = { key: newKey(), for: text };
    setPhase('sending');
    const sameAs = { idempotencyKey: key.current.key, page: location.pathname };
    const outcome = await sendEnquiry(form.action, {
      ...values,
      locale: form.locale,
      ...sameAs,
      website: (element.elements.namedItem('website') as HTMLInputElement | null)?.value ?? '',
      // Counted from when the page was shown (the browser's time origin), not from when this
      // script arrived: a person on a slow phone may have filled in the form long before.
      fillMs: Math.round(performance.now()),
    });
    switch (outcome.kind) {
      case 'sent':
        // Emptied for a next enquiry, unless the visitor went on typing while it was sent: that text stays.
        setValues((v) => (JSON.stringify(v) === text ? emptyValues(form.selected) : v));
        key.current = null;
        setPhase('sent');
        setFocusTarget({ target: 'status' });
        return;
      case 'invalid': {
        setErrors(outcome.errors);
        setShowSummary(true);
        setPhase('idle');
        setFocusTarget({ target: FIELDS.find((f) => outcome.errors[f]) ?? 'name' });
        return;
      }
      case 'conflict':
        key.current = null;
        setPhase('failed');
        setFocusTarget({ target: 'alert' });
        return;
      case 'failed':
      case 'rateLimited':
        setPhase(outcome.kind);
        setFocusTarget({ target: 'alert' });
        return;
      case 'native':
        // The island's request may have reached the server before it failed: the same key lets
        // the server store the browser's post of the same text once, not twice.
        postNatively(element, sameAs);
    }
  };

  return { values, errors, phase, showSummary, hydrated, formRef, statusRef, alertRef, set, blur, submit };
}

/** The values in the form's own fields, as the visitor left them. */
function readFields(form: HTMLFormElement): Partial<Values> {
  const typed: Partial<Values> = {};
  for (const f of FIELDS) {
    const el = form.elements.namedItem(f) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null;
    if (el && typeof el.value === 'string') typed[f] = el.value;
  }
  return typed;
}

/**
 * A random key for one enquiry, so that a retry is stored once. crypto.randomUUID exists only
 * in secure contexts (not on a plain-http address in a LAN) and in newer browsers;
 * crypto.getRandomValues everywhere the island runs.
 */
function newKey(): string {
  const bytes = new Uint8Array(16);
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
