import { type KnownFiles, type Loaded, loadContent } from '../load/load.ts';
import { pictureDecoder } from '../load/picture-decode.ts';
import { type Opened, pictureReader } from '../load/picture-file.ts';
import type { Reader } from '../load/source.ts';
import { type Problem, sortProblems } from '../report/problem.ts';
import { checkLockFile } from './check-lock.ts';
import { checkSchemas } from './check-schema.ts';
import { checkImages } from './checks/images.ts';
import { assemble, type Content } from './content.ts';
import { crossCheck, type KnownChecks, PER_FILE_CHECKS } from './cross-check.ts';
import { type ImageRef, imageRefs } from './picture-refs.ts';

/** The checks of one file at a time whose findings a `KnownChecks` keeps: its schema, and the per-file cross-checks. */
export const FILE_CHECKS = ['schema', ...PER_FILE_CHECKS];

export interface ValidateResult {
  content: Content;
  problems: Problem[];
  /** Number of content files read. */
  fileCount: number;
  /** Source text of every file a problem is in that could be decoded, by file, for code frames. */
  sources: Map<string, string>;
  ok: boolean;
  /** What the load stage read, every parsed file and translations.yaml included (`content validate` counts the translations waiting for a check). */
  loaded: Loaded;
  /** Every place the content names a picture, as checked here: what the images stage and `content dev`'s pictures take. */
  pictures: ImageRef[];
}

/**
 * Stage 2: schema → cross-check, over what the load stage read. Never reads the disk, never prints,
 * never exits: returns every problem it found. `today` (YYYY-MM-DD) is for banner expiry.
 */
export function validate(
  loaded: Loaded,
  options: {
    today: string;
    known?: KnownChecks;
    /** The first bytes of a picture the content names, read by the load stage's confined reader (`pictureReader`). */
    pictures: (file: string, limit: number) => Opened;
    /** Why each of these pictures cannot be decoded (`pictureDecoder`); none: pictures are not decoded. */
    decode?: (files: string[]) => Map<string, string>;
  },
): ValidateResult {
  const { today, known } = options;
  const schemaProblems = checkSchemas(loaded.files, known?.kept('schema'));
  const failed = new Set(schemaProblems.filter((p) => p.severity === 'error').map((p) => p.file));
  for (const p of loaded.problems) if (p.severity === 'error') failed.add(p.file);
  const content = assemble(loaded.files, (f) => !failed.has(f.source!.file));
  // translations.yaml is checked like every other file (its glossary is edited by hand), though no page shows it.
  const lock = loaded.lock ? checkLockFile(loaded.lock, known?.kept('schema')).problems : [];
  const pictures = imageRefs(content);
  const crossFound = crossCheck(content, { today, known });
  const picturesFound = checkImages(pictures, { open: options.pictures, decode: options.decode });
  const problems = sortProblems([...loaded.problems, ...schemaProblems, ...lock, ...crossFound, ...picturesFound]);
  // The texts of the files the problems are in (for code frames): a file known from before is decoded only then.
  const named = new Set(problems.map((p) => p.file));
  const sources = new Map(loaded.files.flatMap((f) => (f.source && named.has(f.source.file) ? [[f.source.file, f.source.text] as const] : [])));
  return { content, problems, fileCount: loaded.files.length, sources, ok: !problems.some((p) => p.severity === 'error'), loaded, pictures };
}

export interface ValidateOptions {
  /** YYYY-MM-DD; defaults to the current date (banner expiry). */
  today?: string;
  /** What was read and checked before (cli/incremental/parse-memo.ts): unchanged files are not read or checked again. */
  known?: KnownFiles & KnownChecks;
  /** `yaml`: every file is read by the reference parser alone. */
  reader?: Reader;
}

/** load → validate, for the commands: what `content validate`, `build`, `dev` and `i18n` check. */
export function validateContent(dir: string, options: ValidateOptions = {}): ValidateResult {
  // A memo that keeps nothing of this run (KnownFiles.idle) is not asked, nor told what the checks found.
  const known = options.known?.idle ? undefined : options.known;
  const loaded = loadContent(dir, { known, reader: options.reader });
  return validate(loaded, { today: options.today ?? new Date().toISOString().slice(0, 10), known, pictures: pictureReader(dir), decode: pictureDecoder(dir) });
}
