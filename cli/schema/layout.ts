import { DEFAULT_LOCALE } from '../locales.ts';

/**
 * Where each content type lives under content/. Kept apart from the zod shapes (index.ts) so
 * that `validate` can run without loading zod: it checks against the generated JSON Schemas.
 */
export const CONTENT_LAYOUT = {
  site: { file: 'site.yaml' },
  routes: { file: 'routes.yaml' },
  course: { dir: 'courses' },
  teacher: { dir: 'teachers' },
  prices: { file: 'prices.yaml' },
  faq: { file: 'faq.yaml' },
  banners: { file: 'banners.yaml' },
  ui: { file: 'ui.yaml' },
  form: { file: 'form.yaml' },
  schedule: { file: 'schedule.yaml' },
  legal: { file: 'legal.yaml' },
} as const satisfies Record<string, { file: string } | { dir: string }>;

export type ContentType = keyof typeof CONTENT_LAYOUT;
export const CONTENT_TYPE_NAMES = Object.keys(CONTENT_LAYOUT) as ContentType[];

type Layout = typeof CONTENT_LAYOUT;
/** The content types of one file each (site.yaml, prices.yaml). */
export type SingletonType = { [T in ContentType]: Layout[T] extends { file: string } ? T : never }[ContentType];
/** The content types of one file per entity (courses/<key>.yaml): the collections. */
export type CollectionType = Exclude<ContentType, SingletonType>;
/** The name a collection goes by in the content model: its folder (`courses`). */
export type CollectionName<T extends CollectionType = CollectionType> = Layout[T] extends { dir: infer D extends string } ? D : never;

/** The singletons, in the order of CONTENT_LAYOUT. */
export const SINGLETON_TYPES = CONTENT_TYPE_NAMES.filter((t): t is SingletonType => 'file' in CONTENT_LAYOUT[t]);
/** The collections, in the order of CONTENT_LAYOUT. */
export const COLLECTION_TYPES = CONTENT_TYPE_NAMES.filter((t): t is CollectionType => 'dir' in CONTENT_LAYOUT[t]);
export const isCollection = (type: ContentType): type is CollectionType => 'dir' in CONTENT_LAYOUT[type];
/** The collection's name in the content model: `course` → `courses`. */
export const collectionName = <T extends CollectionType>(type: T) => CONTENT_LAYOUT[type].dir as CollectionName<T>;

/** The JSON Schema file name of a content type, relative to schemas/. */
export const schemaFileName = (type: ContentType) => `${type}.schema.json`;

/** A fact still to be supplied is written "TODO: what is missing". */
export const PLACEHOLDER_PATTERN = '^TODO:';
/** A text without raw HTML: every "<" not followed by a letter, "/", "!" or "?" (linear, no look-ahead over the whole text). */
export const NO_HTML = '^[^<]*(?:<(?![A-Za-z/!?])[^<]*)*$';
/** A text on one line: no line break (CR, LF, NEL, U+2028/9) and no other control character. */
export const ONE_LINE = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$';
/** A fact still to be supplied by the studio (see PLACEHOLDER_PATTERN). */
export const isPlaceholder = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.startsWith('TODO:')
    : Boolean(value) && typeof value === 'object' && isPlaceholder((value as Record<string, unknown>)[DEFAULT_LOCALE]);
/** A fact as the studio gave it; undefined while it is a placeholder (in one language or in every one). */
export const known = (value: string | object): string | undefined => (typeof value === 'string' && !isPlaceholder(value) ? value : undefined);
/** A one-value fact (a phone number, the studio's name) as a visitor of `locale` reads it: a placeholder in their language. */
export const inLocale = (value: string | Record<string, string>, locale: string): string =>
  typeof value === 'string' ? value : (value[locale] ?? value[DEFAULT_LOCALE]!);
