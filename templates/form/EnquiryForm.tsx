import type { ChangeEvent, ReactNode } from 'react';
import { PhoneAndEmail } from '../Contacts.tsx';
import type { Text } from '../model.ts';
import type { FormView } from './props.ts';
import { type Phase, useEnquiry } from './useEnquiry.ts';
import { type FieldName, summary } from './validate.ts';

const L = ({ value }: { value: Text }) => <span lang={value.lang}>{value.text}</span>;
const controlId = (name: FieldName) => `enquiry-${name}`;
const errorId = (name: FieldName) => `enquiry-${name}-error`;

/**
 * The enquiry form. Rendered to HTML at build time (a plain form that posts without
 * JavaScript), then hydrated by island.tsx: inline validation, sending with fetch, and a
 * failure that keeps everything typed (useEnquiry.ts).
 */
export function EnquiryForm(form: FormView) {
  const { labels, rules } = form;
  const { values, errors, phase, showSummary, hydrated, formRef, set, blur, submit } = useEnquiry(form);
  const required = (name: FieldName) => (rules.required as readonly string[]).includes(name);
  // A control is written as: who it is (`named`), its own attributes, then what describes it, its state and handlers (`bound`).
  const named = (name: FieldName) => ({ id: controlId(name), name });
  const bound = (name: FieldName, describedBy = errorId(name)) => ({
    'aria-describedby': describedBy,
    'aria-invalid': errors[name] ? true : undefined, // absent is false, in fewer bytes
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => set(name, e.target.value),
    onBlur: () => blur(name),
  });
  const count = Object.values(errors).filter(Boolean).length;

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
      <Field name="name" label={labels.name} required={required('name')} error={errors.name}>
        <input {...named('name')} type="text" autoComplete="name" required={required('name')} maxLength={rules.maxLength.name} {...bound('name')} />
      </Field>
      <Field name="course" label={labels.course} required={required('course')} error={errors.course}>
        <select {...named('course')} required={required('course')} {...bound('course')}>
          <option value="">{labels.coursePlaceholder.text}</option>
          {form.options.map((o) => (
            <option key={o.value} value={o.value} lang={o.label.lang}>
              {o.label.text}
            </option>
          ))}
        </select>
      </Field>
      <Field name="message" label={labels.message} required={required('message')} error={errors.message}>
        <textarea {...named('message')} required={required('message')} rows={4} maxLength={rules.maxLength.message} {...bound('message')} />
      </Field>
      <Field name="email" label={labels.email} required={required('email')} error={errors.email}>
        <input
          {...named('email')}
          type="email"
          autoComplete="email"
          required={required('email')}
          maxLength={rules.maxLength.email}
          {...bound('email', `${errorId('email')} enquiry-privacy`)}
        />
      </Field>
      <div className="hp" aria-hidden="true">
        <label htmlFor="enquiry-website">Website</label>
        <input id="enquiry-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <input type="hidden" name="locale" value={form.locale} />
      <input type="hidden" name="thanks" value={form.thanksHref} />
      <p className="privacy" id="enquiry-privacy">
        <L value={labels.privacyNote} />
      </p>
      <button type="submit" className="button" disabled={phase === 'sending'}>
        <L value={phase === 'sending' ? labels.sending : labels.submit} />
      </button>
      <Outcome phase={phase} form={form} />
    </form>
  );
}

/** The confirmation once sent (a live region, always present so it is announced); a failure with phone and e-mail. */
function Outcome({ phase, form: { labels, contacts } }: { phase: Phase; form: FormView }) {
  return (
    <>
      <div role="status" className="form-status">
        {phase === 'sent' ? <L value={labels.success} /> : null}
      </div>
      {phase === 'failed' ? (
        <div role="alert" className="form-alert">
          <p>
            <L value={labels.failure} />
          </p>
          <p>
            <PhoneAndEmail contacts={contacts} />
          </p>
        </div>
      ) : null}
    </>
  );
}

/**
 * One field: its label (marked when required), the control, and the error message below it,
 * which the control names in aria-describedby (`bound`), so a screen reader reads it with the field.
 */
function Field({ name, label, required, error, children }: { name: FieldName; label: Text; required: boolean; error?: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={controlId(name)}>
        <L value={label} />
        {required ? (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      <p className="field-error" id={errorId(name)}>
        {error ?? ''}
      </p>
    </div>
  );
}
