import type { LoadedFile } from '../load/load.ts';
import type { SourceFile } from '../load/source.ts';
import type { ContentOf, ContentType } from '../schema/index.ts';
import {
  COLLECTION_TYPES,
  type CollectionName,
  type CollectionType,
  collectionName,
  isCollection,
  SINGLETON_TYPES,
  type SingletonType,
} from '../schema/layout.ts';
import { compareNames } from '../util/compare-names.ts';

/** A content entry that passed its schema, with the source to locate problems in it. */
export interface Entry<T extends ContentType> {
  key: string;
  data: ContentOf<T>;
  source: SourceFile;
}

/**
 * All content that passed its schema, shaped by the content-type registry (cli/schema/layout.ts):
 * each singleton by its type (`site`), missing when its file had errors; each collection by its
 * folder (`courses`), a map by key.
 */
export type Content = { [T in SingletonType]?: Entry<T> } & { [T in CollectionType as CollectionName<T>]: Map<string, Entry<T>> } & {
  /** Keys of collection files that exist but failed their schema: references to them are not errors of their own. */
  invalidKeys: { [T in CollectionType]: Set<string> };
};

/** The entries of one collection, by key. */
export const collection = <T extends CollectionType>(content: Content, type: T): Map<string, Entry<T>> =>
  (content as unknown as Record<string, Map<string, Entry<T>>>)[collectionName(type)]!;

/** Content with every collection empty and no singleton. */
export function emptyContent(): Content {
  return {
    ...Object.fromEntries(COLLECTION_TYPES.map((t) => [collectionName(t), new Map()])),
    invalidKeys: Object.fromEntries(COLLECTION_TYPES.map((t) => [t, new Set()])),
  } as Content;
}

/** Groups the files whose schema check passed (`valid`) into the typed content model. */
export function assemble(files: LoadedFile[], valid: (f: LoadedFile) => boolean): Content {
  const content = emptyContent();
  const byKey = <T extends ContentType>(f: LoadedFile) => ({ key: f.key, data: f.source!.data as ContentOf<T>, source: f.source! });
  for (const f of files) {
    const type = f.type;
    if (!f.source || f.source.data === undefined || !valid(f)) {
      if (isCollection(type)) content.invalidKeys[type].add(f.key);
      continue;
    }
    if (isCollection(type)) collection(content, type).set(f.key, byKey<CollectionType>(f) as Entry<CollectionType>);
    else (content as unknown as Record<string, unknown>)[type] = byKey(f);
  }
  return content;
}

/** The content types of one file each, in the order `entries` lists them. */
export const SINGLETONS = SINGLETON_TYPES;

/** The courses in key order. */
export const coursesByKey = (content: Content) => [...content.courses.values()].sort((a, b) => compareNames(a.key, b.key));

/** Every content entry, singletons and collections, in a stable order (`courses`: those already sorted by key, when the caller has them). */
export function entries(content: Content, courses = coursesByKey(content)): Entry<ContentType>[] {
  const singles = SINGLETONS.map((key) => content[key]);
  const sorted = (type: CollectionType): Entry<ContentType>[] =>
    type === 'course' ? courses : [...collection(content, type).values()].sort((a, b) => compareNames(a.key, b.key));
  return [...(singles.filter(Boolean) as Entry<ContentType>[]), ...COLLECTION_TYPES.flatMap(sorted)] as Entry<ContentType>[];
}
