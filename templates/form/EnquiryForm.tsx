import type { ChangeEvent, FocusEvent, ReactNode, RefObject } from 'react';
import { FORM_FIELDS } from '../../cli/schema/enquiry-rules.ts';
import { PhoneAndEmail } from '../Contacts.tsx';
import type { FormGroup, Text } from '../model.ts';
import type { FormView } from './props.ts';
import { type Phase, useEnquiry } from './useEnquiry.ts';
import { type FieldName, summary } from './validate.ts';

const L = ({ value }: { value: Text }) => <span lang={value.lang}>{value.text}</span>;
const controlId = (name: FieldName) => `enquiry-${name}`;
const errorId = (name: FieldName) => `enquiry-${name}-error`;
const hintId = (name: FieldName) => `enquiry-${name}-hint`;

/**
 * The enquiry form. Rendered to HTML at build time (a plain form that posts without
 * JavaScript), then hydrated by island.tsx: inline validation, sending with fetch, and a
 * failure that keeps everything typed (useEnquiry.ts).
 */
export function EnquiryForm(form: FormView) {
  const { labels, rules } = form;
  const { values, errors, phase, showSummary, hydrated, formRef, statusRef, alertRef, set, blur, submit } = useEnquiry(form);
  const required = (name: FieldName) => (rules.required as readonly string[]).includes(name);
  // A control is written as: who it is (`named`), its own attributes, then what describes it, its state and handlers (`bound`).
  const named = (name: FieldName) => ({ id: controlId(name), name });
  const bound = (name: FieldName, describedBy = errorId(name)) => ({
    'aria-describedby': describedBy,
    'aria-invalid': errors[name] ? true : undefined, // absent is false, in fewer bytes
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => set(name, e.target.value),
    onBlur: (e: FocusEvent) => blur(name, e),
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
      {FORM_FIELDS.map((f) => {
        if (f.control === 'select')
          return (
            <Field key={f.name} name={f.name} label={labels[f.name]} required={required(f.name)} error={errors[f.name]}>
              <select {...named(f.name)} required={required(f.name)} {...bound(f.name)}>
                <CourseOptions form={form} />
              </select>
            </Field>
          );
        if (f.control === 'textarea')
          return (
            <Field
              key={f.name}
              name={f.name}
              label={labels[f.name]}
              required={required(f.name)}
              error={errors[f.name]}
              count={hydrated ? { length: values[f.name].trim().length, max: rules.maxLength[f.name] } : undefined}
            >
              <p className="field-hint" id={hintId(f.name)}>
                <L value={labels.messageHint} />
              </p>
              <textarea {...named(f.name)} required={required(f.name)} rows={4} {...bound(f.name, `${errorId(f.name)} ${hintId(f.name)}`)} />
            </Field>
          );
        // A contact field is described by the privacy note too: what is done with the address or number.
        const describedBy = 'privacy' in f ? `${errorId(f.name)} enquiry-privacy` : errorId(f.name);
        return (
          <Field key={f.name} name={f.name} label={labels[f.name]} required={required(f.name)} error={errors[f.name]}>
            <input {...named(f.name)} type={f.type} autoComplete={f.autocomplete} required={required(f.name)} {...bound(f.name, describedBy)} />
          </Field>
        );
      })}
      <HiddenFields form={form} />
      <PrivacyNote form={form} />
      {/* Not disabled while sending: a disabled button drops the focus to the top of the page. */}
      <button type="submit" className="button" aria-disabled={phase === 'sending' ? true : undefined}>
        <L value={phase === 'sending' ? labels.sending : labels.submit} />
      </button>
      <Outcome phase={phase} form={form} statusRef={statusRef} alertRef={alertRef} />
    </form>
  );
}

/** The placeholder option, then the course options, under their group's label where the group has one. */
function CourseOptions({ form }: { form: FormView }) {
  return (
    <>
      <option value="">{form.labels.coursePlaceholder.text}</option>
      {form.groups.map((g) =>
        g.label ? (
          <optgroup key={g.label.text} label={g.label.text} lang={g.label.lang}>
            <Options group={g} />
          </optgroup>
        ) : (
          <Options key="" group={g} />
        ),
      )}
    </>
  );
}

/** The field people never see (a bot that fills it in is refused), and what the browser's own post carries besides the fields. */
function HiddenFields({ form }: { form: FormView }) {
  return (
    <>
      <div className="hp" aria-hidden="true">
        <label htmlFor="enquiry-website">Website</label>
        <input id="enquiry-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <input type="hidden" name="locale" value={form.locale} />
      <input type="hidden" name="thanks" value={form.thanksHref} />
    </>
  );
}

/** What is done with a contact address or number (the contact fields name it in aria-describedby), and the privacy policy's link. */
function PrivacyNote({ form: { labels, privacyHref } }: { form: FormView }) {
  return (
    <p className="privacy" id="enquiry-privacy">
      <L value={labels.privacyNote} />
      {privacyHref ? (
        <>
          {' '}
          <a href={privacyHref}>
            <L value={labels.privacyLink} />
          </a>
        </>
      ) : null}
    </p>
  );
}

/**
 * The confirmation once sent (a live region, always present so it is announced), or a failure
 * with phone and e-mail; the one shown gets the focus (useEnquiry.ts), so it is read out and a
 * keyboard user goes on from there.
 */
function Outcome({
  phase,
  form: { labels, contacts },
  statusRef,
  alertRef,
}: {
  phase: Phase;
  form: FormView;
  statusRef: RefObject<HTMLDivElement | null>;
  alertRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <>
      <div role="status" className="form-status" ref={statusRef} tabIndex={-1}>
        {phase === 'sent' ? <L value={labels.success} /> : null}
      </div>
      {phase === 'failed' || phase === 'rateLimited' ? (
        <div role="alert" className="form-alert" ref={alertRef} tabIndex={-1}>
          <p>
            <L value={phase === 'rateLimited' ? labels.errorRateLimited : labels.failure} />
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
 * which the control names in aria-describedby (`bound`), so a screen reader reads it with the
 * field. The message's line is kept even while empty, so an error appearing moves nothing
 * below it (the Send button under a pointer). A long text shows how much of its limit it uses.
 */
function Field({
  name,
  label,
  required,
  error,
  count,
  children,
}: {
  name: FieldName;
  label: Text;
  required: boolean;
  error?: string;
  count?: { length: number; max: number };
  children: ReactNode;
}) {
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
      <div className="field-foot">
        <p className="field-error" id={errorId(name)}>
          {error ?? ''}
        </p>
        {count ? (
          <span className={`field-count${count.length > count.max ? ' over' : ''}`} aria-hidden="true">
            {count.length} / {count.max}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function Options({ group }: { group: FormGroup }) {
  return group.options.map((o) => (
    <option key={o.value} value={o.value} lang={o.label.lang}>
      {o.label.text}
    </option>
  ));
}
