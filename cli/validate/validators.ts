import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { fromRoot } from '../paths.ts';
import { UsageError } from '../report/problem.ts';
import { CONTENT_TYPE_NAMES, type ContentType } from '../schema/layout.ts';
import { installedValidatorsFile } from './validators-file.ts';

const require = createRequire(import.meta.url);
/** One validator per content type, and one for content/translations.yaml. */
type Validators = Record<ContentType | 'translations', ValidateFunction>;
const SCHEMA_NAMES = [...CONTENT_TYPE_NAMES, 'translations'] as const;
let validators: Validators | undefined;

/**
 * The schemas carry the editor's messages (`errorMessage`, `patternErrorMessage`, read by
 * yaml-language-server): declared here, so ajv accepts them even in strict mode. Formats are
 * checked (ajv-formats' full definitions, the ones the editor applies too): a `baseUrl` without
 * "https://" is refused. Dates and e-mail addresses carry a pattern instead (json-schema.ts).
 */
/** Where the standalone validators take the format definitions from at run time. */
const FORMATS_MODULE = 'ajv-formats/dist/formats';
const { fullFormats } = require(FORMATS_MODULE) as typeof import('ajv-formats/dist/formats.js');
export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: true,
  formats: { uri: fullFormats.uri },
  keywords: ['errorMessage', 'patternErrorMessage'],
};
// verbose: explain() reads each error's schema and data; inlineRefs: false keeps one function per
// shared definition (LocalizedText), not 700 inlined copies. unicode: false measures minLength by
// `length`, not by walking every text to count its code points (a fifth of the validators' time):
// the same for a minimum of 1, the only one the schemas have. unicodeRegExp: false compiles patterns
// without the `u` flag, which scans a text two to five times faster (every text is checked against
// two patterns): the same for patterns of characters of the Basic Multilingual Plane, without `.`
// or property classes, the only ones the schemas have. Both: tests/validate/validators.test.ts.
const COMPILE_OPTIONS = { ...AJV_OPTIONS, verbose: true, inlineRefs: false, unicode: false, unicodeRegExp: false };
/** The options ajv compiles with; loads ajv (only a run that compiles needs it), for its code template tag. */
const compileOptions = () => ({
  ...COMPILE_OPTIONS,
  // The standalone validators take the format definitions from ajv-formats at run time.
  code: { source: true, formats: (require('ajv') as typeof import('ajv'))._`require(${FORMATS_MODULE}).fullFormats` },
});

/** ajv's console, without its note that the option `unicode` is deprecated: ajv 8 still honours it, and it is chosen on purpose (above). */
const QUIET_ON_UNICODE = {
  log: console.log,
  warn: (...args: unknown[]) => {
    if (!String(args[0]).includes('option unicode')) console.warn(...args);
  },
  error: console.error,
};

/** The schemas compiled by ajv in this process, and the id each content type is found under. */
function compile(texts: readonly string[]) {
  const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv.default({ ...compileOptions(), logger: QUIET_ON_UNICODE });
  const ids = texts.map((text) => (JSON.parse(text) as { $id: string }).$id);
  for (const text of texts) ajv.addSchema(JSON.parse(text));
  return { ajv, refs: Object.fromEntries(SCHEMA_NAMES.map((t, i) => [t, ids[i]!])) as Record<(typeof SCHEMA_NAMES)[number], string> };
}

/** ajv's standalone code (a CommonJS module, one export per content type) for `texts`, the schemas in the order of `SCHEMA_NAMES`. */
export function standaloneValidators(texts: readonly string[]): string {
  const { ajv, refs } = compile(texts);
  return (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default(ajv, refs);
}

/**
 * One ajv validator per content type, for the JSON Schemas the zod source generates: compiled
 * ahead of time, beside the CLI bundle of these sources (validators-file.ts), so a run only loads
 * them (compiling takes about a second, loading a few milliseconds) and never checks by the
 * rules of older sources. cli/bin.js installs them with the bundle; a process that finds them
 * missing (a test run through vitest, a folder deleted by hand) has `content --version` install
 * them first: the zod shapes are loaded only there, not by every run (80 ms for zod alone).
 */
export function getValidators(): Validators {
  if (validators) return validators;
  const file = installedValidatorsFile();
  if (!existsSync(file)) install();
  validators = require(file) as Validators;
  return validators;
}

/** Installs the validators by the CLI itself (see `getValidators`); when it cannot, says what to run. */
function install(): void {
  const r = spawnSync(process.execPath, [fromRoot('cli', 'bin.js'), '--version'], { encoding: 'utf8' });
  const file = installedValidatorsFile();
  if (!existsSync(file))
    throw new UsageError(
      `The content validators of this compiler are not installed (${file}), and this run could not compile them from the zod shapes in cli/schema/${r.status === 0 ? '' : ` ("content --version" exited ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().split('\n')[0]})`}.`,
      'Run "node cli/bin.js --version" (what "npm ci" runs) as a user who may write node_modules/, then run this command again.',
    );
}

/** The validators compiled by ajv in this process, from schema texts in the order of `SCHEMA_NAMES` (the reference the installed ones are held to). */
export function compileWithAjv(texts: readonly string[]): Validators {
  const { ajv, refs } = compile(texts);
  return Object.fromEntries(SCHEMA_NAMES.map((t) => [t, ajv.getSchema(refs[t])!])) as Validators;
}
