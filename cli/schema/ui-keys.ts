import { LOCALES, type Locale } from '../locales.ts';

/**
 * Every UI string the templates use, by namespace. The ui.yaml schema is generated from this
 * list, so a misspelt key in ui.yaml is an error with a "did you mean" hint, and templates can
 * only ask for keys that exist. Plural families end in i18next's suffixes: ru needs
 * `_one`, `_few`, `_many`, `_other`; en and de use `_one` and `_other` (PLURAL_SUFFIXES).
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
    'errorConflict',
    'errorUnstorable',
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

/** The plural forms ui.yaml can hold: a plural family's keys end in these (`prices.lessons_few`). */
export type PluralSuffix = 'one' | 'few' | 'many' | 'other';

/** A plural family by its name (`prices.lessons` for `prices.lessons_one` … `_other`): i18next picks the form by `count`. */
export type UiPluralKey = UiKey extends infer K ? (K extends `${infer Base}_${PluralSuffix}` ? Base : never) : never;

/**
 * The plural suffixes i18next uses, by locale: the categories of the language's plural rules
 * (Intl.PluralRules, which i18next asks too), in UI_KEYS' order. ru has four forms; en and de two.
 */
export const PLURAL_SUFFIXES = Object.fromEntries(
  LOCALES.map((l): [Locale, readonly PluralSuffix[]] => {
    const used: readonly string[] = new Intl.PluralRules(l).resolvedOptions().pluralCategories;
    return [l, (['one', 'few', 'many', 'other'] as const).filter((s) => used.includes(s))];
  }),
) as Record<Locale, readonly PluralSuffix[]>;

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
