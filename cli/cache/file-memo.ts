import type { Stats } from 'node:fs';
import type { Problem } from '../report/problem.ts';
import type { SourceFile } from '../validate/source.ts';
import { ParseCache } from './parse-cache.ts';

/**
 * A file changed less than this long before it was read may change again within the same time
 * stamp (as cli/bin.js and git's index hold): what was read of it is not trusted by its stats.
 */
const RACY_MS = 3000;

/** What reading and parsing one content file gave. */
export interface ParsedFile {
  source?: SourceFile;
  problems: Problem[];
}

interface Remembered extends ParsedFile {
  stats: Stats;
  /** The size limit it was read under (it grows with the site). */
  limit: number;
}

/** Whether two stats are of the same file with the same contents, as far as stats tell: a new write changes the time stamps, a replaced file the inode. */
const same = (a: Stats, b: Stats) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/**
 * What a long-lived process (`content dev`) read and parsed of each content file, by its path,
 * so that a save makes it read again only the files that changed: a file whose stats are the
 * ones it had when it was read is not read again (stat first, as git's index does). A file
 * written shortly before it was read is read again every time (`RACY_MS`), so two writes within
 * one time stamp are never taken for one. It also holds the parse cache open, with what this
 * process learnt (schema verdicts), instead of loading it from the disk at every save.
 */
export class FileMemo {
  private readonly files = new Map<string, Remembered>();
  private readonly found = new Map<unknown, WeakMap<SourceFile, Problem[]>>();
  private parseCacheOpened = false;
  private parseCacheHeld: ParseCache | undefined;

  constructor(readonly contentDir: string) {}

  parseCache(): ParseCache | undefined {
    if (!this.parseCacheOpened) this.parseCacheHeld = ParseCache.open(this.contentDir);
    this.parseCacheOpened = true;
    return this.parseCacheHeld;
  }

  /**
   * What check `check` found in each source it looked at: a file not read again keeps its source
   * object, and so what was found in it (cross-check.ts, for the checks of one file at a time).
   */
  kept(check: unknown): WeakMap<SourceFile, Problem[]> {
    let kept = this.found.get(check);
    if (!kept) {
      kept = new WeakMap();
      this.found.set(check, kept);
    }
    return kept;
  }

  /** What `rel` gave when it was read, if `stats` (taken now, before any read) say it is still the same file. */
  recall(rel: string, stats: Stats, limit: number): ParsedFile | undefined {
    const known = this.files.get(rel);
    return known && known.limit === limit && same(known.stats, stats) ? known : undefined;
  }

  /** Remembers what `rel` gave, read under size limit `limit`; `stats`: its stats taken before it was read, at `readAt` (ms since the epoch). */
  remember(rel: string, stats: Stats, limit: number, readAt: number, parsed: ParsedFile): void {
    const settled = readAt - RACY_MS;
    if (stats.mtimeMs < settled && stats.ctimeMs < settled) this.files.set(rel, { ...parsed, stats, limit });
    else this.files.delete(rel);
  }
}
