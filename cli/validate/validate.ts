import { ParseCache } from '../cache/parse-cache.ts';
import { ReadCache } from '../cache/read-cache.ts';
import { readLock } from '../i18n/translation-lock.ts';
import { type Problem, sortProblems } from '../report/problem.ts';
import { checkSchemas } from './check-schema.ts';
import { checkImages } from './checks/images.ts';
import { assemble, type Content } from './content.ts';
import { crossCheck, PER_FILE_CHECKS } from './cross-check.ts';
import { loadContent } from './load.ts';

export interface ValidateOptions {
  /** YYYY-MM-DD; defaults to the current date (banner expiry). */
  today?: string;
  /** Reuse parse results of unchanged files from earlier runs (default true). */
  cache?: boolean;
  /** What this process read of the same content folder before (`content dev`): unchanged files are not read again. */
  reads?: ReadCache;
}

export interface ValidateResult {
  content: Content;
  problems: Problem[];
  /** Number of content files read. */
  fileCount: number;
  /** Source text of every file a problem is in that could be decoded, by file, for code frames. */
  sources: Map<string, string>;
  ok: boolean;
}

/** load → schema → cross-check. Never prints, never exits: returns every problem it found. */
export function validateContent(dir: string, options: ValidateOptions = {}): ValidateResult {
  // Without a read cache of its own (content dev), a run takes the one the previous run kept on the disk.
  const persisted = options.cache === false || options.reads ? undefined : ReadCache.open(dir);
  const reads = options.reads?.contentDir === dir ? options.reads : persisted;
  const cache = options.cache === false ? undefined : reads ? reads.parseCache() : ParseCache.open(dir);
  const loaded = loadContent(dir, cache, reads);
  const schemaProblems = checkSchemas(loaded.files);
  const failed = new Set(schemaProblems.filter((p) => p.severity === 'error').map((p) => p.file));
  for (const p of loaded.problems) if (p.severity === 'error') failed.add(p.file);
  const content = assemble(loaded.files, (f) => !failed.has(f.source!.file));
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  // translations.yaml is checked like every other file (its glossary is edited by hand), though no page shows it.
  const lock = readLock(dir, loaded.fileLimit, cache);
  const problems = sortProblems([
    ...loaded.problems,
    ...schemaProblems,
    ...lock.problems,
    ...crossCheck(content, { today, reads }),
    ...checkImages(dir, content),
  ]);
  cache?.save(); // after every check, so the positions they asked for are kept too
  persisted?.save(PER_FILE_CHECKS);
  // The texts of the files the problems are in (for code frames): a file taken from the read cache is decoded only then.
  const named = new Set(problems.map((p) => p.file));
  const sources = new Map(loaded.files.flatMap((f) => (f.source && named.has(f.source.file) ? [[f.source.file, f.source.text] as const] : [])));
  return { content, problems, fileCount: loaded.files.length, sources, ok: !problems.some((p) => p.severity === 'error') };
}
