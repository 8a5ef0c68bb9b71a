import type { ErrorObject, ValidateFunction } from 'ajv';
import { NO_HTML, ONE_LINE } from '../schema/layout.ts';
import type { LoadedFile } from './load.ts';
import type { Problem } from './problem.ts';
import { didYouMean } from './similar.ts';
import { type PathPart, problemAt, type SourceFile } from './source.ts';
import { getValidators, validatorsKey } from './validators.ts';

/** Stage 2: every parsed file against the JSON Schema of its type. */
export function checkSchemas(files: LoadedFile[]): Problem[] {
  const problems: Problem[] = [];
  const validators = getValidators();
  const key = validatorsKey();
  for (const f of files) {
    if (!f.source || f.source.data === undefined) continue;
    // Unchanged bytes that passed these schemas before pass them again (the parse cache remembers).
    const cached = f.source.cached;
    const passed = `${f.type}:${key}`; // the same bytes could stand in files of two types
    if (cached?.schemaOk === passed) continue;
    const validate: ValidateFunction = validators[f.type];
    if (validate(f.source.data)) {
      if (cached) cached.schemaOk = passed;
    } else problems.push(...explain(f.source, validate.errors ?? []));
  }
  return problems;
}

const pointerToPath = (pointer: string): PathPart[] =>
  pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/**
 * ajv reports every failing branch of a union. Keep, per union, only the branch that got
 * furthest into the data (deepest instance path), so "price: expected number" is reported
 * instead of three alternatives.
 */
function pruneUnions(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  let kept = errors.filter((e) => !unions.includes(e));
  for (const u of unions) {
    const prefix = `${u.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const e of kept) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const branch = e.schemaPath.slice(prefix.length).split('/')[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    if (branches.size === 0) {
      kept.push(u);
      continue;
    }
    const score = (list: ErrorObject[]) =>
      Math.max(...list.map((e) => e.instancePath.split('/').length + (e.keyword === 'const' || e.keyword === 'type' ? 0 : 0.5)));
    const best = [...branches.entries()].sort((a, b) => score(b[1]) - score(a[1]) || a[1].length - b[1].length || Number(a[0]) - Number(b[0]))[0]!;
    const drop = new Set([...branches.values()].flat().filter((e) => !best[1].includes(e)));
    kept = kept.filter((e) => !drop.has(e));
    // A string-or-placeholder union: mention the placeholder form in the hint.
    if (JSON.stringify(u.schema).includes('TODO:')) for (const e of best[1]) (e as ErrorObject & { placeholderOk?: boolean }).placeholderOk = true;
  }
  return kept;
}

const describeValue = (value: unknown): string => {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return `a mapping with keys ${Object.keys(value).join(', ') || '(none)'}`;
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping (key: value lines)',
  array: 'a list (lines starting with "- ")',
  null: 'an empty value',
};

function explain(source: SourceFile, raw: ErrorObject[]): Problem[] {
  const errors = pruneUnions(raw);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const path = pointerToPath(e.instancePath);
    const parentSchema = (e.parentSchema ?? {}) as { description?: string; properties?: Record<string, unknown>; title?: string };
    const placeholderHint = (e as ErrorObject & { placeholderOk?: boolean }).placeholderOk
      ? ' If the studio has not supplied this fact yet, write a placeholder: "TODO: what is missing".'
      : '';
    let p: Omit<Problem, 'file' | 'line' | 'column' | 'path'>;
    let at = path;
    let key = false;
    switch (e.keyword) {
      case 'additionalProperties': {
        const name = String(e.params.additionalProperty);
        at = [...path, name];
        key = true;
        const allowed = Object.keys(parentSchema.properties ?? {});
        p = {
          code: 'unknown-key',
          severity: 'error',
          message: `Unknown key "${name}".`,
          expected: `one of: ${allowed.join(', ')}`,
          found: `"${name}"`,
          hint: didYouMean(name, allowed) ?? 'Remove the key, or check the spelling against the list of allowed keys.',
        };
        break;
      }
      case 'required': {
        const name = String(e.params.missingProperty);
        const isRu = name === 'ru' && 'en' in (parentSchema.properties ?? {});
        p = isRu
          ? {
              code: 'missing-ru',
              severity: 'error',
              message: 'This text has no Russian version (ru).',
              expected: 'a "ru:" line',
              found: describeValue(e.data),
              hint: 'Russian is the source text and the fallback for English and German: add "ru:" with the Russian text.',
            }
          : {
              code: 'missing-key',
              severity: 'error',
              message: `The required key "${name}" is missing.`,
              expected: `"${name}:" here`,
              found: describeValue(e.data),
              hint: `Add "${name}:" at this level.${didYouMean(name, Object.keys((e.data as object) ?? {})) ? ` ${didYouMean(name, Object.keys(e.data as object))}` : ''}`,
            };
        key = true;
        break;
      }
      case 'type':
        p = {
          code: 'wrong-type',
          severity: 'error',
          message: `Expected ${TYPE_NAMES[String(e.params.type)] ?? e.params.type}, found ${describeValue(e.data)}.`,
          expected: TYPE_NAMES[String(e.params.type)] ?? String(e.params.type),
          found: describeValue(e.data),
          hint:
            e.params.type === 'number' && typeof e.data === 'string'
              ? `Write the number without quotes or currency sign, e.g. ${Number.parseFloat(String(e.data).replace(',', '.')) || 40}.${placeholderHint}`
              : e.params.type === 'string' && e.data === null
                ? `The value after the colon is empty: write the text.${placeholderHint}`
                : `Change the value to ${TYPE_NAMES[String(e.params.type)] ?? e.params.type}.${placeholderHint}`,
        };
        break;
      case 'enum':
      case 'const': {
        const allowed = (e.keyword === 'enum' ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue]).map(String);
        p = {
          code: 'not-allowed',
          severity: 'error',
          message: `The value ${describeValue(e.data)} is not allowed here.`,
          expected: `one of: ${allowed.join(', ')}`,
          found: describeValue(e.data),
          hint: (typeof e.data === 'string' ? didYouMean(e.data, allowed) : undefined) ?? `Use one of: ${allowed.join(', ')}.${placeholderHint}`,
        };
        break;
      }
      case 'pattern': {
        if (e.params.pattern === ONE_LINE) {
          p = {
            code: 'line-break',
            severity: 'error',
            message: 'A line break (or another control character) in a text that stands on one line.',
            expected: 'one line: a name, title, label or address part has no line breaks',
            found: describeValue(e.data),
            hint: 'Write the text on one line. In YAML, remove the \\n from a quoted text, or the line break after "|" or ">".',
          };
          break;
        }
        const isHtml = e.params.pattern === NO_HTML;
        p = isHtml
          ? {
              code: 'raw-html',
              severity: 'error',
              message: 'Raw HTML is not allowed in content.',
              expected: 'plain text, with **bold** or *italic* for emphasis',
              found: describeValue(e.data),
              hint: 'Remove the tag. For emphasis write **bold** or *italic*; for a link, use a menu entry or call to action.',
            }
          : {
              code: 'bad-format',
              severity: 'error',
              message: `The value ${describeValue(e.data)} does not have the expected form.`,
              expected: parentSchema.description ?? `text matching ${e.params.pattern}`,
              found: describeValue(e.data),
              hint: `${parentSchema.description ?? 'Check the value against the examples in the other files.'}${placeholderHint}`,
            };
        break;
      }
      case 'format':
        p = {
          code: 'bad-format',
          severity: 'error',
          message: `The value ${describeValue(e.data)} is not a valid ${e.params.format}.`,
          expected: FORMAT_NAMES[String(e.params.format)] ?? String(e.params.format),
          found: describeValue(e.data),
          hint: `Write ${FORMAT_NAMES[String(e.params.format)] ?? e.params.format}.${placeholderHint}`,
        };
        break;
      case 'minItems':
        p = {
          code: 'too-few-items',
          severity: 'error',
          message: `The list needs at least ${e.params.limit} item${e.params.limit === 1 ? '' : 's'}.`,
          expected: `at least ${e.params.limit}`,
          found: describeValue(e.data),
          hint: 'Add the missing entries, each on a line starting with "- ".',
        };
        break;
      case 'minLength':
        p = {
          code: 'empty-text',
          severity: 'error',
          message: 'The text is empty.',
          expected: 'a non-empty text',
          found: 'an empty text',
          hint: `Write the text, or remove the key if it is optional.${placeholderHint}`,
        };
        break;
      case 'minimum':
      case 'exclusiveMinimum':
      case 'maximum':
      case 'exclusiveMaximum':
        p = {
          code: 'out-of-range',
          severity: 'error',
          message: `The number ${e.data} is out of range.`,
          expected: `a number ${e.params.comparison} ${e.params.limit}`,
          found: String(e.data),
          hint: 'Prices and counts cannot be negative.',
        };
        break;
      default:
        p = { code: 'schema', severity: 'error', message: e.message ?? 'The value does not match the schema.', found: describeValue(e.data) };
    }
    const id = `${p.code}:${at.join('/')}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problemAt(source, at, p, { key }));
  }
  return problems;
}

const FORMAT_NAMES: Record<string, string> = {
  date: 'a date written YYYY-MM-DD, e.g. 2026-09-01',
  email: 'an e-mail address such as info@example.de',
  uri: 'a full address starting with https://',
};
