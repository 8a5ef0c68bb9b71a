import { type BigIntStats, type Dirent, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expectedOf, foundOf, hintOf, messageOf, type Problem, UsageError } from '../report/problem.ts';
import { CONTENT_LAYOUT, type ContentType } from '../schema/layout.ts';
import { didYouMean } from '../util/similar.ts';
import { IMAGES_DIR } from './picture-file.ts';
import { contentFileLimit, contentRoot, readContentFile, resolveEntry } from './read-content-file.ts';
import { parseSource, type Reader, type SourceFile } from './source.ts';

export interface LoadedFile {
  type: ContentType;
  /** For one-file-per-entity types the entity key (file name without `.yaml`); otherwise the type. */
  key: string;
  source?: SourceFile;
}

export interface Loaded {
  dir: string;
  files: LoadedFile[];
  problems: Problem[];
  /** The size limit of a content file of this site (see contentFileLimit). */
  fileLimit: number;
  /** translations.yaml as read and parsed (cli/i18n/translation-lock.ts checks it), or undefined when there is none. */
  lock?: ParsedFile;
}

/** What reading and parsing one content file gave. */
export interface ParsedFile {
  source?: SourceFile;
  problems: Problem[];
}

/** The stats that tell whether a file changed since it was read (`lstat` with `bigint: true`). */
export type FileStats = Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs'>;

/**
 * What a caller knows of the files read before (a long-lived `content dev`, or a run before this
 * one: cli/incremental/parse-memo.ts). A file whose stats are those it had then is not read again.
 */
export interface KnownFiles {
  /**
   * True when nothing read now can be recalled or kept (a memo opened for a folder no run read
   * before: the next run finds an empty one, parse-memo.ts): validateContent then hands it to
   * neither stage, so no stats are taken for it before and after each read.
   */
  readonly idle?: boolean;
  /** What `rel` gave when read under size limit `limit`, if `stats` (taken now, before any read) say it is the same file. */
  recall(rel: string, stats: FileStats, limit: number): ParsedFile | undefined;
  /** What `rel` gave, read from `readAt` (ns since the epoch), its stats taken `before` and `after` the read. */
  remember(rel: string, before: FileStats, after: FileStats | undefined, limit: number, readAt: bigint, parsed: ParsedFile): void;
}

export interface LoadOptions {
  known?: KnownFiles;
  /** `yaml`: every file is read by the reference parser alone (see parseSource). */
  reader?: Reader;
}

/** The translation lock (cli/i18n/translation-lock.ts): read with the content, but no page shows it. */
export const LOCK_FILE = 'translations.yaml';

const YAML = /\.ya?ml$/;

/**
 * Stage 1: read and parse every content file. The only stage besides `write` that touches the
 * disk. Only regular files inside the content folder are read (read-content-file.ts): a FIFO,
 * a device, a link leading out of the folder or a file over its size limit is a problem, not a read.
 */
export function loadContent(dir: string, options: LoadOptions = {}): Loaded {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `The content directory "${dir}" does not exist or is not a directory.`,
      'Pass --content DIR, or run the command in the project folder.',
    );
  }
  const root = contentRoot(dir);
  const reading: Reading = { root, fileLimit: contentFileLimit(entryCount(root)), ...options, files: [], problems: [] };
  const known = new Set<string>();
  // lstat, not exists: a link that loops or leads nowhere is there, and reported as what it is.
  const present = (rel: string) => lstatSync(join(root, rel), { throwIfNoEntry: false }) !== undefined;
  known.add(IMAGES_DIR); // the pictures: read by the images stage, checked by validate where the content names them
  for (const [type, def] of Object.entries(CONTENT_LAYOUT) as [ContentType, (typeof CONTENT_LAYOUT)[ContentType]][]) {
    const name = 'file' in def ? def.file : def.dir;
    known.add(name);
    if (!present(name)) reading.problems.push(missing('file' in def ? name : `${name}/`));
    else if ('file' in def) readOne(reading, type, def.file, type);
    else readFolder(reading, type, def.dir);
  }
  const lock = !present(LOCK_FILE) ? undefined : reading.known ? recallOrRead(reading, LOCK_FILE) : readAndParse(reading, LOCK_FILE);
  return { dir, files: reading.files, problems: [...reading.problems, ...strayFiles(root, known)], fileLimit: reading.fileLimit, lock };
}

interface Reading {
  root: string;
  fileLimit: number;
  /** What was read before: files whose stats did not change are not read again. */
  known?: KnownFiles;
  reader?: Reader;
  files: LoadedFile[];
  problems: Problem[];
}

/** Course and teacher files: files that list every course (routes.yaml) grow with the site, and so does their limit. */
function entryCount(root: string): number {
  let count = 0;
  for (const def of Object.values(CONTENT_LAYOUT)) {
    if (!('dir' in def)) continue;
    const found = resolveEntry(root, def.dir);
    try {
      if ('kind' in found && found.kind === 'directory') count += readdirSync(found.path).filter((n) => YAML.test(n)).length;
    } catch {
      // reported when the folder is read
    }
  }
  return count;
}

/**
 * Reads and parses one file; `listedIn` is the real path of the folder whose listing showed it as a
 * regular file (its stats are then taken there, with no link to resolve).
 */
function readOne(reading: Reading, type: ContentType, rel: string, key: string, listedIn?: string): void {
  const parsed = reading.known ? recallOrRead(reading, rel, listedIn) : readAndParse(reading, rel);
  reading.problems.push(...parsed.problems);
  if (!parsed.unread) reading.files.push({ type, key, source: parsed.source });
}

/** What reading a file gave: parsed (possibly with problems), or `unread` for the problem that kept it from being read. */
type Read = ParsedFile & { unread?: true };

function readAndParse(reading: Reading, rel: string): Read {
  const read = readContentFile(reading.root, rel, reading.fileLimit);
  if ('problem' in read) return { problems: [read.problem], unread: true };
  return parseSource(rel, read.bytes, reading.reader);
}

/**
 * A file as `known` has it, when its stats are the ones it had when read (it is not read
 * again); else read now. The stats are those of the listed file itself, or of the regular file
 * inside the content folder that `rel` leads to, taken before and after the read.
 */
function recallOrRead(reading: Reading, rel: string, listedIn?: string): Read {
  const known = reading.known!;
  const readAt = BigInt(Date.now()) * 1_000_000n; // before the stats: a write after them is after this too
  const stat = () => (listedIn ? lstatSync(join(listedIn, rel.slice(rel.lastIndexOf('/') + 1)), STATS) : fileStats(reading, rel));
  const stats = stat();
  const recalled = stats && known.recall(rel, stats, reading.fileLimit);
  if (recalled) return recalled;
  const parsed = readAndParse(reading, rel);
  if (stats?.isFile() && !parsed.unread) known.remember(rel, stats, stat(), reading.fileLimit, readAt, parsed);
  return parsed;
}

/** Stats in nanoseconds (`Date`'s milliseconds cannot tell two writes of the same millisecond apart); a missing file has none. */
const STATS = { bigint: true, throwIfNoEntry: false } as const;

/** The stats of the regular file inside the content folder that `rel` is or links to (none when it is not one: it is then read the careful way). */
function fileStats(reading: Reading, rel: string): BigIntStats | undefined {
  const entry = resolveEntry(reading.root, rel, reading.fileLimit);
  return 'kind' in entry && entry.kind === 'file' ? lstatSync(entry.path, STATS) : undefined;
}

const missing = (file: string): Problem =>
  file.endsWith('/')
    ? { code: 'missing-file', severity: 'error', message: messageOf('missing-file', { file }, 'folder'), file, hint: hintOf('missing-file', {}, 'gone') }
    : {
        code: 'missing-file',
        severity: 'error',
        message: messageOf('missing-file', { file }),
        file,
        expected: expectedOf('missing-file', 'path', { file }),
        found: foundOf('missing-file', 'none', {}),
        hint: hintOf('missing-file', {}),
      };

/** Every .yaml file of one folder, one entity per file, in name order. */
function readFolder(reading: Reading, type: ContentType, dir: string): void {
  // A linked folder is listed only when it is inside the content folder: the names in one
  // outside it are not ours to print.
  const sub = resolveEntry(reading.root, dir);
  if ('problem' in sub || sub.kind !== 'directory') {
    reading.problems.push(
      'problem' in sub
        ? { ...sub.problem, file: `${dir}/` }
        : {
            code: 'not-a-folder',
            severity: 'error',
            message: messageOf('not-a-folder', { file: dir }),
            file: dir,
            expected: expectedOf('not-a-folder', 'folder', { file: dir }),
            found: foundOf('not-a-folder', 'file', {}),
            hint: hintOf('not-a-folder', { file: dir }),
          },
    );
    return;
  }
  // Entry types come with the listing; what a link is, is found out when it is read.
  let listing: Dirent[];
  try {
    listing = readdirSync(sub.path, { withFileTypes: true });
  } catch (error) {
    reading.problems.push({
      code: 'unreadable-file',
      severity: 'error',
      message: messageOf('unreadable-file', { file: `${dir}/`, reason: (error as NodeJS.ErrnoException).code ?? 'error' }, 'folder'),
      file: `${dir}/`,
      hint: hintOf('unreadable-file', {}, 'folder'),
    });
    return;
  }
  for (const entry of listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const problem = entryProblem(dir, entry);
    if (problem) reading.problems.push(problem);
    else if (!entry.name.startsWith('.')) readOne(reading, type, `${dir}/${entry.name}`, entry.name.replace(YAML, ''), entry.isFile() ? sub.path : undefined);
  }
}

/** Why an entry of a folder is not read as an entity: not a YAML file, or a name that is not a key. */
function entryProblem(dir: string, entry: Dirent): Problem | undefined {
  const name = entry.name;
  const rel = `${dir}/${name}`;
  if (name.startsWith('.')) return undefined;
  if (!YAML.test(name) || entry.isDirectory())
    return {
      code: 'unexpected-file',
      severity: 'warning',
      message: messageOf('unexpected-file', { file: rel }, 'notYaml'),
      file: rel,
      hint: hintOf('unexpected-file', { dir }, 'notYaml'),
    };
  if (!/^[a-z][a-zA-Z0-9_-]*$/.test(name.replace(YAML, '')))
    return {
      code: 'bad-file-name',
      severity: 'error',
      message: messageOf('bad-file-name', { name }),
      file: rel,
      expected: expectedOf('bad-file-name', 'key', {}),
      found: name,
      hint: hintOf('bad-file-name', {}),
    };
  return undefined;
}

/** Files and folders at the top of the content folder that the site does not use. */
function strayFiles(root: string, known: Set<string>): Problem[] {
  const problems: Problem[] = [];
  for (const name of readdirSync(root).sort()) {
    if (name.startsWith('.') || known.has(name) || name === 'README.md' || name === LOCK_FILE) continue;
    problems.push({
      code: 'unexpected-file',
      severity: 'warning',
      message: messageOf('unexpected-file', { file: name }),
      file: name,
      hint: didYouMean(name, known) ?? hintOf('unexpected-file', { files: [...known].join(', ') }, 'contentFiles'),
    });
  }
  return problems;
}
