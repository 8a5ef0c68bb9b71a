import { readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { cacheKey, cachesOff, folderCacheFile, storeCacheFile } from '../cache/policy.ts';
import type { FileStats, KnownFiles, ParsedFile } from '../load/load.ts';
import { restoreSource, type SourceFile } from '../load/source.ts';
import type { Problem } from '../report/problem.ts';
import type { KnownChecks } from '../validate/cross-check.ts';

/**
 * A file changed less than this long before it was read may change again within the same time
 * stamp (as cli/bin.js and git's index hold): what was read of it is not trusted by its stats.
 */
const RACY_NS = 3_000_000_000n;

interface Remembered extends ParsedFile {
  stats: Identity;
  /** The size limit it was read under (it grows with the site). */
  limit: number;
  /** Taken over from the memo's file on the disk, not read by this process: its bytes as stored there. */
  restored?: Uint8Array;
}

/** What the stats tell of a file's identity and contents: a new write changes the time stamps (ctime even when mtime is put back), a replaced file the inode. */
type Identity = FileStats;

const same = (a: Identity, b: Identity) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/**
 * A file as the memo keeps it on the disk: its identity, the size limit it was read under, its bytes
 * (UTF-8: half the size of the text) and their hash, its data, and the problems each check of one file found in it.
 */
type Stored = [
  dev: bigint,
  ino: bigint,
  size: bigint,
  mtimeNs: bigint,
  ctimeNs: bigint,
  limit: number,
  bytes: Uint8Array,
  hash: string,
  data: unknown,
  found: Record<string, Problem[]>,
];

/** How many files read again cost as much as writing the memo's file once (per file it holds). */
const WRITE_COST_IN_READS = 20;

/**
 * What was read, parsed and checked of each content file, by its path, so that only the files that
 * changed are read again: a file whose stats (identity, size, mtime and ctime in nanoseconds) are the
 * ones it had when it was read is not read again (stat first, as git's index does). A file is remembered
 * only when its stats were the same before and after the read and it had not changed for `RACY_NS`
 * before the read began (git's racy-timestamp rule, with a margin for coarse file system clocks): a
 * write within one time stamp is then never taken for none, since any later write, `touch`, rename
 * or link sets its ctime to a time after the read. It also keeps what the checks of one file at a
 * time (its schema, the per-file cross-checks) found in each source.
 *
 * The load stage takes it as its `KnownFiles`, the validate stage as its `KnownChecks`; neither
 * imports it. `content dev` keeps one in memory across saves. `content validate` opens the one kept
 * on the disk (`ParseMemo.open`) and saves it when enough changed (from the second run on a folder);
 * its version is the compiler's salt (policy.ts), which covers the parsers and checks.
 * `STUDIO_NO_CACHE=1` turns that off. CPU time with it against without it (whole processes, shared
 * machine): `content dev` saving one file of a 3,000-page site 0.49, a warm `content validate` of
 * the shipped content 0.60, a rebuild after one edit at 15,000 pages 0.81; a cold build 1.02.
 */
export class ParseMemo implements KnownFiles, KnownChecks {
  private readonly files = new Map<string, Remembered>();
  private readonly found = new Map<string, WeakMap<SourceFile, Problem[]>>();

  constructor(
    readonly contentDir: string,
    private readonly stored: Map<string, Stored> = new Map(),
    private readonly file?: string,
    /** Whether the memo's file was there (possibly empty): see `save`. */
    private readonly existed = false,
  ) {}

  /** The memo a previous run kept of `contentDir` on the disk (empty when none); nothing with caches off. */
  static open(contentDir: string): ParseMemo | undefined {
    if (cachesOff()) return undefined;
    const file = folderCacheFile('parse-memo', contentDir, 'v8');
    let stored: Map<string, Stored> | undefined;
    try {
      const saved = deserialize(readFileSync(file)) as { version: string; files: Map<string, Stored> };
      if (saved.version === cacheKey('parse-memo') && saved.files instanceof Map) stored = saved.files;
    } catch {
      // none yet, or unreadable: every file is read
    }
    return new ParseMemo(contentDir, stored ?? new Map(), file, stored !== undefined);
  }

  /**
   * A memo of a folder no run read before keeps nothing of this run (`save` writes an empty one) and
   * has nothing to recall: the load stage then takes no stats for it (on 1,000 files, 2,000 `lstat`s),
   * and validateContent keeps no findings in it.
   */
  get idle(): boolean {
    return this.file !== undefined && !this.existed;
  }

  /**
   * What check `check` found in each source it looked at: a file not read again keeps its source
   * object, and so what was found in it.
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

  /** A file as the memo's file on the disk has it, when its identity and limit are the ones stored. */
  private restore(rel: string, stats: Identity, limit: number): Remembered | undefined {
    const s = this.stored.get(rel);
    if (!s || s[5] !== limit || !same({ dev: s[0], ino: s[1], size: s[2], mtimeNs: s[3], ctimeNs: s[4] }, stats)) return undefined;
    const source = restoreSource(rel, s[6], s[8], s[7]);
    for (const [check, problems] of Object.entries(s[9])) this.kept(check).set(source, problems);
    const remembered: Remembered = { source, problems: [], stats, limit, restored: s[6] };
    this.files.set(rel, remembered);
    return remembered;
  }

  /**
   * Writes the memo's file (one from `open`), when that is worth it: writing costs about as much
   * per file as reading `WRITE_COST_IN_READS` files, so a run that read a few files among thousands
   * leaves it as it is, and the next run reads those few again. `checks`: the checks whose findings
   * are kept with each file (`FILE_CHECKS`); a file taken back without a check's findings (one that
   * check does not look at, or had not looked at yet) is looked at anew. Only clean files are kept
   * (no problem of reading or parsing).
   */
  save(checks: readonly string[]): void {
    if (!this.file) return;
    // A folder read for the first time (a one-off check, a benchmark from nothing) gets an empty
    // memo: only the run after it, which shows the folder is worked on, pays for writing the files.
    if (!this.existed) {
      this.write(this.file, new Map());
      return;
    }
    const keep = [...this.files].filter(([, f]) => keepable(f));
    const read = keep.filter(([, f]) => !f.restored).length;
    const dropped = [...this.stored.keys()].filter((rel) => !this.files.get(rel)?.restored).length;
    if ((!read && !dropped) || (read + dropped) * WRITE_COST_IN_READS < keep.length) return;
    this.write(this.file, new Map(keep.map(([rel, f]) => [rel, this.storable(f, checks)])));
  }

  private write(file: string, files: Map<string, Stored>): void {
    storeCacheFile(file, serialize({ version: cacheKey('parse-memo'), files }), 20); // the 20 content folders read last
  }

  private storable(f: Remembered, checks: readonly string[]): Stored {
    const s = f.source!;
    const found = Object.fromEntries(checks.flatMap((c) => (this.found.get(c)?.has(s) ? [[c, this.found.get(c)!.get(s)!]] : [])));
    const { dev, ino, size, mtimeNs, ctimeNs } = f.stats;
    return [dev, ino, size, mtimeNs, ctimeNs, f.limit, f.restored ?? Buffer.from(s.text), s.hash, s.data, found];
  }
}

/** Whether a remembered file can be kept on the disk: clean, its data plain. */
function keepable(f: Remembered): boolean {
  const s = f.source;
  return Boolean(s && s.data !== undefined && !f.problems.length && plainData(s.data));
}

/** Whether data survives V8's serializer unchanged: plain objects, arrays and scalars (anything else would lose its prototype). */
function plainData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return true;
  if (Array.isArray(value)) return value.every(plainData);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(plainData);
  return false;
}
