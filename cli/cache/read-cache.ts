import { type BigIntStats, readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { cacheKey, cachesOff, folderCacheFile, storeCacheFile } from '../incremental/policy.ts';
import type { Problem } from '../report/problem.ts';
import { restoreSource, type SourceFile } from '../validate/source.ts';
import { ParseCache } from './parse-cache.ts';

/**
 * A file changed less than this long before it was read may change again within the same time
 * stamp (as cli/bin.js and git's index hold): what was read of it is not trusted by its stats.
 */
const RACY_NS = 3_000_000_000n;

/** What reading and parsing one content file gave. */
export interface ParsedFile {
  source?: SourceFile;
  problems: Problem[];
}

interface Remembered extends ParsedFile {
  stats: Identity;
  /** The size limit it was read under (it grows with the site). */
  limit: number;
  /** Taken over from the read cache's file on the disk, not read by this process. */
  restored?: true;
}

/** What the stats tell of a file's identity and contents: a new write changes the time stamps (ctime even when mtime is put back), a replaced file the inode. */
type Identity = Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs'>;

const same = (a: Identity, b: Identity) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/**
 * A file as the read cache keeps it on the disk: its identity, the size limit it was read under, the
 * hash of its bytes (its parse cache entry), its bytes (UTF-8: half the size of the text), the data the plain reader gave (undefined
 * when the parse cache holds the data), and the problems each per-file check found in it.
 */
type Stored = [
  dev: bigint,
  ino: bigint,
  size: bigint,
  mtimeNs: bigint,
  ctimeNs: bigint,
  limit: number,
  hash: string,
  bytes: Uint8Array,
  plainData: unknown,
  found: Record<string, Problem[]>,
];

/** How many files read again cost as much as writing the read cache's file once (per file it holds). */
const WRITE_COST_IN_READS = 20;

/**
 * What was read and parsed of each content file, by its path, so that only the files that changed
 * are read again: a file whose stats (identity, size, mtime and ctime in nanoseconds) are the ones
 * it had when it was read is not read again (stat first, as git's index does). A file is remembered
 * only when its stats were the same before and after the read and it had not changed for `RACY_NS`
 * before the read began (git's racy-timestamp rule, with a margin for coarse file system clocks): a
 * write within one time stamp is then never taken for none, since any later write, `touch`, rename
 * or link sets its ctime to a time after the read. It also holds the parse cache open, with what it
 * learnt (schema verdicts), and what the per-file checks found in each source.
 *
 * `content dev` keeps one in memory across saves. A build or `content validate` opens the one kept on
 * the disk (`ReadCache.open`) and saves it when enough changed (from the second run on a folder), so
 * a rebuild reads only the files changed since; its version is the compiler's salt (policy.ts), which covers the parsers and checks.
 */
export class ReadCache {
  private readonly files = new Map<string, Remembered>();
  private readonly found = new Map<string, WeakMap<SourceFile, Problem[]>>();
  private parseCacheOpened = false;
  private parseCacheHeld: ParseCache | undefined;

  constructor(
    readonly contentDir: string,
    private readonly stored: Map<string, Stored> = new Map(),
    private readonly file?: string,
    /** Whether the read cache's file was there (possibly empty): see `save`. */
    private readonly existed = false,
  ) {}

  /** The read cache a previous run kept of `contentDir` on the disk (empty when none); nothing with caches off. */
  static open(contentDir: string): ReadCache | undefined {
    if (cachesOff()) return undefined;
    const file = folderCacheFile('files', contentDir, 'v8');
    let stored: Map<string, Stored> | undefined;
    try {
      const saved = deserialize(readFileSync(file)) as { version: string; files: Map<string, Stored> };
      if (saved.version === cacheKey('read-cache') && saved.files instanceof Map) stored = saved.files;
    } catch {
      // none yet, or unreadable: every file is read
    }
    return new ReadCache(contentDir, stored ?? new Map(), file, stored !== undefined);
  }

  parseCache(): ParseCache | undefined {
    if (!this.parseCacheOpened) this.parseCacheHeld = ParseCache.open(this.contentDir);
    this.parseCacheOpened = true;
    return this.parseCacheHeld;
  }

  /**
   * What check `check` found in each source it looked at: a file not read again keeps its source
   * object, and so what was found in it (cross-check.ts, for the checks of one file at a time).
   */
  kept(check: string): WeakMap<SourceFile, Problem[]> {
    let kept = this.found.get(check);
    if (!kept) {
      kept = new WeakMap();
      this.found.set(check, kept);
    }
    return kept;
  }

  /** What `rel` gave when it was read, if `stats` (taken now, before any read) say it is still the same file. */
  recall(rel: string, stats: Identity, limit: number): ParsedFile | undefined {
    const known = this.files.get(rel) ?? this.restore(rel, stats, limit);
    return known && known.limit === limit && same(known.stats, stats) ? known : undefined;
  }

  /**
   * Remembers what `rel` gave, read under size limit `limit` from `readAt` (ns since the epoch, taken
   * before `before`); `before` and `after`: its stats before and after the read.
   */
  remember(rel: string, before: Identity, after: Identity | undefined, limit: number, readAt: bigint, parsed: ParsedFile): void {
    const settled = readAt - RACY_NS;
    if (after && same(before, after) && before.mtimeNs < settled && before.ctimeNs < settled) this.files.set(rel, { ...parsed, stats: before, limit });
    else this.files.delete(rel);
  }

  /** A file as the read cache's file on the disk has it, when its identity and limit are the ones stored. */
  private restore(rel: string, stats: Identity, limit: number): Remembered | undefined {
    const s = this.stored.get(rel);
    if (!s || s[5] !== limit || !same({ dev: s[0], ino: s[1], size: s[2], mtimeNs: s[3], ctimeNs: s[4] }, stats)) return undefined;
    const cache = this.parseCache();
    const source = cache && restoreSource(rel, s[7], s[6], s[8], cache);
    if (!source) return undefined;
    for (const [check, problems] of Object.entries(s[9])) this.kept(check).set(source, problems);
    const remembered: Remembered = { source, problems: [], stats, limit, restored: true };
    this.files.set(rel, remembered);
    return remembered;
  }

  /**
   * Writes the read cache's file (one from `open`), when that is worth it: writing costs about as much
   * per file as reading `WRITE_COST_IN_READS` files, so a run that read a few files among thousands
   * leaves it as it is, and the next run reads those few again. `checks`: the per-file checks every
   * source kept must have been looked at by. Only clean files are kept (no problem of reading or parsing).
   */
  save(checks: readonly string[]): void {
    if (!this.file) return;
    // A folder read for the first time (a one-off check, a benchmark from nothing) gets an empty
    // read cache: only the run after it, which shows the folder is worked on, pays for writing the files.
    if (!this.existed) {
      this.write(this.file, new Map());
      return;
    }
    const keep = [...this.files].filter(([, f]) => keepable(f, checks, (c) => this.found.get(c)));
    const read = keep.filter(([, f]) => !f.restored).length;
    const dropped = [...this.stored.keys()].filter((rel) => !this.files.get(rel)?.restored).length;
    if ((!read && !dropped) || (read + dropped) * WRITE_COST_IN_READS < keep.length) return;
    this.write(this.file, new Map(keep.map(([rel, f]) => [rel, this.storable(f, checks)])));
  }

  private write(file: string, files: Map<string, Stored>): void {
    storeCacheFile(file, serialize({ version: cacheKey('read-cache'), files }), 20); // the 20 content folders read last
  }

  private storable(f: Remembered, checks: readonly string[]): Stored {
    const s = f.source!;
    const found = Object.fromEntries(checks.map((c) => [c, this.found.get(c)!.get(s)!]));
    const { dev, ino, size, mtimeNs, ctimeNs } = f.stats;
    return [dev, ino, size, mtimeNs, ctimeNs, f.limit, s.hash!, Buffer.from(s.text), s.cached!.plain ? s.data : undefined, found];
  }
}

/** Whether a remembered file can be kept on the disk: clean, in the parse cache, looked at by every per-file check. */
function keepable(f: Remembered, checks: readonly string[], kept: (check: string) => WeakMap<SourceFile, Problem[]> | undefined): boolean {
  const s = f.source;
  return Boolean(s?.hash && s.cached && s.data !== undefined && !f.problems.length && checks.every((c) => kept(c)?.has(s)));
}
