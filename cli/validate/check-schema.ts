import type { ValidateFunction } from 'ajv';
import type { LoadedFile } from '../load/load.ts';
import type { SourceFile } from '../load/source.ts';
import { textsCutByComment } from '../load/yaml-comments.ts';
import type { Problem } from '../report/problem.ts';
import { explain } from './explain-schema-errors.ts';
import { getValidators } from './validators.ts';

/**
 * Every parsed file against the JSON Schema of its type. `kept`: the sources that passed before (a
 * file not read again keeps its source, and its type with it); a file that failed is checked anew,
 * as the validators a run loads (a cache of their own) may differ.
 */
export function checkSchemas(files: LoadedFile[], kept?: WeakMap<SourceFile, Problem[]>): Problem[] {
  const problems: Problem[] = [];
  let validators: ReturnType<typeof getValidators> | undefined; // loaded for the first file not checked before
  for (const f of files) {
    if (!f.source || f.source.data === undefined) continue;
    const known = kept?.get(f.source);
    if (known) {
      problems.push(...known);
      continue;
    }
    validators ??= getValidators();
    const validate: ValidateFunction = validators[f.type];
    const found = [...(validate(f.source.data) ? [] : explain(f.source, validate.errors ?? [])), ...textsCutByComment(f.source)];
    if (!found.length) kept?.set(f.source, found);
    problems.push(...found);
  }
  return problems;
}
