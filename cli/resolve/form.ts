import type { Contacts, FormGroup, FormModel, Text } from '../../templates/model.ts';
import { ENQUIRY_RULES, FORM_FIELDS, type FormFieldName } from '../schema/enquiry-rules.ts';
import type { FormFile } from '../schema/form.ts';
import type { SiteFile } from '../schema/site.ts';
import { PLURAL_SUFFIXES, type UiKey } from '../schema/ui-keys.ts';
import type { Localizer } from './localizer.ts';

/**
 * The enquiry form of a locale, with the course it preselects. One object per preselection:
 * the pages that show the same form share it (and its serialized props).
 */
export function formMaker(
  l: Localizer,
  site: SiteFile,
  form: FormFile,
  contacts: Contacts,
  privacyRoute: string | undefined,
): (selected?: string) => FormModel {
  const made = new Map<string | undefined, FormModel>();
  return (selected) => {
    let model = made.get(selected);
    if (!model) {
      model = {
        locale: l.locale,
        action: site.form.endpoint,
        thanksHref: l.url(site.form.thanksPath),
        ...(privacyRoute ? { privacyHref: l.url(privacyRoute) } : {}),
        groups: groups(l, form),
        selected,
        labels: labels(l),
        rules: ENQUIRY_RULES,
        contacts: { phone: contacts.phone, phoneHref: contacts.phoneHref, email: contacts.email, emailHref: contacts.emailHref },
        scriptTimeoutMs: site.form.scriptTimeoutSeconds * 1000,
      };
      made.set(selected, model);
    }
    return model;
  };
}

const GROUP_LABELS = { children: 'home.groupChildren', all: 'home.groupAll', adults: 'home.groupAdults' } as const satisfies Record<string, UiKey>;

/**
 * The options under their groups, each group where its first option is (form.yaml lists them in
 * the home page's order); options without a group form one group without a label.
 */
function groups(l: Localizer, form: FormFile): FormGroup[] {
  const byGroup = new Map<string | undefined, FormGroup>();
  for (const o of form.options) {
    let group = byGroup.get(o.group);
    if (!group) {
      group = { ...(o.group && { label: l.ux(GROUP_LABELS[o.group]) }), options: [] };
      byGroup.set(o.group, group);
    }
    group.options.push({ value: o.value, label: l.tx(o.label) });
  }
  return [...byGroup.values()];
}

function labels({ locale, ux }: Localizer): FormModel['labels'] {
  return {
    title: ux('form.title'),
    intro: ux('form.intro'),
    // Each field's label: form.<field> in ui.yaml (a field without one does not compile).
    ...(Object.fromEntries(FORM_FIELDS.map((f) => [f.name, ux(`form.${f.name}`)])) as Record<FormFieldName, Text>),
    coursePlaceholder: ux('form.coursePlaceholder'),
    messageHint: ux('form.messageHint'),
    required: ux('form.required'),
    submit: ux('form.submit'),
    sending: ux('form.sending'),
    privacyNote: ux('form.privacyNote'),
    privacyLink: ux('form.privacyLink'),
    success: ux('form.success'),
    failure: ux('form.failure'),
    scriptFailed: ux('form.scriptFailed'),
    errorRequired: ux('form.errorRequired'),
    errorEmail: ux('form.errorEmail'),
    errorPhone: ux('form.errorPhone'),
    errorCourse: ux('form.errorCourse'),
    // Templates with {{max}} / {{count}} left in: the browser fills them in.
    errorTooLong: ux('form.errorTooLong'),
    errorRateLimited: ux('form.errorRateLimited'),
    errorSummary: Object.fromEntries(PLURAL_SUFFIXES[locale].map((s) => [s, ux(`form.errorSummary_${s}` as UiKey)])) as FormModel['labels']['errorSummary'],
  };
}
