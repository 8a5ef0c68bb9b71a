import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cachesOff, folderCacheFile, storeCacheFile } from '../cache/policy.ts';
import type { FileIdentity } from '../util/file-identity.ts';
import type { ReadId } from './record-reads.ts';

/** What one item of a stage produced (a page: its file and the facts the build needs of it), and what it read to produce it. */
export interface Traced extends FileIdentity {
  reads: ReadId[];
}

/** What a stage made of the items not taken over, and what it read outside any item (read by every item). */
export interface Computed<P extends Traced> {
  made: P[];
  shared: ReadId[];
}

export interface MemoInput {
  /** The folder the items' files are left in: the records are kept for it. */
  out: string;
  /** Everything outside the content that the products are made from (the compiler's salt, the tags inserted): another key, nothing is taken over. */
  key: string;
  /** The items, by the file each one produces, in the order the stage makes them. */
  files: string[];
  /** The digest of a read in this build (digests.ts). */
  digest: (id: ReadId) => string;
}

/** What a build knew of the items it left in a folder: its key, the digest of each read, what each item read and produced. */
interface Records<P extends Traced> {
  key: string;
  digests: Record<ReadId, string>;
  shared: ReadId[];
  items: Record<string, P>;
}

/**
 * The one memo of the build (`memo(stage, input, compute)`): an item is taken over from the
 * previous build into the same folder only when the key is the same, every read the previous
 * build recorded for it (its own and the shared ones) has the same digest now (a verifying trace,
 * as Shake and Salsa check one), and `takeOver` finds its file still the one that build left.
 * The rest are computed (`compute`, given their indexes), which records what each read. Nothing
 * is read with STUDIO_NO_CACHE=1. Returns the products in the order of `input.files`, how many were
 * computed, and `save`, for the caller to call once the folder holds them (a failed build saves nothing).
 */
export async function memo<P extends Traced>(
  stage: string,
  input: MemoInput,
  compute: (indexes: number[]) => Promise<Computed<P>>,
  takeOver: (files: FileIdentity[]) => Set<string>,
): Promise<{ products: P[]; computed: number; save(): void }> {
  const recordsFile = folderCacheFile(stage, input.out, 'json');
  const previous = cachesOff() ? undefined : readRecords<P>(recordsFile, input.out);
  const same = (id: ReadId) => previous!.digests[id] === input.digest(id);
  const valid = previous !== undefined && previous.key === input.key && previous.shared.every(same);
  const candidates = valid
    ? input.files.flatMap((file) => {
        const item = previous.items[file];
        return item && wellFormed(item, file) && item.reads.every(same) ? [item] : [];
      })
    : [];
  const taken = candidates.length ? takeOver(candidates) : new Set<string>();
  const todo = input.files.flatMap((file, i) => (taken.has(file) ? [] : [i]));
  const { made, shared } = await compute(todo);
  const products = input.files.map((file) => (taken.has(file) ? previous!.items[file]! : undefined)) as P[];
  todo.forEach((index, i) => {
    products[index] = made[i]!;
  });
  return {
    products,
    computed: todo.length,
    save() {
      // A shared read of the pages taken over stays one of the site's: it was read, and still is.
      const sharedNow = [...new Set([...shared, ...(taken.size ? previous!.shared : [])])];
      const digests: Record<ReadId, string> = {};
      for (const id of sharedNow) digests[id] = input.digest(id);
      for (const p of products) for (const id of p.reads) digests[id] ??= input.digest(id);
      const items = Object.fromEntries(products.map((p) => [p.file, p]));
      // The 20 output folders built last are kept. Without records the next build makes every item again: slower, never wrong.
      storeCacheFile(recordsFile, JSON.stringify({ out: resolve(input.out), key: input.key, digests, shared: sharedNow, items }), 20);
    },
  };
}

/** A record as this compiler writes it (a damaged or foreign file is not trusted: its item is made again). */
const wellFormed = (item: Traced, file: string) =>
  item.file === file &&
  Array.isArray(item.reads) &&
  item.reads.every((id) => typeof id === 'string') &&
  [item.ino, item.size, item.mtimeMs].every((n) => typeof n === 'number');

function readRecords<P extends Traced>(file: string, out: string): Records<P> | undefined {
  if (!existsSync(out)) return undefined;
  try {
    const records = JSON.parse(readFileSync(file, 'utf8')) as Partial<Records<P>>;
    const wellFormed =
      typeof records.key === 'string' &&
      typeof records.digests === 'object' &&
      records.digests !== null &&
      Array.isArray(records.shared) &&
      records.shared.every((id) => typeof id === 'string') &&
      typeof records.items === 'object' &&
      records.items !== null;
    return wellFormed ? (records as Records<P>) : undefined;
  } catch {
    return undefined;
  }
}
