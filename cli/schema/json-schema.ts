import { z } from 'zod';
import { LOCALES, languageList } from '../locales.ts';
import { EDITOR_MESSAGES, editorMessage } from '../report/problems.ts';
import { FIELD_DESCRIPTIONS } from './descriptions.ts';
import { CONTENT_SCHEMAS, type ContentType, schemaFileName } from './index.ts';
import { NO_HTML } from './layout.ts';
import { FORMAT_HINTS, formatHint, PLACEHOLDER_NOTE } from './messages.ts';
import { TranslationsFile } from './translations.ts';

const SCHEMA_BASE = 'https://studio.invalid/schemas/';

type Node = Record<string, unknown> & {
  properties?: Record<string, Node>;
  items?: Node;
  anyOf?: Node[];
  oneOf?: Node[];
  $defs?: Record<string, Node>;
  additionalProperties?: Node | boolean;
};

/**
 * What the editor (yaml-language-server) shows: a description on every field, examples where a
 * format is involved, and for a value in the wrong form the same hint `content validate` gives
 * (`patternErrorMessage`, `errorMessage`; ajv is told these keywords exist, see validators.ts).
 * A date or e-mail address is checked by its pattern alone, so the editor shows one message, not two.
 */
function annotate(type: string, node: Node, path: string, placeholderOk = false): void {
  const note = placeholderOk ? ` ${PLACEHOLDER_NOTE}` : '';
  if (typeof node.pattern === 'string') {
    if (node.pattern === NO_HTML) node.patternErrorMessage = EDITOR_MESSAGES.noHtml;
    else {
      const hint = formatHint(node.pattern);
      node.patternErrorMessage = hint.hint + (node.pattern === '^TODO:' ? '' : note);
      // A time written 16.30 is read as a number: the editor gives the format's hint for that too.
      if (node.pattern !== '^TODO:') node.errorMessage = node.patternErrorMessage;
      if (hint.examples && !node.examples && node.pattern !== '^TODO:') node.examples = hint.examples;
      if (node.format === 'date' || node.format === 'email') delete node.format;
    }
  } else if (typeof node.format === 'string') {
    const hint = FORMAT_HINTS[`format:${node.format}`];
    if (hint) {
      node.errorMessage = hint.hint + note;
      node.examples ??= hint.examples;
    }
  }
  // A number written with a currency sign or in words: the editor says how to write it.
  if ((node.type === 'number' || node.type === 'integer') && !node.errorMessage) node.errorMessage = EDITOR_MESSAGES[node.type];
  // The other messages yaml-language-server takes from `errorMessage` (a value not in the list, a
  // key not known here, a value of the wrong kind): what validate's hint says, without the value.
  if (Array.isArray(node.enum) && !node.errorMessage) node.errorMessage = editorMessage('oneOf', { allowed: node.enum.join(', ') }) + note;
  if (node.const !== undefined && !node.errorMessage) node.errorMessage = editorMessage('fixed', { value: String(node.const) });
  if (node.type === 'array' && !node.errorMessage) node.errorMessage = EDITOR_MESSAGES.array;
  if (node.type === 'string' && !node.errorMessage) node.errorMessage = EDITOR_MESSAGES.string + note;
  if (node.type === 'object' && node.additionalProperties === false && node.properties && !node.errorMessage)
    node.errorMessage = editorMessage('keys', { allowed: Object.keys(node.properties).join(', ') });
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const at = `${path}.${key}`;
    if (!child.description) {
      const description = FIELD_DESCRIPTIONS[`${type}:${at}`] ?? (type === 'ui' ? uiDescription(at) : undefined);
      if (description) child.description = description;
    }
    annotate(type, child, at);
  }
  if (node.items) annotate(type, node.items, `${path}[]`);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') annotate(type, node.additionalProperties, `${path}.*`);
  // A value-or-placeholder union: the value's hint mentions the placeholder, as validate's does.
  const branches = [...(node.anyOf ?? []), ...(node.oneOf ?? [])];
  const withPlaceholder = branches.some((b) => String(b.$ref).endsWith('/Placeholder') || b.pattern === '^TODO:');
  for (const branch of branches) annotate(type, branch, path, withPlaceholder);
  for (const [name, def] of Object.entries(node.$defs ?? {})) annotate(type, def, `#${name}`);
}

const uiDescription = (path: string) => {
  const [, ns, key] = path.split('.');
  return key ? `The interface text ${ns}.${key}, in ${languageList(LOCALES)}.` : `The interface texts of the ${ns} group.`;
};

const generate = (schema: z.ZodType, type: string, file: string): Record<string, unknown> => {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw', reused: 'inline' }) as Node;
  annotate(type, json, '');
  return { $schema: json.$schema, $id: SCHEMA_BASE + file, ...json };
};

/** The JSON Schema (draft 2020-12) of a content type, generated from its zod shape. */
export const toJsonSchema = (type: ContentType): Record<string, unknown> => generate(CONTENT_SCHEMAS[type], type, schemaFileName(type));

/** The committed text of a schema file: stable key order, two-space indent, final newline. */
export const schemaFileText = (type: ContentType) => `${JSON.stringify(toJsonSchema(type), null, 2)}\n`;

/** content/translations.yaml (written by `content i18n --confirm`; not a content type of the site). */
export const TRANSLATIONS_SCHEMA_FILE = 'translations.schema.json';
export const translationsSchemaText = () => `${JSON.stringify(generate(TranslationsFile, 'translations', TRANSLATIONS_SCHEMA_FILE), null, 2)}\n`;
