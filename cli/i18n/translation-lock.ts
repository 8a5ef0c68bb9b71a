import { hash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE, type ParsedFile } from '../load/load.ts';
import type { SourceFile } from '../load/source.ts';
import { yamlPackage } from '../load/yaml-lazy.ts';
import type { Problem } from '../report/problem.ts';
import { writeFileWhole } from '../util/atomic-write.ts';
import { checkLockFile } from '../validate/check-lock.ts';
import type { GlossaryEntry } from './glossary.ts';

/**
 * content/translations.yaml: for each locale and text, a short hash of the Russian text the
 * translation was confirmed against, kept under the text's identity (LocalizedTextSite.identity in
 * localized-texts.ts), never its position. When the Russian text changes, the hash no longer matches
 * and the translation is reported as stale until a translator confirms it again (confirmations.ts).
 */
export { LOCK_FILE };

/**
 * The confirmations of one text, or of the texts known by their Russian text at one `[*]` identity:
 * then, for each Russian text confirmed there (its hash), the hash of the translation confirmed with
 * it, which tells an edited Russian text (its translation is still the one confirmed: stale) from a
 * new one (unconfirmed).
 */
export type Confirmation = string | Record<string, string>;

export interface TranslationLock {
  /** Words that may be the same in every language (names, brands): never "probably untranslated". */
  sameInAllLanguages: string[];
  /** By locale, then identity. A translations.yaml of the earlier form also has keys by position (`[3]`): carried over on reading. */
  confirmed: Record<string, Record<string, Confirmation>>;
  /** One term per thing in each language; `content i18n` warns about the other ways. Edited by hand. */
  glossary: GlossaryEntry[];
}

/** The first 10 hex digits of a text's SHA-256. */
export const sourceHash = (text: string) => hash('sha256', text, 'hex').slice(0, 10);

/**
 * The lock as the load stage read it (`Loaded.lock`: only a regular file inside the content folder,
 * its YAML parsed), checked against its schema, glossary included, with the problems that keep it
 * from being used: a lock with an error is not used at all (`unreadable`), so nothing is confirmed
 * over it. No file is an empty lock. `kept`: what its schema check found in a source before (cli/validate/cross-check.ts, KnownChecks).
 */
export function lockOf(read: ParsedFile | undefined, kept?: WeakMap<SourceFile, Problem[]>): TranslationLock & { problems: Problem[]; unreadable: boolean } {
  const empty = { sameInAllLanguages: [], confirmed: {}, glossary: [] };
  if (!read) return { ...empty, problems: [], unreadable: false };
  const { problems, parsed } = checkLockFile(read, kept);
  const refused = { ...empty, problems, unreadable: true };
  if (!parsed) return refused;
  if (problems.some((p) => p.severity === 'error')) {
    // The texts that rightly stay the same are still known, so they are not reported as untranslated too.
    const same = (read.source!.data as { sameInAllLanguages?: unknown } | null)?.sameInAllLanguages;
    const words = Array.isArray(same) && same.every((s) => typeof s === 'string') ? (same as string[]) : [];
    return { ...refused, sameInAllLanguages: words };
  }
  const data = (read.source!.data ?? {}) as Partial<TranslationLock>;
  return { sameInAllLanguages: data.sameInAllLanguages ?? [], confirmed: data.confirmed ?? {}, glossary: data.glossary ?? [], problems, unreadable: false };
}

const byName = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function writeLock(contentDir: string, lock: TranslationLock): void {
  const sorted = {
    sameInAllLanguages: [...new Set(lock.sameInAllLanguages)].sort(),
    ...(lock.glossary.length ? { glossary: lock.glossary } : {}),
    confirmed: Object.fromEntries(
      Object.keys(lock.confirmed)
        .sort()
        .map((l) => [
          l,
          Object.fromEntries(
            byName(Object.entries(lock.confirmed[l]!)).map(([k, c]) => [k, typeof c === 'string' ? c : Object.fromEntries(byName(Object.entries(c)))]),
          ),
        ]),
    ),
  };
  const header =
    `${modelineOf(join(contentDir, LOCK_FILE))}\n` +
    '# Written by `content i18n --confirm`: the Russian text each translation was checked against (a short hash), under the\n' +
    "# text's identity: file#path, a list entry named by its id, path, key or value (`[id=trial]`); `[*]` where an entry has\n" +
    '# none, and then each Russian text confirmed there with the translation confirmed with it (hash: hash).\n' +
    '# Edit only sameInAllLanguages (texts that are rightly the same in every language: names, brands) and glossary\n' +
    '# (one term per thing: `use` is the word for it in that language, `not` the other ways it must not be said).\n';
  writeWhole(join(contentDir, LOCK_FILE), header + yamlPackage().stringify(sorted, { lineWidth: 0 }));
}

/**
 * The file's own first line when it names its schema (a content folder elsewhere than beside schemas/
 * names it by another path, as the frozen test fixture does), else the one of the shipped content.
 */
function modelineOf(file: string): string {
  let first = '';
  try {
    // Only a regular file is read (a FIFO or a link in its place is written over, never opened).
    if (lstatSync(file).isFile()) first = readFileSync(file, 'utf8').split('\n', 1)[0]!;
  } catch {
    // no file yet
  }
  return first.startsWith('# yaml-language-server: $schema=') ? first : '# yaml-language-server: $schema=../schemas/translations.schema.json';
}

/**
 * Writes `text` to `path` whole or not at all, flushed to the disk and the rename with it. On a
 * full disk the old file is left as it was and no temp file stays; the error is thrown.
 */
export function writeWhole(path: string, text: string): void {
  writeFileWhole(path, text, { sync: true });
}
