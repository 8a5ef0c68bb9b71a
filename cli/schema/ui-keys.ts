import type { Locale } from './locales.ts';

/**
 * Every UI string the templates use, by namespace. The ui.yaml schema is generated from this
 * list, so a misspelt key in ui.yaml is an error with a "did you mean" hint, and templates can
 * only ask for keys that exist. Plural families end in i18next's suffixes: ru needs
 * `_one`, `_few`, `_many`, `_other`; en and de use `_one` and `_other`.
 */
export const UI_KEYS = {
  nav: ['skipToContent', 'menu', 'mainMenu', 'language', 'languageSwitcher', 'home'],
  lang: ['ru', 'en', 'de', 'uk'],
  home: [
    'heroTitle',
    'heroText',
    'offeringsTitle',
    'offersTitle',
    'contactTitle',
    'contactText',
    'newBadge',
    'coursesIndex',
    'groupChildren',
    'groupAll',
    'groupAdults',
  ],
  course: [
    'signUp',
    'moreDetails',
    'moreDetailsAbout',
    'age',
    'format',
    'duration',
    'teacher',
    'price',
    'goal',
    'howClassesRun',
    'features',
    'trial',
    'languages',
    'rules',
    'steps',
    'subPrograms',
    'forParentsOnly',
    'seePrices',
    'signUpFor',
  ],
  prices: [
    'perMonth',
    'perLesson',
    'perHour',
    'perVisit',
    'once',
    'perPackage',
    'fromAmount',
    'addOn',
    'lessons_one',
    'lessons_few',
    'lessons_many',
    'lessons_other',
    'revisions_one',
    'revisions_few',
    'revisions_many',
    'revisions_other',
    'recordingTitle',
    'paymentTitle',
    'currencyNote',
  ],
  teachers: ['education', 'courses', 'placeholderNote'],
  faq: ['intro'],
  schedule: ['intro', 'day', 'time', 'course', 'mo', 'tu', 'we', 'th', 'fr', 'sa', 'su', 'toBeAnnounced'],
  form: [
    'title',
    'intro',
    'name',
    'course',
    'coursePlaceholder',
    'message',
    'messageHint',
    'email',
    'phone',
    'required',
    'submit',
    'sending',
    'errorRequired',
    'errorEmail',
    'errorPhone',
    'errorCourse',
    'errorTooLong',
    'errorInvalid',
    'errorRateLimited',
    'errorBack',
    'errorSummary_one',
    'errorSummary_few',
    'errorSummary_many',
    'errorSummary_other',
    'privacyNote',
    'success',
    'failure',
    'scriptFailed',
    'thanksTitle',
    'backHome',
    'privacyLink',
    'backToForm',
  ],
  footer: ['hours', 'contacts', 'links', 'onRequest', 'phone', 'email', 'address', 'legal'],
  /** The legal texts' words: `days` is how the privacy page's `{{keepDays}}` says the retention period (1 день, 3 дня, 5 дней). */
  legal: ['days_one', 'days_few', 'days_many', 'days_other'],
  notFound: ['title', 'text', 'redirecting', 'courses', 'soon', 'stay', 'staying'],
} as const;

export type UiNamespace = keyof typeof UI_KEYS;
export type UiKey = { [N in UiNamespace]: `${N}.${(typeof UI_KEYS)[N][number]}` }[UiNamespace];

/** The plural suffixes i18next uses, by locale. ru has four forms; en and de two. */
export const PLURAL_SUFFIXES = {
  ru: ['one', 'few', 'many', 'other'],
  en: ['one', 'other'],
  de: ['one', 'other'],
} as const satisfies Record<Locale, readonly string[]>;

/** The end of a key of a plural family: `prices.lessons_few` is a form of `prices.lessons`. */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * The variables the site fills into a UI string, written `{{name}}` in ui.yaml. Every other UI
 * string has none; a plural family is listed once, without its suffix. tests/validate/ui-variables.test.ts
 * reads the calls that pass them (cli/resolve/price.ts, cli/resolve/pages/prices.ts, the form's
 * labels) and fails until this list says the same; `content validate` holds every text of ui.yaml to it.
 */
export const UI_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  'prices.fromAmount': ['amount'],
  'prices.addOn': ['amount'],
  'prices.lessons': ['count'],
  'prices.revisions': ['count'],
  'form.errorTooLong': ['max'],
  'form.errorSummary': ['count'],
  'legal.days': ['count'],
};
