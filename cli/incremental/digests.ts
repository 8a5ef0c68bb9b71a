import { hash } from 'node:crypto';
import type { ResolveOptions } from '../resolve/context.ts';
import type { Content, Entry } from '../validate/content.ts';
import type { ReadId } from './record-reads.ts';

/** Stands for an entry, file or setting that is not there: a read of it is a read too. */
const ABSENT = '-';

/**
 * The digest of everything a read (record-reads.ts) can name, in this build: a content file's by
 * its bytes (the hash the parse cache made, else its text's), a collection's by its keys and the
 * digests of its entries, a setting's by its value. Computed when first asked, once.
 */
export function digestOf(content: Content, settings: ResolveOptions): (id: ReadId) => string {
  const known = new Map<ReadId, string>();
  const entryDigest = (entry: Entry<never> | undefined) => (entry ? (entry.source.hash ?? hash('sha1', entry.source.text, 'base64url')) : ABSENT);
  const make = (id: ReadId): string => {
    const colon = id.indexOf(':');
    const kind = colon < 0 ? id : id.slice(0, colon);
    const name = id.slice(colon + 1);
    if (kind === 'setting') return JSON.stringify((settings as unknown as Record<string, unknown>)[name] ?? null);
    if (kind === 'course' || kind === 'teacher')
      return entryDigest((kind === 'course' ? content.courses : content.teachers).get(name) as Entry<never> | undefined);
    if (kind === 'courses' || kind === 'teachers') {
      const parts = [...content[kind].keys()].sort().map((key) => `${key}\0${make(`${kind.slice(0, -1)}:${key}`)}`);
      return hash('sha1', parts.join('\n'), 'base64url');
    }
    if (kind === 'invalidKeys')
      return hash('sha1', JSON.stringify([[...content.invalidKeys.course].sort(), [...content.invalidKeys.teacher].sort()]), 'base64url');
    const value = (content as unknown as Record<string, unknown>)[kind];
    if (value === undefined) return ABSENT;
    // Any other part of the content: a content file of one kind (site, routes, ui…).
    return value && typeof value === 'object' && 'source' in value ? entryDigest(value as Entry<never>) : hash('sha1', JSON.stringify(value), 'base64url');
  };
  return (id) => {
    let digest = known.get(id);
    if (digest === undefined) {
      digest = make(id);
      known.set(id, digest);
    }
    return digest;
  };
}
