import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { cacheKey, cachesOff, folderCacheFile, storeCacheFile } from '../incremental/policy.ts';
import type { Position } from '../report/problem.ts';

/** What parsing one file gave: its data and the positions asked for so far. */
export interface CachedParse {
  data: unknown;
  positions: Map<string, Position>;
  /** The content type and schemas (`validatorsKey`) this data passed: it is not checked again against them. */
  schemaOk?: string;
  /**
   * The plain reader reads this file (yaml-plain.ts): only `schemaOk` is kept, since it gets the data
   * and every position from the text again in less time than they take to load from here (a file
   * not changed since the last run comes from the read cache, read-cache.ts, with its data).
   */
  plain?: boolean;
}

type Stored = { data: unknown; positions: [string, number, number, number, number][]; schemaOk?: string } | { plain: true; schemaOk?: string };

export const contentHash = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('base64url');

/** Whether data survives V8's serializer unchanged: plain objects, arrays and scalars (anything else would lose its prototype). */
function plainData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return true;
  if (Array.isArray(value)) return value.every(plainData);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(plainData);
  return false;
}

/** What parsing one file, and checking it against its schema, cost in entries of the cache written. */
const PARSE_COST_IN_ENTRIES = 50;
const CHECK_COST_IN_ENTRIES = 10;

/**
 * Parse results of content files by the hash of their bytes, kept between runs under
 * node_modules/.cache, one file per content directory. A file whose bytes are unchanged is
 * not parsed again: its data and the positions of its problems come from here, and the
 * YAML document is parsed only when a position is needed that was not asked for before.
 * Of a file the plain reader reads, only whether it passed its schema is kept (reading it
 * again costs less than loading its data). A file with parse problems is never cached. Its version is the compiler's salt (cache-policy.ts:
 * this format, the parsers' code, the versions of yaml and js-yaml). `STUDIO_NO_CACHE=1` turns it off.
 */
export class ParseCache {
  private readonly used = new Map<string, CachedParse>();
  private readonly loadedPositions = new Map<string, number>();

  private constructor(
    private readonly file: string,
    private readonly version: string,
    private stored: Record<string, Stored>,
  ) {}

  static open(contentDir: string): ParseCache | undefined {
    if (cachesOff()) return undefined;
    // V8's serializer, not JSON: about twice as fast both ways, and exact for YAML's .inf, .nan and -0.
    const file = folderCacheFile('parse', contentDir, 'v8');
    const version = cacheKey('parse');
    let stored: Record<string, Stored> = {};
    try {
      const saved = deserialize(readFileSync(file)) as { version: string; entries: Record<string, Stored> };
      if (saved.version === version) stored = saved.entries;
    } catch {
      // no cache yet, or an unreadable one: start afresh
    }
    return new ParseCache(file, version, stored);
  }

  get(hash: string): CachedParse | undefined {
    const hit = this.used.get(hash);
    if (hit) return hit;
    const s = this.stored[hash];
    if (!s) return undefined;
    const entry: CachedParse =
      'plain' in s
        ? { data: undefined, positions: new Map(), schemaOk: s.schemaOk, plain: true }
        : {
            data: s.data,
            positions: new Map(s.positions.map(([id, line, column, endLine, endColumn]) => [id, { line, column, endLine, endColumn }])),
            schemaOk: s.schemaOk,
          };
    this.used.set(hash, entry);
    this.loadedPositions.set(hash, entry.positions.size);
    return entry;
  }

  set(hash: string, entry: CachedParse): void {
    if (!entry.plain && !plainData(entry.data)) return;
    this.used.set(hash, entry);
  }

  /** What is stored of the entries used. */
  private toStore(): Record<string, Stored> {
    const entries: Record<string, Stored> = {};
    for (const [hash, e] of this.used)
      entries[hash] = e.plain
        ? { plain: true, schemaOk: e.schemaOk }
        : { data: e.data, positions: [...e.positions].map(([id, p]) => [id, p.line, p.column, p.endLine, p.endColumn]), schemaOk: e.schemaOk };
    return entries;
  }

  /**
   * Writes what this run used (dropping files that are gone), when that is worth it. Writing
   * costs about as much per entry as parsing costs per 50 files, so a run that parsed a few
   * files among thousands leaves the file as it is, and the next run parses those few again.
   */
  save(): void {
    let parsed = 0; // files parsed this run, or parsed again to locate a problem
    let checked = 0; // files checked against the schemas anew
    for (const [hash, e] of this.used) {
      const stored = this.stored[hash];
      if (!stored || (!e.plain && e.positions.size !== this.loadedPositions.get(hash))) parsed++;
      if (e.schemaOk !== stored?.schemaOk) checked++;
    }
    const dropped = Object.keys(this.stored).filter((h) => !this.used.has(h)).length;
    const work = parsed * PARSE_COST_IN_ENTRIES + checked * CHECK_COST_IN_ENTRIES;
    const worth = work >= this.used.size || dropped * 4 >= this.used.size;
    if ((!work && !dropped) || !worth) return;
    const entries = this.toStore();
    // The 20 content folders validated last are kept.
    if (!storeCacheFile(this.file, serialize({ version: this.version, entries }), 20)) return;
    // What a long-lived process (content dev) saves again is measured against what it wrote.
    this.stored = entries;
    for (const [hash, e] of this.used) this.loadedPositions.set(hash, e.positions.size);
  }
}
