import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CACHE_DIR, fromRoot } from '../paths.ts';
import type { Position } from './source.ts';

/** What parsing one file gave: its data and the positions asked for so far. */
export interface CachedParse {
  data: unknown;
  positions: Map<string, Position>;
}

type Stored = { data: unknown; positions: [string, number, number, number, number][] };

export const contentHash = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('base64url');

/** Changes whenever parsing could give a different result: this format, or another version of `yaml`. */
function cacheVersion(): string {
  let yaml = '?';
  try {
    yaml = (JSON.parse(readFileSync(fromRoot('node_modules', 'yaml', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // no version to compare: the cache still works within this installation
  }
  return `parse-2/yaml-${yaml}`;
}

/** Whether data survives a JSON round trip unchanged (YAML's .inf and .nan do not). */
function jsonSafe(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(jsonSafe);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(jsonSafe);
  return false;
}

/**
 * Parse results of content files by the hash of their bytes, kept between runs under
 * node_modules/.cache, one file per content directory. A file whose bytes are unchanged is
 * not parsed again: its data and the positions of its problems come from here, and the
 * YAML document is parsed only when a position is needed that was not asked for before.
 * A file with parse problems is never cached. `STUDIO_NO_CACHE=1` turns it off.
 */
export class ParseCache {
  private readonly used = new Map<string, CachedParse>();
  private readonly loadedPositions = new Map<string, number>();
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly version: string,
    private readonly stored: Record<string, Stored>,
  ) {}

  static open(contentDir: string): ParseCache | undefined {
    if (process.env.STUDIO_NO_CACHE === '1') return undefined;
    const dir = join(CACHE_DIR, 'parse');
    const file = join(dir, `${createHash('sha1').update(resolve(contentDir)).digest('hex').slice(0, 16)}.json`);
    const version = cacheVersion();
    let stored: Record<string, Stored> = {};
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { version: string; entries: Record<string, Stored> };
      if (json.version === version) stored = json.entries;
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
    const entry = { data: s.data, positions: new Map(s.positions.map(([id, line, column, endLine, endColumn]) => [id, { line, column, endLine, endColumn }])) };
    this.used.set(hash, entry);
    this.loadedPositions.set(hash, entry.positions.size);
    return entry;
  }

  set(hash: string, entry: CachedParse): void {
    if (!jsonSafe(entry.data)) return;
    this.used.set(hash, entry);
    this.changed = true;
  }

  /** Writes what this run used (dropping files that are gone), if anything changed. */
  save(): void {
    const grew = [...this.used].some(([hash, e]) => e.positions.size !== (this.loadedPositions.get(hash) ?? -1));
    const dropped = Object.keys(this.stored).some((h) => !this.used.has(h));
    if (!this.changed && !grew && !dropped) return;
    const entries: Record<string, Stored> = {};
    for (const [hash, e] of this.used)
      entries[hash] = { data: e.data, positions: [...e.positions].map(([id, p]) => [id, p.line, p.column, p.endLine, p.endColumn]) };
    try {
      mkdirSync(join(CACHE_DIR, 'parse'), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ version: this.version, entries }));
      renameSync(tmp, this.file);
      prune(join(CACHE_DIR, 'parse'));
    } catch {
      // A cache that cannot be written only makes the next run slower.
    }
  }
}

/** Keeps the cache folder small: the 20 content folders validated last, none older than a week. */
function prune(dir: string): void {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  const files = readdirSync(dir)
    .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  files.forEach((f, i) => {
    if (i >= 20 || f.mtime < weekAgo) rmSync(f.path, { force: true });
  });
}
