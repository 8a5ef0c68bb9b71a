import { type Dirent, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseCache } from '../cache/parse-cache.ts';
import { type Problem, UsageError } from '../report/problem.ts';
import { CONTENT_LAYOUT, type ContentType } from '../schema/layout.ts';
import { didYouMean } from '../util/similar.ts';
import { contentFileLimit, contentRoot, readContentFile, resolveEntry } from './read-content-file.ts';
import { parseSource, type SourceFile } from './source.ts';

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
}

const YAML = /\.ya?ml$/;

/**
 * Stage 1: read and parse every content file. The only stage besides `write` that touches the
 * disk. Only regular files inside the content folder are read (read-content-file.ts): a FIFO,
 * a device, a link leading out of the folder or a file over its size limit is a problem, not a read.
 */
export function loadContent(dir: string, cache?: ParseCache): Loaded {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `The content directory "${dir}" does not exist or is not a directory.`,
      'Pass --content DIR, or run the command in the project folder.',
    );
  }
  const root = contentRoot(dir);
  const files: LoadedFile[] = [];
  const problems: Problem[] = [];
  const known = new Set<string>();
  // lstat, not exists: a link that loops or leads nowhere is there, and reported as what it is.
  const present = (rel: string) => lstatSync(join(root, rel), { throwIfNoEntry: false }) !== undefined;
  // Files that list every course (routes.yaml) grow with the site, and so does their limit.
  const entryCount = (folder: string) => {
    const found = resolveEntry(root, folder);
    try {
      return 'kind' in found && found.kind === 'directory' ? readdirSync(found.path).filter((n) => YAML.test(n)).length : 0;
    } catch {
      return 0; // reported when the folder is read
    }
  };
  const fileLimit = contentFileLimit(Object.values(CONTENT_LAYOUT).reduce((n, def) => n + ('dir' in def ? entryCount(def.dir) : 0), 0));

  const read = (type: ContentType, rel: string, key: string) => {
    const read = readContentFile(root, rel, fileLimit);
    if ('problem' in read) {
      problems.push(read.problem);
      return;
    }
    const parsed = parseSource(rel, read.bytes, cache);
    problems.push(...parsed.problems);
    files.push({ type, key, source: parsed.source });
  };

  for (const [type, def] of Object.entries(CONTENT_LAYOUT) as [ContentType, (typeof CONTENT_LAYOUT)[ContentType]][]) {
    if ('file' in def) {
      known.add(def.file);
      if (present(def.file)) read(type, def.file, type);
      else
        problems.push({
          code: 'missing-file',
          severity: 'error',
          message: `The file ${def.file} is missing.`,
          file: def.file,
          expected: `content/${def.file}`,
          found: 'no such file',
          hint: 'Every site needs this file; restore it from version control.',
        });
    } else {
      known.add(def.dir);
      if (!present(def.dir)) {
        problems.push({
          code: 'missing-file',
          severity: 'error',
          message: `The folder ${def.dir}/ is missing.`,
          file: `${def.dir}/`,
          hint: 'Restore it from version control.',
        });
        continue;
      }
      // A linked folder is listed only when it is inside the content folder: the names in one
      // outside it are not ours to print.
      const sub = resolveEntry(root, def.dir);
      if ('problem' in sub || sub.kind !== 'directory') {
        problems.push(
          'problem' in sub
            ? { ...sub.problem, file: `${def.dir}/` }
            : {
                code: 'not-a-folder',
                severity: 'error',
                message: `The content needs a folder ${def.dir}/, but ${def.dir} is a file.`,
                file: def.dir,
                expected: `a folder ${def.dir}/ with one .yaml file per entry`,
                found: 'a file',
                hint: `Restore the folder ${def.dir}/ from version control.`,
              },
        );
        continue;
      }
      // Entry types come with the listing; what a link is, is found out when it is read.
      let listing: Dirent[];
      try {
        listing = readdirSync(sub.path, { withFileTypes: true });
      } catch (error) {
        problems.push({
          code: 'unreadable-file',
          severity: 'error',
          message: `The folder ${def.dir}/ cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
          file: `${def.dir}/`,
          hint: 'Check the permissions of the folder.',
        });
        continue;
      }
      const entries = listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const name = entry.name;
        const rel = `${def.dir}/${name}`;
        if (name.startsWith('.')) continue;
        if (!YAML.test(name) || entry.isDirectory()) {
          problems.push({
            code: 'unexpected-file',
            severity: 'warning',
            message: `${rel} is not a YAML file and is ignored.`,
            file: rel,
            hint: `Only .yaml files in ${def.dir}/ are read.`,
          });
          continue;
        }
        const key = name.replace(YAML, '');
        if (!/^[a-z][a-zA-Z0-9_-]*$/.test(key)) {
          problems.push({
            code: 'bad-file-name',
            severity: 'error',
            message: `The file name "${name}" is not a valid key.`,
            file: rel,
            expected: 'a name that starts with a lowercase letter and has only letters, digits, "_" and "-"',
            found: name,
            hint: 'The file name is the key other files use to refer to this entry; rename the file.',
          });
          continue;
        }
        read(type, rel, key);
      }
    }
  }
  for (const name of readdirSync(root).sort()) {
    if (name.startsWith('.') || known.has(name) || name === 'README.md' || name === 'translations.yaml') continue;
    problems.push({
      code: 'unexpected-file',
      severity: 'warning',
      message: `${name} is not a content file the site uses, so it is ignored.`,
      file: name,
      hint: didYouMean(name, known) ?? `The content files are: ${[...known].join(', ')}.`,
    });
  }
  return { dir, files, problems, fileLimit };
}
