import type { ValidateFunction } from 'ajv';
import type { Problem } from '../report/problem.ts';
import { explain } from './explain-schema-errors.ts';
import type { LoadedFile } from './load.ts';
import { getValidators, validatorsKey } from './validators.ts';

/** Stage 2: every parsed file against the JSON Schema of its type. */
export function checkSchemas(files: LoadedFile[]): Problem[] {
  const problems: Problem[] = [];
  let validators: ReturnType<typeof getValidators> | undefined; // loaded for the first file not known to pass
  const key = validatorsKey();
  for (const f of files) {
    if (!f.source || f.source.data === undefined) continue;
    // Unchanged bytes that passed these schemas before pass them again (the parse cache remembers).
    const cached = f.source.cached;
    const passed = `${f.type}:${key}`; // the same bytes could stand in files of two types
    if (cached?.schemaOk === passed) continue;
    validators ??= getValidators();
    const validate: ValidateFunction = validators[f.type];
    if (validate(f.source.data)) {
      if (cached) cached.schemaOk = passed;
    } else problems.push(...explain(f.source, validate.errors ?? []));
  }
  return problems;
}
