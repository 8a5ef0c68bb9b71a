import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { schemaFileText, translationsSchemaText } from '../schema/json-schema.ts';
import { CONTENT_TYPE_NAMES } from '../schema/layout.ts';
import { writeFileWhole } from '../util/atomic-write.ts';
import { standaloneValidators } from './validators.ts';
import { installedValidatorsFile } from './validators-file.ts';

const require = createRequire(import.meta.url);

/**
 * The JSON Schemas the validators check, generated from the zod shapes in this process, in the
 * order of `SCHEMA_NAMES` (validators.ts): every content type, then translations.yaml. The same
 * texts `npm run schemas` commits to schemas/ for the editors.
 */
export const generatedSchemaTexts = (): string[] => [...CONTENT_TYPE_NAMES.map(schemaFileText), translationsSchemaText()];

/**
 * The validators as a CommonJS module: ajv's standalone code for the schemas the zod source
 * generates, one export per content type, minified (a quarter less code for every run to load).
 * Takes about a second.
 */
export function compileValidators(texts: readonly string[] = generatedSchemaTexts()): string {
  const { transformSync } = require('esbuild') as typeof import('esbuild');
  const { code } = transformSync(standaloneValidators(texts), { minify: true, format: 'cjs', platform: 'node', target: 'node20' });
  return `// Compiled from the zod shapes of these sources (ajv standalone code, minified) by cli/validate/install-validators.ts.\n${code}`;
}

/**
 * Installs the validators of these sources unless they are: cli/bin.js calls it (through
 * `prepareValidators`) with the CLI bundle it runs, so a run only loads them. Returns their file.
 */
export function installValidators(): string {
  const file = installedValidatorsFile();
  if (existsSync(file)) return file;
  mkdirSync(dirname(file), { recursive: true });
  writeFileWhole(file, compileValidators()); // whole or not at all: a run beside this one reads either none or all
  return file;
}
