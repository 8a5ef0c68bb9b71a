import { type FocusEvent, type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { Text } from '../model.ts';
import type { FormView } from './props.ts';
import { type Errors, type Field, summary, type Values, validateAll, validateField } from './validate.ts';

type Phase = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed' };

const L = ({ value }: { value: Text }) => <span lang={value.lang}>{value.text}</span>;
const EMPTY: Values = { name: '', course: '', message: '', email: '' };

/**
 * The enquiry form. Rendered to HTML at build time (a plain form that posts without
 * JavaScript), then hydrated by island.tsx: inline validation, sending with fetch, and a
 * failure that keeps everything typed.
 */
export function EnquiryForm(form: FormView) {
  const { labels, contacts } = form;
  const [values, setValues] = useState<Values>({ ...EMPTY, course: form.selected ?? '' });
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
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

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: validateField(field, { ...values, [field]: value }, form) }));
  };
  const blur = (field: Field) => (_: FocusEvent) => {
    if (values[field] || errors[field]) setErrors((e) => ({ ...e, [field]: validateField(field, values, form) }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateAll(values, form);
    setErrors(found);
    const invalid = (['name', 'course', 'message', 'email'] as Field[]).filter((f) => found[f]);
    if (invalid.length) {
      setShowSummary(true);
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid[0]}"]`)?.focus();
      return;
    }
    setShowSummary(false);
    key.current ??= crypto.randomUUID().replaceAll('-', '');
    setPhase({ kind: 'sending' });
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          ...values,
          locale: form.locale,
          page: location.pathname,
          idempotencyKey: key.current,
          website: (formRef.current?.elements.namedItem('website') as HTMLInputElement | null)?.value ?? '',
          fillMs: Math.round(performance.now() - shownAt.current),
        }),
      });
      if (response.ok) {
        setPhase({ kind: 'sent' });
        setValues({ ...EMPTY, course: form.selected ?? '' });
        key.current = null;
        shownAt.current = performance.now();
        return;
      }
      if (response.status === 422) {
        const body = (await response.json().catch(() => ({}))) as { errors?: Errors };
        if (body.errors) {
          setErrors(body.errors);
          setShowSummary(true);
          setPhase({ kind: 'idle' });
          return;
        }
      }
      setPhase({ kind: 'failed' });
    } catch {
      setPhase({ kind: 'failed' });
    }
  };

  const count = Object.values(errors).filter(Boolean).length;
  const field = (name: Field, label: Text, input: (describedBy: string, invalid: boolean) => ReactNode, required = false) => (
    <div className={`field${errors[name] ? ' has-error' : ''}`}>
      <label htmlFor={`enquiry-${name}`}>
        <L value={label} />
        {required ? (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {input(`enquiry-${name}-error`, Boolean(errors[name]))}
      <p className="field-error" id={`enquiry-${name}-error`}>
        {errors[name] ?? ''}
      </p>
    </div>
  );
  const req = (f: Field) => (form.rules.required as string[]).includes(f);

  return (
    <form ref={formRef} method="post" action={form.action} onSubmit={submit} noValidate={hydrated} data-hydrated={hydrated ? 'true' : undefined}>
      {showSummary && count > 0 ? (
        <p className="form-alert" role="alert">
          {summary(count, form)}
        </p>
      ) : null}
      <p className="required-note">
        <span aria-hidden="true">* </span>
        <L value={labels.required} />
      </p>
      {field(
        'name',
        labels.name,
        (d, invalid) => (
          <input
            id="enquiry-name"
            name="name"
            type="text"
            autoComplete="name"
            required
            maxLength={form.rules.maxLength.name}
            aria-describedby={d}
            aria-invalid={invalid}
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
            onBlur={blur('name')}
          />
        ),
        req('name'),
      )}
      {field(
        'course',
        labels.course,
        (d, invalid) => (
          <select
            id="enquiry-course"
            name="course"
            required
            aria-describedby={d}
            aria-invalid={invalid}
            value={values.course}
            onChange={(e) => set('course', e.target.value)}
            onBlur={blur('course')}
          >
            <option value="">{labels.coursePlaceholder.text}</option>
            {form.options.map((o) => (
              <option key={o.value} value={o.value} lang={o.label.lang}>
                {o.label.text}
              </option>
            ))}
          </select>
        ),
        req('course'),
      )}
      {field('message', labels.message, (d, invalid) => (
        <textarea
          id="enquiry-message"
          name="message"
          rows={4}
          maxLength={form.rules.maxLength.message}
          aria-describedby={d}
          aria-invalid={invalid}
          value={values.message}
          onChange={(e) => set('message', e.target.value)}
          onBlur={blur('message')}
        />
      ))}
      {field(
        'email',
        labels.email,
        (d, invalid) => (
          <input
            id="enquiry-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={form.rules.maxLength.email}
            aria-describedby={`${d} enquiry-privacy`}
            aria-invalid={invalid}
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
            onBlur={blur('email')}
          />
        ),
        req('email'),
      )}
      <div className="hp" aria-hidden="true">
        <label htmlFor="enquiry-website">Website</label>
        <input id="enquiry-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <input type="hidden" name="locale" value={form.locale} />
      <input type="hidden" name="thanks" value={form.thanksHref} />
      <p className="privacy" id="enquiry-privacy">
        <L value={labels.privacyNote} />
      </p>
      <button type="submit" className="button" disabled={phase.kind === 'sending'}>
        <L value={phase.kind === 'sending' ? labels.sending : labels.submit} />
      </button>
      <div role="status" className="form-status">
        {phase.kind === 'sent' ? <L value={labels.success} /> : null}
      </div>
      {phase.kind === 'failed' ? (
        <div role="alert" className="form-alert">
          <p>
            <L value={labels.failure} />
          </p>
          <p>
            {contacts.phoneHref ? <a href={contacts.phoneHref}>{contacts.phone}</a> : contacts.phone} ·{' '}
            {contacts.emailHref ? <a href={contacts.emailHref}>{contacts.email}</a> : contacts.email}
          </p>
        </div>
      ) : null}
    </form>
  );
}
