import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LOCK_FILE, type ParsedFile } from '../load/load.ts';
import type { SourceFile } from '../load/source.ts';
import { yamlPackage } from '../load/yaml-lazy.ts';
import type { Problem } from '../report/problem.ts';
import { writeFileWhole } from '../util/atomic-write.ts';
import { explain } from '../validate/explain-schema-errors.ts';
import { getValidators } from '../validate/validators.ts';
import type { GlossaryEntry } from './glossary.ts';

/**
 * content/translations.yaml: for each locale and text, a short hash of the Russian text the
 * translation was confirmed against. When the Russian text changes, the hash no longer
 * matches and the translation is reported as stale until a translator confirms it again.
 */
export { LOCK_FILE };

export interface TranslationLock {
  /** Words that may be the same in every language (names, brands): never "probably untranslated". */
  sameInAllLanguages: string[];
  confirmed: Record<string, Record<string, string>>;
  /** One term per thing in each language; `content i18n` warns about the other ways. Edited by hand. */
  glossary: GlossaryEntry[];
}

export const sourceHash = (ru: string) => createHash('sha256').update(ru).digest('hex').slice(0, 10);

/**
 * The lock as the load stage read it (`Loaded.lock`: only a regular file inside the content folder,
 * its YAML parsed), checked against its schema, glossary included, with the problems that keep it
 * from being used: a lock with an error is not used at all (`unreadable`), so nothing is confirmed
 * over it. No file is an empty lock. `kept`: what its schema check found in a source before (cli/validate/cross-check.ts, KnownChecks).
 */
export function lockOf(read: ParsedFile | undefined, kept?: WeakMap<SourceFile, Problem[]>): TranslationLock & { problems: Problem[]; unreadable: boolean } {
  const empty = { sameInAllLanguages: [], confirmed: {}, glossary: [] };
  if (!read) return { ...empty, problems: [], unreadable: false };
  const { source, problems } = read;
  const refused = (list: Problem[]) => ({ ...empty, problems: list, unreadable: true });
  if (!source || source.data === undefined || problems.some((p) => p.severity === 'error')) return refused(problems);
  let invalid = kept?.get(source);
  if (!invalid) {
    const validate = getValidators().translations;
    invalid = validate(source.data) ? [] : explain(source, validate.errors ?? []);
    if (!invalid.length) kept?.set(source, invalid);
  }
  if (invalid.length) {
    // The texts that rightly stay the same are still known, so they are not reported as untranslated too.
    const same = (source.data as { sameInAllLanguages?: unknown } | null)?.sameInAllLanguages;
    const words = Array.isArray(same) && same.every((s) => typeof s === 'string') ? (same as string[]) : [];
    return { ...refused([...problems, ...invalid]), sameInAllLanguages: words };
  }
  const data = (source.data ?? {}) as Partial<TranslationLock>;
  return { sameInAllLanguages: data.sameInAllLanguages ?? [], confirmed: data.confirmed ?? {}, glossary: data.glossary ?? [], problems, unreadable: false };
}

export function writeLock(contentDir: string, lock: TranslationLock): void {
  const sorted = {
    sameInAllLanguages: [...new Set(lock.sameInAllLanguages)].sort(),
    ...(lock.glossary.length ? { glossary: lock.glossary } : {}),
    confirmed: Object.fromEntries(
      Object.keys(lock.confirmed)
        .sort()
        .map((l) => [l, Object.fromEntries(Object.entries(lock.confirmed[l]!).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))]),
    ),
  };
  const header =
    '# yaml-language-server: $schema=../schemas/translations.schema.json\n' +
    '# Written by `content i18n --confirm`: the Russian text each translation was checked against (a short hash).\n' +
    '# Edit only sameInAllLanguages (texts that are rightly the same in every language: names, brands) and glossary\n' +
    '# (one term per thing: `use` is the word for it in that language, `not` the other ways it must not be said).\n';
  writeWhole(join(contentDir, LOCK_FILE), header + yamlPackage().stringify(sorted, { lineWidth: 0 }));
}

/**
 * Writes `text` to `path` whole or not at all, flushed to the disk and the rename with it. On a
 * full disk the old file is left as it was and no temp file stays; the error is thrown.
 */
export function writeWhole(path: string, text: string): void {
  writeFileWhole(path, text, { sync: true });
}
