/**
 * What templates receive: resolved, localized data. Nothing here reads files or knows YAML.
 * Produced by cli/resolve/resolve.ts; rendered by templates/document.tsx.
 */
import type { DefaultLocale, Locale } from '../cli/locales.ts';
import type { ENQUIRY_RULES, FormFieldName } from '../cli/schema/enquiry-rules.ts';
import type { UiKey } from '../cli/schema/ui-keys.ts';

export type { Locale };

/**
 * A text in the page's language. When the translation is missing, `text` is the Russian
 * fallback and `lang` is "ru", so the element that carries it gets lang="ru".
 */
export interface Text {
  text: string;
  lang?: DefaultLocale;
}

export interface Link {
  href: string;
  label: Text;
}

export interface Alternate {
  locale: Locale;
  /** Site-relative URL of this page in that locale: "/en/vocal". */
  href: string;
  /** The language's own name, e.g. "Deutsch". */
  name: string;
}

export interface Chrome {
  locale: Locale;
  siteName: string;
  /** Relative URL of this locale's home page: "/", "/en", "/de". */
  homeHref: string;
  menu: (Link & { id: string })[];
  alternates: Alternate[];
  contacts: Contacts;
  hours: { days: Text; time?: string; note?: Text }[];
  footerLinks: Link[];
  /** Every UI string in this locale. */
  ui: Record<UiKey, Text>;
}

export interface Contacts {
  phone: string;
  /** tel: URI, digits only; undefined while the phone is a placeholder. */
  phoneHref?: string;
  email: string;
  emailHref?: string;
  address: string;
  location: Text;
}

export interface PriceText {
  /** "90 €", "from 300 €", "+80 €". */
  amount: Text;
  /** "per month", "per lesson"; empty for once. */
  per?: Text;
  note?: Text;
}

/**
 * A picture as the templates show it (templates/Picture.tsx): one `<source>` per modern format and
 * the JPEG fallback, each at every width the layout needs (cli/schema/image-uses.ts).
 */
export interface Picture {
  /** The JPEG fallback at its widest: the img's src. */
  src: string;
  srcSet: string;
  sources: { type: string; srcSet: string }[];
  sizes: string;
  /** Of the widest file: the box's shape before the picture arrives (no layout shift). */
  width: number;
  height: number;
  /** What it shows; empty for a decorative picture. */
  alt: Text;
  /** The first picture on screen: fetched at once with high priority; every other one lazily. */
  priority: boolean;
}

/** The picture a messenger shows for a shared link: `cli/images/share-cards.ts` draws it from these facts (laid out by cli/images/card-layout.ts). */
export interface CardModel {
  /** Site-relative path of the card: "cards/en/vocal.png", a JPEG for a card with a photo ("cards/en/vocal.jpg", card-model.ts). */
  file: string;
  locale: Locale;
  /** None while the studio's name is a placeholder ("TODO: …"): a card shows no placeholder. */
  siteName?: string;
  title: string;
  /** A course's age group and price. */
  age?: string;
  price?: string;
  /** Site-relative path of a JPEG of the course's photo (written by the images stage). */
  photo?: string;
  /** Site-relative path of the logo's PNG-free fallback (JPEG), when the site has one. */
  logo?: string;
}

export interface CourseCard {
  key: string;
  image?: Picture;
  title: Text;
  summary: Text;
  age: Text;
  href?: string;
  price?: PriceText;
  isForParents: boolean;
  /** Value of the form option that enrols in this course. */
  formValue?: string;
}

/** The courses of one audience on the home page: children, children and adults, adults (and parents). */
export interface CourseGroup {
  id: 'children' | 'all' | 'adults';
  title: Text;
  courses: CourseCard[];
}

export interface Banner {
  id: string;
  image?: Picture;
  pill: Text;
  title: Text;
  subtitle: Text;
  cta: Link;
  isNew: boolean;
}

/** A group of the form's course options (options without a group in form.yaml make one without a label: no `<optgroup>`). */
export interface FormGroup {
  label?: Text;
  options: { value: string; label: Text }[];
}

export interface FormModel {
  locale: Locale;
  /** Where the form posts (without JavaScript too). */
  action: string;
  /** The localized thank-you page, sent as a hidden field for the no-JS redirect. */
  thanksHref: string;
  /** The localized privacy page, linked from the note on who receives what the form sends. */
  privacyHref?: string;
  /** The courses to choose from, in the home page's order, under its groups (children, children and adults, adults): `<optgroup>`s. */
  groups: FormGroup[];
  /** The option preselected on a course page. */
  selected?: string;
  labels: {
    title: Text;
    intro: Text;
    coursePlaceholder: Text;
    /** Under the free-text field: no health details of a child there (Art. 9 GDPR; the privacy page says why). */
    messageHint: Text;
    required: Text;
    submit: Text;
    sending: Text;
    privacyNote: Text;
    privacyLink: Text;
    success: Text;
    failure: Text;
    scriptFailed: Text;
    errorRequired: Text;
    errorEmail: Text;
    errorPhone: Text;
    errorCourse: Text;
    errorTooLong: Text;
    errorRateLimited: Text;
    /** Plural forms of the error summary with {{count}} left in; pick one with Intl.PluralRules. */
    errorSummary: { one: Text; few?: Text; many?: Text; other: Text };
  } & { [F in FormFieldName]: Text };
  /** Derived from the enquiry schema (cli/schema/enquiry.ts). */
  rules: typeof ENQUIRY_RULES;
  contacts: Pick<Contacts, 'phone' | 'phoneHref' | 'email' | 'emailHref'>;
  /** Milliseconds the script part may take to load. */
  scriptTimeoutMs: number;
}

export interface CourseDetail {
  key: string;
  image?: Picture;
  title: Text;
  summary: Text;
  age: Text;
  format: Text;
  duration: Text;
  /** Who teaches it: a teacher's name (and role), or a placeholder. */
  teachers: { name: Text; role?: Text }[];
  price?: PriceText;
  goal: Text;
  howClassesRun: Text;
  features: Text[];
  trial: Text;
  /** Teaching languages, named in the page's language; none where no language is taught. */
  languages?: Text[];
  languagesNote?: Text;
  rules: Text[];
  steps: { title: Text; text?: Text }[];
  subPrograms: { key: string; title: Text; age: Text; text: Text }[];
  /** The headings of the sections that vary: the usual ones, or the course's own. */
  headings: { goal: Text; howClassesRun: Text; trial: Text; teacher: Text; languages: Text };
  audience: 'children' | 'adults' | 'parents' | 'all';
  formValue?: string;
}

export interface PriceCategoryModel {
  id: string;
  title: Text;
  /** A line links to its course's page (`href`) when one course alone is priced by it, or the category prices one course only. */
  items: ({ type: 'item'; id: string; label: Text; price: PriceText; href?: string } | { type: 'sub'; label: Text })[];
  /** The courses this category prices, each with its sign-up link (its page's form, the course chosen). */
  courses: { key: string; title: Text; href: string; signUpHref: string }[];
  table?: {
    caption: Text;
    columnHeader: Text;
    /** "1 lesson", "4 lessons" — pluralized. */
    columns: Text[];
    rows: { id: string; label: Text; amounts: Text[] }[];
  };
  notes: Text[];
}

export interface TeacherModel {
  key: string;
  image?: Picture;
  name: Text;
  role: Text;
  edu: Text;
  text1: Text;
  text2: Text;
  extra: Text[];
  quote?: Text;
  courses: Link[];
}

export type PageBody =
  | { kind: 'home'; courseGroups: CourseGroup[]; banners: Banner[]; photo?: Picture }
  | { kind: 'course'; course: CourseDetail }
  | {
      kind: 'prices';
      /** The VAT status and what else the final prices need said, under the currency note. */
      notes: Text[];
      categories: PriceCategoryModel[];
      recordingPackages: { id: string; name: string; description: Text; revisions: Text; price?: PriceText }[];
      paymentRules: Text[];
    }
  | { kind: 'teachers'; teachers: TeacherModel[] }
  | { kind: 'faq'; items: { id: string; question: Text; answer: Text[] }[] }
  | { kind: 'schedule'; intro: Text; rows: { day: Text; time: Text; course: Link; note?: Text }[]; notes: Text[] }
  | { kind: 'legal'; sections: { heading: Text; body: Text[] }[] }
  | { kind: 'thanks' }
  | { kind: 'notFound'; homeHref: string; coursesHref: string };

export interface PageModel {
  /** Site-relative URL: "/", "/en/vocal". */
  url: string;
  /** The route this page shows, without locale: "/vocal". */
  route: string;
  /** Output file relative to the site root: "index.html", "en/vocal.html". */
  file: string;
  locale: Locale;
  title: Text;
  description: Text;
  /** Absolute canonical URL; absent on pages not to be indexed (not found). */
  canonical?: string;
  /** Absolute URLs per locale for hreflang, plus x-default. */
  hreflang: { hreflang: string; href: string }[];
  noindex: boolean;
  /** Listed in sitemap.xml: every indexable page but the thank-you page. */
  inSitemap: boolean;
  chrome: Chrome;
  body: PageBody;
  /** The enquiry form, when this page shows it (home and course pages). */
  form?: FormModel;
  /** Structured data for search engines, serialized into application/ld+json. */
  jsonLd: object[];
  /** Open Graph: absolute URL of this page and the site name. */
  /** url: the page's own address; none for a page that is not indexed (a not-found page has none that exists). */
  og: { url?: string; siteName: string; locale: string; image?: { url: string; width: number; height: number; alt: string } };
  /** The page's share card, when the site makes them (`shareCards` in site.yaml) and the page is one to share. */
  card?: CardModel;
}
