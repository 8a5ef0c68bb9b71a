import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { fromRoot } from '../paths.ts';
import { CONTENT_TYPE_NAMES, type ContentType, schemaFileName } from '../schema/layout.ts';

const require = createRequire(import.meta.url);
/** One validator per content type, and one for content/translations.yaml. */
type Validators = Record<ContentType | 'translations', ValidateFunction>;
const SCHEMA_NAMES = [...CONTENT_TYPE_NAMES, 'translations'] as const;
const schemaFile = (name: (typeof SCHEMA_NAMES)[number]) => (name === 'translations' ? 'translations.schema.json' : schemaFileName(name));
let validators: Validators | undefined;
let key: string | undefined;

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

/** The compiled validators shipped with the compiler, written by `npm run schemas` (scripts/write-schemas.ts). */
export const VALIDATORS_FILE = 'validators.cjs';

/**
 * What compiled validators are made from: the schema texts, ajv's version and the options. The
 * shipped module records it; a module made from anything else is not used.
 */
function sourceKey(texts: readonly string[]): string {
  const ajv = (JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256').update(`ajv ${ajv}\0${JSON.stringify(COMPILE_OPTIONS)}\0formats from ${FORMATS_MODULE}`);
  for (const text of texts) hash.update('\0').update(text);
  return hash.digest('hex').slice(0, 24);
}

/** ajv's console, without its note that the option `unicode` is deprecated: ajv 8 still honours it, and it is chosen on purpose (above). */
const QUIET_ON_UNICODE = {
  log: console.log,
  warn: (...args: unknown[]) => {
    if (!String(args[0]).includes('option unicode')) console.warn(...args);
  },
  error: console.error,
};

const schemaTexts = () => SCHEMA_NAMES.map((t) => readFileSync(fromRoot('schemas', schemaFile(t)), 'utf8'));

/** The schemas compiled by ajv in this process, and the id each content type is found under. */
function compile(texts: readonly string[]) {
  const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv.default({ ...compileOptions(), logger: QUIET_ON_UNICODE });
  const ids = texts.map((text) => (JSON.parse(text) as { $id: string }).$id);
  for (const text of texts) ajv.addSchema(JSON.parse(text));
  return { ajv, refs: Object.fromEntries(SCHEMA_NAMES.map((t, i) => [t, ids[i]!])) as Record<(typeof SCHEMA_NAMES)[number], string> };
}

const standalone = ({ ajv, refs }: ReturnType<typeof compile>, texts: readonly string[]) =>
  `${(require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default(ajv, refs)}\nexports.builtFrom = ${JSON.stringify(sourceKey(texts))};\n`;

/**
 * The validators as a CommonJS module: ajv's standalone code for the schemas in schemas/ (one
 * export per content type) and `builtFrom`, the key of what it was made from. Takes about a second.
 * Minified: a quarter less code for every run to load.
 */
export function compileValidators(): string {
  const texts = schemaTexts();
  const { transformSync } = require('esbuild') as typeof import('esbuild');
  const { code } = transformSync(standalone(compile(texts), texts), { minify: true, format: 'cjs', platform: 'node', target: 'node20' });
  return `// Written by \`npm run schemas\` from the schemas beside it (ajv standalone code, minified): do not edit.\n${code}`;
}

/**
 * Changes whenever the schemas or ajv do: data that passed them under one key need not be checked
 * again. Made from the schemas' texts alone, so a run whose files all passed before never loads the
 * validators (400 KB of code, a tenth of a small run).
 */
export function validatorsKey(): string {
  key ??= sourceKey(schemaTexts());
  return key;
}

/**
 * One ajv validator per content type, for the committed JSON Schemas in schemas/ (a test keeps them
 * equal to the zod source). Compiled ahead of time into schemas/validators.cjs (a test keeps that
 * equal to the schemas), so a run only loads it: compiling them takes ajv about a third of a second,
 * loading them a few milliseconds. Should it not match the schemas or the installed ajv (a schema
 * edited by hand, ajv upgraded, before `npm run schemas`), ajv compiles them in this run
 * (`compileWithAjv`, which tests/validate/validators.test.ts holds to the same results).
 */
export function getValidators(): Validators {
  if (validators) return validators;
  const texts = schemaTexts();
  key ??= sourceKey(texts);
  try {
    const shipped = require(fromRoot('schemas', VALIDATORS_FILE)) as Validators & { builtFrom?: string };
    if (shipped.builtFrom === key && SCHEMA_NAMES.every((n) => typeof shipped[n] === 'function')) validators = shipped;
  } catch {
    // missing or damaged: compiled below
  }
  validators ??= compileWithAjv(texts);
  return validators;
}

/** The validators compiled by ajv in this process, from the schemas in schemas/. */
export function compileWithAjv(texts: readonly string[] = schemaTexts()): Validators {
  const { ajv, refs } = compile(texts);
  return Object.fromEntries(SCHEMA_NAMES.map((t) => [t, ajv.getSchema(refs[t])!])) as Validators;
}
