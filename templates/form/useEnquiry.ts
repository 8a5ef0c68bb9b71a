import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { FormView } from './props.ts';
import { type Errors, FIELDS, type FieldName, type Values, validateAll, validateField } from './validate.ts';

export type Phase = 'idle' | 'sending' | 'sent' | 'failed';
type Outcome = { kind: 'sent' } | { kind: 'invalid'; errors: Errors } | { kind: 'failed' };

const EMPTY: Values = { name: '', course: '', message: '', email: '' };

/**
 * The enquiry form's state and what a visitor does to it: typing and leaving a field (inline
 * validation), and sending with fetch, where a failure keeps everything typed.
 */
export function useEnquiry(form: FormView) {
  const initial = (): Values => ({ ...EMPTY, course: form.selected ?? '' });
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<Phase>('idle');
  const [showSummary, setShowSummary] = useState(false);
  const key = useRef<string | null>(null);
  // When the form became usable: a person needs a few seconds from here to send it, a bot does not.
  const shownAt = useRef<number>(0);
  const formRef = useRef<HTMLFormElement>(null);
  // False on the server and during hydration, so both render the same markup.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    shownAt.current = performance.now();
    setHydrated(true);
  }, []);

  const set = (field: FieldName, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: validateField(field, { ...values, [field]: value }, form) }));
  };
  const blur = (field: FieldName) => {
    if (values[field] || errors[field]) setErrors((e) => ({ ...e, [field]: validateField(field, values, form) }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateAll(values, form);
    setErrors(found);
    const firstInvalid = FIELDS.find((f) => found[f]);
    if (firstInvalid) {
      setShowSummary(true);
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    setShowSummary(false);
    key.current ??= crypto.randomUUID().replaceAll('-', '');
    setPhase('sending');
    const outcome = await send(form.action, {
      ...values,
      locale: form.locale,
      page: location.pathname,
      idempotencyKey: key.current,
      website: (formRef.current?.elements.namedItem('website') as HTMLInputElement | null)?.value ?? '',
      fillMs: Math.round(performance.now() - shownAt.current),
    });
    if (outcome.kind === 'sent') {
      setValues(initial());
      key.current = null;
      shownAt.current = performance.now();
    } else if (outcome.kind === 'invalid') {
      setErrors(outcome.errors);
      setShowSummary(true);
    }
    setPhase(outcome.kind === 'invalid' ? 'idle' : outcome.kind);
  };

  return { values, errors, phase, showSummary, hydrated, formRef, set, blur, submit };
}

/** Posts an enquiry as JSON: sent, refused with the server's own field errors, or failed (anything else). */
async function send(action: string, enquiry: Record<string, unknown>): Promise<Outcome> {
  try {
    const response = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(enquiry),
    });
    if (response.ok) return { kind: 'sent' };
    if (response.status === 422) {
      const body = (await response.json().catch(() => ({}))) as { errors?: Errors };
      if (body.errors) return { kind: 'invalid', errors: body.errors };
    }
    return { kind: 'failed' };
  } catch {
    return { kind: 'failed' };
  }
}
