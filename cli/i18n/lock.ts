import { createHash } from 'node:crypto';
import { lstatSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { Problem } from '../report/problem.ts';
import { contentRoot, readContentFile } from '../validate/read-content-file.ts';
import type { GlossaryEntry } from './glossary.ts';

/**
 * content/translations.yaml: for each locale and text, a short hash of the Russian text the
 * translation was confirmed against. When the Russian text changes, the hash no longer
 * matches and the translation is reported as stale until a translator confirms it again.
 */
export const LOCK_FILE = 'translations.yaml';

export interface TranslationLock {
  /** Words that may be the same in every language (names, brands): never "probably untranslated". */
  sameInAllLanguages: string[];
  confirmed: Record<string, Record<string, string>>;
  /** One term per thing in each language; `content i18n` warns about the other ways. Edited by hand. */
  glossary: GlossaryEntry[];
}

export const sourceHash = (ru: string) => createHash('sha256').update(ru).digest('hex').slice(0, 10);

/** The lock, read like every content file (only a regular file inside the content folder); a problem instead when it cannot be. */
export function readLock(contentDir: string, maxBytes?: number): TranslationLock & { problem?: Problem } {
  const empty = { sameInAllLanguages: [], confirmed: {}, glossary: [] };
  if (!lstatSync(join(contentDir, LOCK_FILE), { throwIfNoEntry: false })) return empty;
  const read = readContentFile(contentRoot(contentDir), LOCK_FILE, maxBytes);
  if ('problem' in read) return { ...empty, problem: read.problem };
  const data = (parse(read.bytes.toString('utf8')) ?? {}) as Partial<TranslationLock>;
  return { sameInAllLanguages: data.sameInAllLanguages ?? [], confirmed: data.confirmed ?? {}, glossary: data.glossary ?? [] };
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
  writeFileSync(join(contentDir, LOCK_FILE), header + stringify(sorted, { lineWidth: 0 }));
}
