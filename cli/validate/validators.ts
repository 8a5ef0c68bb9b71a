import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { cacheFolder, cacheKey, cachesOff, pruneCache } from '../cache/policy.ts';
import { CACHE_DIR, fromRoot } from '../paths.ts';
import { CONTENT_TYPE_NAMES, type ContentType, schemaFileName } from '../schema/layout.ts';

const require = createRequire(import.meta.url);
type Validators = Record<ContentType, ValidateFunction>;
let validators: Validators | undefined;
let key: string | undefined;

/**
 * The schemas carry the editor's messages (`errorMessage`, `patternErrorMessage`, read by
 * yaml-language-server): declared here, so ajv accepts them even in strict mode.
 */
export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  keywords: ['errorMessage', 'patternErrorMessage'],
};

/** Changes whenever the schemas, the compiler or ajv do: data that passed them under one key need not be checked again. */
export function validatorsKey(): string {
  if (!key) getValidators();
  return key!;
}

/**
 * One ajv validator per content type, from the committed JSON Schemas in schemas/ (a test
 * keeps them equal to the zod source). Compiling them takes most of a second, so the
 * compiled code is cached as a module keyed by the schemas and the compiler's salt (which
 * holds this file's ajv options and, through the lockfile, ajv's version); later runs only load
 * it. Formats are checked by the patterns zod writes next to them, so no format plug-in is needed.
 */
export function getValidators(): Validators {
  if (validators) return validators;
  const texts = CONTENT_TYPE_NAMES.map((t) => readFileSync(fromRoot('schemas', schemaFileName(t)), 'utf8'));
  key = cacheKey('validators', ...texts);
  const name = `${key}.cjs`;
  let cached: string | undefined;
  try {
    cached = join(cacheFolder('validators'), name);
  } catch {
    // no cache folder (a read-only node_modules): compile, and keep nothing
  }
  if (cached && !cachesOff() && existsSync(cached)) {
    try {
      validators = require(cached) as Validators;
      return validators;
    } catch {
      // A damaged cache file: compile again below.
    }
  }
  const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  // inlineRefs: false keeps one function per shared definition (LocalizedText), not 700 inlined copies.
  const ajv = new Ajv.default({ ...AJV_OPTIONS, verbose: true, inlineRefs: false, code: { source: true } });
  const schemas = Object.fromEntries(CONTENT_TYPE_NAMES.map((t, i) => [t, JSON.parse(texts[i]!)])) as Record<ContentType, { $id: string }>;
  for (const t of CONTENT_TYPE_NAMES) ajv.addSchema(schemas[t]);
  validators = Object.fromEntries(CONTENT_TYPE_NAMES.map((t) => [t, ajv.getSchema(schemas[t].$id)!])) as Validators;
  if (!cached) return validators;
  try {
    const code = standaloneCode(ajv, Object.fromEntries(CONTENT_TYPE_NAMES.map((t) => [t, schemas[t].$id])));
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, cached);
    pruneCache(dirname(cached), 5, name);
    // Where versions before the cache policy kept them: one module per schema change, never pruned.
    for (const old of readdirSync(CACHE_DIR)) if (/^validators-[0-9a-f]{16}\.cjs$/.test(old)) rmSync(join(CACHE_DIR, old), { force: true });
  } catch {
    // The cache is only an optimisation; a read-only node_modules must not stop validation.
  }
  return validators;
}
