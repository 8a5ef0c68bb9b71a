import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locale, PageModel } from '../../templates/model.ts';
import { DEFAULT_LOCALE, LOCALES } from '../locales.ts';
import type { Translator } from '../resolve/translator.ts';
import { localeUrl } from '../resolve/urls.ts';
import { ENQUIRY_LIMITS, FORM_FIELDS, type FormFieldName } from '../schema/enquiry-rules.ts';
import { keepDaysOf } from '../schema/keep-days.ts';
import { known } from '../schema/layout.ts';
import type { UiKey } from '../schema/ui-keys.ts';
import type { Content } from '../validate/content.ts';

/** Where the build leaves what `content serve` needs; dot-paths are never served. */
export const MANIFEST_FILE = join('.studio', 'enquiry.json');
export const MANIFEST_VERSION = 1;

/** The texts the server answers a visitor with, in one locale, as plain strings. */
export interface ServerMessages {
  errorRequired: string;
  errorEmail: string;
  /** Absent in manifests of older builds. */
  errorPhone?: string;
  errorCourse: string;
  /** With `{{max}}` left in. */
  errorTooLong: string;
  errorInvalid: string;
  errorRateLimited: string;
  errorBack: string;
  /** The link back to the form on the server's own pages, and the form it shows again. Absent in manifests of older builds. */
  backToForm?: string;
  submit?: string;
  coursePlaceholder?: string;
  failure: string;
  /** An idempotency key sent again with a different enquiry (409). Absent in manifests of older builds. */
  errorConflict?: string;
  /** A field with a character no store can hold (a NUL). Absent in manifests of older builds. */
  errorUnstorable?: string;
  /** Plural forms with `{{count}}` left in, chosen with Intl.PluralRules. */
  errorSummary: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
  /** The label of each field of the form (a field newer than the build: absent). */
  fields: Partial<Record<FormFieldName, string>>;
  contacts: { phone: string; email: string };
}

/**
 * Everything the enquiry endpoint needs to know about the site, written by `content build`
 * next to the pages, so that `content serve` runs from `dist/` alone and checks exactly the
 * options and rules the built form was made with.
 */
export interface EnquiryManifest {
  version: typeof MANIFEST_VERSION;
  siteName: string;
  baseUrl: string;
  endpoint: string;
  defaultLocale: Locale;
  locales: Locale[];
  /** Form option values, with the Russian label the studio reads in e-mails and exports. */
  options: {
    value: string;
    label: string /** The label in each locale, for the server's own form page. Absent in older builds. */;
    labels?: Record<Locale, string>;
  }[];
  limits: typeof ENQUIRY_LIMITS;
  thanks: Record<Locale, string>;
  /** The stylesheet of the pages, so the server's own answer pages look like the site. */
  stylesheet?: string;
  messages: Record<Locale, ServerMessages>;
  /** How many days enquiries are kept, as the privacy page states it (site.yaml form.keepDays). Absent in older builds. */
  keepDays?: number;
  /** Absent when the site facts ask for no e-mail. `to` is absent when it is still a placeholder. */
  notify?: { to?: string; subject: Record<Locale, string> };
}

export function enquiryManifest(
  content: Content,
  tr: Translator,
  pages: Pick<PageModel, 'locale' | 'form'>[],
  stylesheet: string | undefined,
): EnquiryManifest {
  const site = content.site!.data;
  const locales = [...LOCALES];
  const plain = (key: string, l: Locale) => tr.ui(key, l).text;
  const contact = (v: string | object) => known(v) ?? '';
  const messages = Object.fromEntries(
    locales.map((l): [Locale, ServerMessages] => {
      const form = pages.find((p) => p.locale === l && p.form)?.form;
      const summary = form ? Object.fromEntries(Object.entries(form.labels.errorSummary).map(([k, v]) => [k, v.text])) : {};
      return [
        l,
        {
          errorRequired: plain('form.errorRequired', l),
          errorEmail: plain('form.errorEmail', l),
          errorPhone: plain('form.errorPhone', l),
          errorCourse: plain('form.errorCourse', l),
          errorTooLong: plain('form.errorTooLong', l),
          errorInvalid: plain('form.errorInvalid', l),
          errorRateLimited: plain('form.errorRateLimited', l),
          errorBack: plain('form.errorBack', l),
          backToForm: plain('form.backToForm', l),
          submit: plain('form.submit', l),
          coursePlaceholder: plain('form.coursePlaceholder', l),
          failure: plain('form.failure', l),
          errorConflict: plain('form.errorConflict', l),
          errorUnstorable: plain('form.errorUnstorable', l),
          errorSummary: { other: plain('form.errorSummary_other', l), ...summary },
          fields: Object.fromEntries(FORM_FIELDS.map((f) => [f.name, plain(`form.${f.name}` satisfies UiKey, l)])),
          contacts: { phone: contact(site.contacts.phone), email: contact(site.contacts.email) },
        },
      ];
    }),
  ) as Record<Locale, ServerMessages>;
  const notify = site.form.notify;
  const to = notify?.to ?? site.contacts.email;
  return {
    version: MANIFEST_VERSION,
    siteName: known(site.name) ?? 'Studio',
    baseUrl: site.baseUrl,
    endpoint: site.form.endpoint,
    defaultLocale: DEFAULT_LOCALE,
    locales,
    options: content.form!.data.options.map((o) => ({
      value: o.value,
      label: o.label[DEFAULT_LOCALE],
      labels: Object.fromEntries(locales.map((l) => [l, tr.text(o.label, l).text])) as Record<Locale, string>,
    })),
    limits: ENQUIRY_LIMITS,
    thanks: Object.fromEntries(locales.map((l) => [l, localeUrl(site.form.thanksPath, l)])) as Record<Locale, string>,
    stylesheet,
    messages,
    keepDays: keepDaysOf(site),
    notify: notify
      ? {
          to: known(to),
          subject: Object.fromEntries(locales.map((l) => [l, notify.subject ? tr.text(notify.subject, l).text : 'Enquiry'])) as Record<Locale, string>,
        }
      : undefined,
  };
}

export function writeManifest(dir: string, manifest: EnquiryManifest): void {
  mkdirSync(join(dir, '.studio'), { recursive: true });
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(dir: string): EnquiryManifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as EnquiryManifest;
    return m.version === MANIFEST_VERSION ? m : undefined;
  } catch {
    return undefined;
  }
}
