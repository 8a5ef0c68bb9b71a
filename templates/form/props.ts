import { ENQUIRY_RULES, FORM_FIELDS, type FormFieldName } from '../../cli/schema/enquiry-rules.ts';
import type { FormModel, Text } from '../model.ts';

/** What the enquiry form renders from (the section around it shows the title, intro and fallback). */
export type FormView = Omit<FormModel, 'labels'> & { labels: Omit<FormModel['labels'], 'title' | 'intro' | 'scriptFailed'> };

/** The texts the form shows only once a visitor acts: not in its HTML, so they travel as JSON. */
const LATER = [
  'sending',
  'success',
  'failure',
  'errorRequired',
  'errorEmail',
  'errorPhone',
  'errorCourse',
  'errorTooLong',
  'errorRateLimited',
  'errorSummary',
] as const;

/**
 * What the form's script needs besides the form's own HTML: the contacts and the texts not yet
 * on the page. The options and the visible labels are read back from the HTML (`formView`), and
 * the rules, the compiler's and the same on every page, come with the script itself, instead of
 * being sent again on every page with the form.
 */
export type FormProps = Pick<FormModel, 'contacts' | 'scriptTimeoutMs'> & { labels: Pick<FormModel['labels'], (typeof LATER)[number]> };

const made = new WeakMap<FormModel, FormProps>();

/** The props of a form, one object per form model (pages share their form's model, and so its serialized props). */
export function formProps(form: FormModel): FormProps {
  let props = made.get(form);
  if (!props) {
    props = {
      labels: Object.fromEntries(LATER.map((k) => [k, form.labels[k]])) as FormProps['labels'],
      contacts: form.contacts,
      scriptTimeoutMs: form.scriptTimeoutMs,
    };
    made.set(form, props);
  }
  return props;
}

/**
 * The form's model, read back from the HTML the server rendered (EnquiryForm.tsx) and completed
 * with its props: what hydration needs to render the very same markup.
 */
export function formView(form: HTMLFormElement, props: FormProps): FormView {
  const text = (el: Element | null): Text => {
    const lang = el?.getAttribute('lang');
    return lang ? { text: el?.textContent ?? '', lang: lang as Text['lang'] } : { text: el?.textContent ?? '' };
  };
  const value = (name: string) => (form.querySelector(`input[name="${name}"]`) as HTMLInputElement | null)?.value ?? '';
  const label = (field: string) => text(form.querySelector(`label[for="enquiry-${field}"] > span`));
  const options = [...form.querySelectorAll<HTMLOptionElement>('#enquiry-course option')];
  const selected = options.find((o) => o.defaultSelected && o.value)?.value;
  const privacyHref = form.querySelector('#enquiry-privacy > a')?.getAttribute('href');
  return {
    locale: value('locale') as FormModel['locale'],
    action: form.getAttribute('action') ?? '',
    thanksHref: value('thanks'),
    groups: groupsOf(
      options.filter((o) => o.value),
      text,
    ),
    ...(selected ? { selected } : {}),
    ...(privacyHref ? { privacyHref } : {}),
    labels: {
      ...props.labels,
      ...(Object.fromEntries(FORM_FIELDS.map((f) => [f.name, label(f.name)])) as Record<FormFieldName, Text>),
      coursePlaceholder: { text: options.find((o) => !o.value)?.textContent ?? '' },
      messageHint: text(form.querySelector('#enquiry-message-hint > span')),
      required: text(form.querySelector('.required-note > span:last-child')),
      privacyNote: text(form.querySelector('#enquiry-privacy > span')),
      privacyLink: text(form.querySelector('#enquiry-privacy > a > span')),
      submit: text(form.querySelector('button[type="submit"] > span')),
    },
    rules: ENQUIRY_RULES,
    contacts: props.contacts,
    scriptTimeoutMs: props.scriptTimeoutMs,
  };
}

/** The option groups as the server rendered them: each `<optgroup>`, or a run of options outside one. */
function groupsOf(options: HTMLOptionElement[], text: (el: Element | null) => Text): FormView['groups'] {
  const groups: FormView['groups'] = [];
  let parent: Element | null | undefined;
  for (const o of options) {
    const group = o.parentElement?.tagName === 'OPTGROUP' ? o.parentElement : null;
    if (group !== parent || !groups.length) {
      const label = group?.getAttribute('label');
      const lang = group?.getAttribute('lang');
      groups.push({ ...(label != null && { label: lang ? { text: label, lang: lang as Text['lang'] } : { text: label } }), options: [] });
      parent = group;
    }
    // Not .at(-1): Safari before 15.4 lacks it.
    groups[groups.length - 1]!.options.push({ value: o.value, label: text(o) });
  }
  return groups;
}
