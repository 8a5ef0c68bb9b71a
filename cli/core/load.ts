import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_LAYOUT, type ContentType } from '../schema/layout.ts';
import type { ParseCache } from './parse-cache.ts';
import { type Problem, UsageError } from './problem.ts';
import { didYouMean } from './similar.ts';
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
}

const YAML = /\.ya?ml$/;

/** Stage 1: read and parse every content file. The only stage besides `write` that touches the disk. */
export function loadContent(dir: string, cache?: ParseCache): Loaded {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `The content directory "${dir}" does not exist or is not a directory.`,
      'Pass --content DIR, or run the command in the project folder.',
    );
  }
  const files: LoadedFile[] = [];
  const problems: Problem[] = [];
  const known = new Set<string>();

  const read = (type: ContentType, rel: string, key: string) => {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(dir, rel));
    } catch (error) {
      problems.push({ code: 'unreadable-file', severity: 'error', message: `The file cannot be read: ${(error as Error).message}`, file: rel });
      return;
    }
    const parsed = parseSource(rel, bytes, cache);
    problems.push(...parsed.problems);
    files.push({ type, key, source: parsed.source });
  };

  for (const [type, def] of Object.entries(CONTENT_LAYOUT) as [ContentType, (typeof CONTENT_LAYOUT)[ContentType]][]) {
    if ('file' in def) {
      known.add(def.file);
      if (existsSync(join(dir, def.file))) read(type, def.file, type);
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
      const sub = join(dir, def.dir);
      if (!existsSync(sub)) {
        problems.push({
          code: 'missing-file',
          severity: 'error',
          message: `The folder ${def.dir}/ is missing.`,
          file: `${def.dir}/`,
          hint: 'Restore it from version control.',
        });
        continue;
      }
      // Entry types come with the listing, so only a symbolic link costs a stat.
      const entries = readdirSync(sub, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const name = entry.name;
        const rel = `${def.dir}/${name}`;
        if (name.startsWith('.')) continue;
        const isDir = entry.isDirectory() || (entry.isSymbolicLink() && statSync(join(sub, name), { throwIfNoEntry: false })?.isDirectory());
        if (!YAML.test(name) || isDir) {
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
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || known.has(name) || name === 'README.md' || name === 'translations.yaml') continue;
    problems.push({
      code: 'unexpected-file',
      severity: 'warning',
      message: `${name} is not a content file the site uses, so it is ignored.`,
      file: name,
      hint: didYouMean(name, known) ?? `The content files are: ${[...known].join(', ')}.`,
    });
  }
  return { dir, files, problems };
}
