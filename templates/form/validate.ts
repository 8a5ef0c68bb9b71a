import { FORM_FIELDS, type FormFieldName } from '../../cli/schema/enquiry-rules.ts';
import type { FormView } from './props.ts';

/** The fields in the order of the form: the first invalid one gets the focus. */
export const FIELDS: readonly FormFieldName[] = FORM_FIELDS.map((f) => f.name);
export type FieldName = FormFieldName;
export type Values = Record<FieldName, string>;
export type Errors = Partial<Record<FieldName, string>>;

/** The enquiry rules of cli/schema/enquiry.ts, applied in the browser with the page's messages. */
export function validateField(field: FieldName, values: Values, form: FormView): string | undefined {
  const value = values[field].trim();
  const { rules, labels } = form;
  if ((rules.required as string[]).includes(field) && !value) return field === 'course' ? labels.errorCourse.text : labels.errorRequired.text;
  const max = rules.maxLength[field as keyof typeof rules.maxLength];
  if (max && value.length > max) return labels.errorTooLong.text.replace('{{max}}', String(max));
  if (field === 'email' && value && !new RegExp(rules.emailPattern).test(value)) return labels.errorEmail.text;
  if (field === 'phone' && value && !new RegExp(rules.phonePattern).test(value)) return labels.errorPhone.text;
  return undefined;
}

/** Every field empty, the course preselected on a course page. */
export function emptyValues(selected?: string): Values {
  return Object.fromEntries(FIELDS.map((f) => [f, f === 'course' ? (selected ?? '') : ''])) as Values;
}

export function validateAll(values: Values, form: FormView): Errors {
  const errors: Errors = {};
  for (const f of FIELDS) {
    const e = validateField(f, values, form);
    if (e) errors[f] = e;
  }
  return errors;
}

export function summary(count: number, form: FormView): string {
  const forms = form.labels.errorSummary as Record<string, { text: string } | undefined>;
  const rule = new Intl.PluralRules(form.locale).select(count);
  return (forms[rule] ?? forms.other)!.text.replace('{{count}}', String(count));
}
