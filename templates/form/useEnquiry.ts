import { type Dispatch, type FocusEvent, type FormEvent, type RefObject, type SetStateAction, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FormView } from './props.ts';
import { type Outcome, postNatively, sendEnquiry } from './send.ts';
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
  const { formRef, statusRef, alertRef, focus } = useFocusTarget();
  const hydrated = useTypedBeforeHydration(formRef, setValues);
  const sending = useRef(false);
  /** The idempotency key and the enquiry it was made for: a retry of the same text reuses it, a changed text gets a new one. */
  const key = useRef<{ key: string; for: string } | null>(null);

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
      focus(firstInvalid);
      return;
    }
    setShowSummary(false);
    const text = JSON.stringify(values);
    if (key.current?.for !== text) key.current = { key: newKey(), for: text };
    setPhase('sending');
    const sameAs = { idempotencyKey: key.current.key, page: location.pathname };
    const outcome = await sendEnquiry(form.action, enquiryBody(values, form, element, sameAs));
    const forgetKey = () => {
      key.current = null;
    };
    showOutcome(outcome, { setValues, setErrors, setShowSummary, setPhase, focus, forgetKey, emptied: () => emptyValues(form.selected), text });
    // The island's request may have reached the server before it failed: the same key lets
    // the server store the browser's post of the same text once, not twice.
    if (outcome.kind === 'native') postNatively(element, sameAs);
  };

  return { values, errors, phase, showSummary, hydrated, formRef, statusRef, alertRef, set, blur, submit };
}

/** The form's, the status line's and the alert's elements, and `focus`, which moves the focus to one of them once rendered. */
function useFocusTarget() {
  const [focusTarget, setFocusTarget] = useState<{ target: FocusTarget } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focusTarget) return;
    const { target } = focusTarget;
    const el =
      target === 'status' ? statusRef.current : target === 'alert' ? alertRef.current : formRef.current?.querySelector<HTMLElement>(`[name="${target}"]`);
    el?.focus();
  }, [focusTarget]);
  return { formRef, statusRef, alertRef, focus: (target: FocusTarget) => setFocusTarget({ target }) };
}

/** False on the server and during hydration, so both render the same markup; true after it. */
function useTypedBeforeHydration(formRef: RefObject<HTMLFormElement | null>, setValues: Dispatch<SetStateAction<Values>>): boolean {
  const [hydrated, setHydrated] = useState(false);
  useLayoutEffect(() => {
    // What the visitor typed or chose before the script arrived is in the fields, not in the
    // state the page was rendered with: take it over, so the controlled fields keep it.
    const typed = formRef.current ? readFields(formRef.current) : undefined;
    if (typed) setValues((v) => ({ ...v, ...typed }));
    setHydrated(true);
    // Both are the same objects at every render (a ref, a state setter): this runs once, at hydration.
  }, [formRef, setValues]);
  return hydrated;
}

/** What the island sends: the fields, the locale, the same-enquiry key and page, the honeypot and how long the page was shown. */
function enquiryBody(values: Values, form: FormView, element: HTMLFormElement, sameAs: { idempotencyKey: string; page: string }): Record<string, unknown> {
  return {
    ...values,
    locale: form.locale,
    ...sameAs,
    website: (element.elements.namedItem('website') as HTMLInputElement | null)?.value ?? '',
    // Counted from when the page was shown (the browser's time origin), not from when this
    // script arrived: a person on a slow phone may have filled in the form long before.
    fillMs: Math.round(performance.now()),
  };
}

/** What the form does with each answer of the server; `text`: the values sent, as JSON. */
function showOutcome(
  outcome: Outcome,
  to: {
    setValues: Dispatch<SetStateAction<Values>>;
    setErrors: (errors: Errors) => void;
    setShowSummary: (shown: boolean) => void;
    setPhase: (phase: Phase) => void;
    focus: (target: FocusTarget) => void;
    forgetKey: () => void;
    emptied: () => Values;
    text: string;
  },
): void {
  switch (outcome.kind) {
    case 'sent':
      // Emptied for a next enquiry, unless the visitor went on typing while it was sent: that text stays.
      to.setValues((v) => (JSON.stringify(v) === to.text ? to.emptied() : v));
      to.forgetKey();
      to.setPhase('sent');
      to.focus('status');
      return;
    case 'invalid':
      to.setErrors(outcome.errors);
      to.setShowSummary(true);
      to.setPhase('idle');
      to.focus(FIELDS.find((f) => outcome.errors[f]) ?? 'name');
      return;
    case 'conflict':
      to.forgetKey();
      to.setPhase('failed');
      to.focus('alert');
      return;
    case 'failed':
    case 'rateLimited':
      to.setPhase(outcome.kind);
      to.focus('alert');
      return;
    case 'native':
      return;
  }
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
