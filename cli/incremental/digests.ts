import { hash } from 'node:crypto';
import type { ReadId } from './record-reads.ts';

/** Stands for an entry, file or setting that is not there: a read of it is a read too. */
const ABSENT = '-';

/**
 * A part of the content read from one file: its digest is its file's name and bytes (the hash the
 * load stage made of them, cli/load/source.ts), else its text's. Not its data, which is parsed when first used.
 */
interface FromFile {
  source: { file: string; text: string; hash?: string };
}
const fromFile = (value: unknown): value is FromFile => typeof value === 'object' && value !== null && 'source' in value;
const json = (value: unknown) =>
  JSON.stringify(value, (_, v) => (v instanceof Set ? [...v].sort() : v instanceof Map ? [...v].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : v));
const sha1 = (text: string) => hash('sha1', text, 'base64url');

/**
 * The digest of everything a read (record-reads.ts) can name, in this build: a content file's by
 * its bytes, a collection's by its keys and the digests of its entries, any other part by its
 * JSON, a setting by its value. Computed when first asked, once.
 */
export function digestOf(content: object, settings: object): (id: ReadId) => string {
  const known = new Map<ReadId, string>();
  const digest = (value: unknown): string => {
    if (value === undefined) return ABSENT;
    if (fromFile(value)) return `${value.source.file}:${value.source.hash ?? `text:${sha1(value.source.text)}`}`;
    return sha1(json(value));
  };
  const make = (id: ReadId): string => {
    const colon = id.indexOf(':');
    const part = colon < 0 ? id : id.slice(0, colon);
    if (part === 'setting') return json((settings as Record<string, unknown>)[id.slice(colon + 1)] ?? null); // a Map (the pictures' sizes) by its entries
    const value = (content as Record<string, unknown>)[part];
    if (!(value instanceof Map)) return digest(value);
    if (colon >= 0) return digest(value.get(id.slice(colon + 1)));
    return sha1(
      [...value.keys()]
        .sort()
        .map((key) => `${key}\0${of(`${part}:${key}`)}`)
        .join('\n'),
    );
  };
  const of = (id: ReadId) => {
    let d = known.get(id);
    if (d === undefined) {
      d = make(id);
      known.set(id, d);
    }
    return d;
  };
  return of;
}
