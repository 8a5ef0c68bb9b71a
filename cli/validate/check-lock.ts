import type { ParsedFile } from '../load/load.ts';
import type { SourceFile } from '../load/source.ts';
import type { Problem } from '../report/problem.ts';
import { explain } from './explain-schema-errors.ts';
import { getValidators } from './validators.ts';

/**
 * translations.yaml as the load stage read it, against its schema (its glossary is edited by hand):
 * the problems of reading it, then, once it parsed (`parsed`), those of its schema. `kept`: what
 * its schema check found in a source before (KnownChecks in cross-check.ts). validate reports these;
 * `content i18n` uses no confirmation of a file with an error (cli/i18n/translation-lock.ts).
 */
export function checkLockFile(read: ParsedFile, kept?: WeakMap<SourceFile, Problem[]>): { problems: Problem[]; parsed: boolean } {
  const { source, problems } = read;
  if (!source || source.data === undefined || problems.some((p) => p.severity === 'error')) return { problems, parsed: false };
  let invalid = kept?.get(source);
  if (!invalid) {
    const validate = getValidators().translations;
    invalid = validate(source.data) ? [] : explain(source, validate.errors ?? []);
    if (!invalid.length) kept?.set(source, invalid);
  }
  return { problems: [...problems, ...invalid], parsed: true };
}
