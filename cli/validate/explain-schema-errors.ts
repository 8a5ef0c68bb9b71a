import type { ErrorObject } from 'ajv';
import { type PathPart, problemAt, type SourceFile } from '../load/source.ts';
import { emptiedByComment } from '../load/yaml-comments.ts';
import { DEFAULT_LOCALE, TRANSLATED_LOCALES } from '../locales.ts';
import type { Problem } from '../report/problem.ts';
import { catalogued, expectedOf, foundOf, hintOf } from '../report/problem.ts';
import { count, describeValue, limitWords, quoteValue, SUGGESTIONS, type SuggestionKind, TYPE_NAMES, withPlaceholderNote } from '../report/problems.ts';
import { IMAGE_FILE_PATTERN } from '../schema/image-pattern.ts';
import { USES } from '../schema/image-uses.ts';
import { NO_HTML, ONE_LINE, PLACEHOLDER_PATTERN } from '../schema/layout.ts';
import { formatHint } from '../schema/messages.ts';
import { bulletName, closest, suggest } from './suggest.ts';

const pointerToPath = (pointer: string): PathPart[] =>
  pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));

type Branch = { properties?: Record<string, { const?: unknown }>; required?: string[] };
type Err = ErrorObject & { placeholderOk?: boolean };

/** The key whose `const` tells the branches of a union apart (`type: item` / `type: sub`), if there is one. */
function discriminator(branches: Branch[]): string | undefined {
  const first = branches[0]?.properties ?? {};
  return Object.keys(first).find((k) => branches.every((b) => b.properties?.[k] && 'const' in b.properties[k]!));
}

/** The Placeholder schema ("TODO: …"), referenced or written out. */
const isPlaceholderSchema = (schema: unknown): boolean => {
  const s = (schema ?? {}) as { $ref?: string; pattern?: string };
  return s.$ref?.endsWith('/Placeholder') === true || s.pattern === PLACEHOLDER_PATTERN;
};

/**
 * ajv reports every failing branch of a union. Report one: for a union told apart by a key
 * (`type: item`), the branch that key names — or, when the key's value names none, that value;
 * a value-or-placeholder union as the value (a text, a list); otherwise the branch that got furthest into the data.
 */
function pruneUnions(errors: Err[]): Err[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  let kept = errors.filter((e) => !unions.includes(e));
  for (const u of unions) {
    const prefix = `${u.schemaPath}/`;
    const schemas = (Array.isArray(u.schema) ? u.schema : []) as (Branch & { $ref?: string })[];
    const branches = new Map<string, Err[]>();
    // A branch that is a $ref (Placeholder) reports its errors at the referenced schema's path: they
    // are the errors just before the union's own, on the same value.
    const within = (e: Err) => e.instancePath === u.instancePath || e.instancePath.startsWith(`${u.instancePath}/`);
    const refs = schemas.flatMap((b, i) => (b.$ref ? [i] : []));
    // A referenced schema is compiled on its own: its errors' paths start at "#/" of that schema.
    const refBranch = (e: Err) => (refs.length === 1 ? refs[0]! : schemas.findIndex((b) => b.$ref && e.schemaPath.startsWith(`${b.$ref}/`)));
    // The placeholder branch (a $ref to Placeholder, or its pattern inline) fails only on the union's own value,
    // with the placeholder's pattern in the failing schema; every other error of a value-or-placeholder union is the
    // value's, however deep (a list's item, a $ref inside the value's branch).
    const placeholderBranch = schemas.findIndex(isPlaceholderSchema);
    const valueBranches = schemas.flatMap((_, i) => (i === placeholderBranch ? [] : [i]));
    const placeholderError = (e: Err) => e.instancePath === u.instancePath && isPlaceholderSchema(e.parentSchema);
    const unattributed = (e: Err) =>
      placeholderBranch < 0 ? refBranch(e) : placeholderError(e) ? placeholderBranch : valueBranches.length === 1 ? valueBranches[0]! : refBranch(e);
    const index = errors.indexOf(u);
    const window = new Set<Err>();
    for (let j = index - 1; j >= 0 && within(errors[j]!); j--) window.add(errors[j]!);
    for (const e of kept) {
      let branch: string | undefined;
      if (e.schemaPath.startsWith(prefix)) branch = e.schemaPath.slice(prefix.length).split('/')[0]!;
      else if (window.has(e) && unattributed(e) >= 0) branch = String(unattributed(e));
      if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const inUnion = new Set([...branches.values()].flat());
    const key = discriminator(schemas);
    const data = u.data as Record<string, unknown> | null;
    if (key && data && typeof data === 'object' && !Array.isArray(data)) {
      const named = schemas.findIndex((b) => b.properties![key]!.const === data[key]);
      kept = kept.filter((e) => !inUnion.has(e) || (named >= 0 && e.schemaPath.startsWith(`${prefix}${named}/`)));
      if (named < 0) {
        const allowed = schemas.map((b) => String(b.properties![key]!.const));
        kept.push({
          ...u,
          keyword: key in data ? 'enum' : 'required',
          instancePath: key in data ? `${u.instancePath}/${key}` : u.instancePath,
          params: key in data ? { allowedValues: allowed } : { missingProperty: key },
          data: key in data ? data[key] : data,
          parentSchema: {},
        });
      }
      continue;
    }
    if (branches.size === 0) {
      kept.push(u);
      continue;
    }
    // A value-or-placeholder union: unless the value starts like a placeholder, report the value's branch.
    const looksLikePlaceholder = typeof u.data === 'string' && /^\s*todo\b/i.test(u.data);
    const score = (list: Err[]) => Math.max(...list.map((e) => e.instancePath.split('/').length + (e.keyword === 'const' || e.keyword === 'type' ? 0 : 0.5)));
    const candidates = [...branches.entries()].filter(([b]) => placeholderBranch < 0 || looksLikePlaceholder || Number(b) !== placeholderBranch);
    const pool = candidates.length ? candidates : [...branches.entries()];
    const best = pool.sort((a, b) => score(b[1]) - score(a[1]) || a[1].length - b[1].length || Number(a[0]) - Number(b[0]))[0]!;
    kept = kept.filter((e) => !inUnion.has(e) || best[1].includes(e));
    if (placeholderBranch >= 0) for (const e of best[1]) e.placeholderOk = true;
  }
  return kept;
}

const suggestionText = (kind: SuggestionKind, vars: Record<string, string>) =>
  SUGGESTIONS[kind].replace(/\{(\w+)\}/g, (all, name: string) => vars[name] ?? all);

/** The number an editor meant by "40 €", "40,50" or "60" in quotes, when it is certain. */
function numberMeant(value: string, integer: boolean): string | undefined {
  const cleaned = value.replace(/[€$\s]|eur(o)?/gi, '').replace(/^(\d+),(\d+)$/, '$1.$2');
  return /^\d+(\.\d+)?$/.test(cleaned) && !(integer && cleaned.includes('.')) ? cleaned : undefined;
}

/** Numbers as editors write them: "40 €", "40,50", "€ 40", "сорок". */
function numberHint(value: string, integer: boolean): string {
  const cleaned = value.replace(/[€$\s]|eur(o)?/gi, '');
  if (/^\d+,\d+$/.test(cleaned)) return hintOf('wrong-type', { number: cleaned.replace(',', '.') }, 'decimalComma');
  if (/^\d+(\.\d+)?$/.test(cleaned)) return hintOf('wrong-type', { number: cleaned }, integer ? 'wholeNumberOnly' : 'numberOnly');
  return hintOf('wrong-type', { number: integer ? 4 : 40 }, 'digits');
}

type Described = Omit<Problem, 'file' | 'line' | 'column' | 'path'>;

/** What an explainer knows besides the error. */
interface Explaining {
  /** The path of the value the error is about. */
  path: PathPart[];
  parentSchema: { description?: string; properties?: Record<string, unknown> };
  /** Whether a "TODO: …" placeholder would have been accepted too (the hint says so). */
  placeholderOk: boolean;
  /** Misspelt keys, by the key they were meant to be (see misspeltKeys). */
  typoFor: Map<string, string>;
}

/** One ajv error as an editor's problem, or nothing when another error already says it. */
interface Explained {
  problem: Described;
  /** Where it points, when not at the value (an unknown key points at itself). */
  at?: PathPart[];
  /** Point at the key rather than its value. */
  key?: boolean;
  /** What makes two errors the same mistake, reported once (by default the code and the place). */
  id?: string;
  /** Narrow the span to this part of the value; such a problem is never merged with another. */
  underline?: string;
  /** The value (or, for a key, the key) that replaces what the problem points at, when the hint is sure of it. */
  fix?: string;
  /** The fix replaces the value with its quotes, if it has any (by default it goes inside them). */
  fixWhole?: boolean;
  /** The fix, from the value as written, where the data lost what the editor wrote (19.00 read as 19). */
  fixOfWritten?: (written: string) => string | undefined;
}

type Explainer = (e: Err, x: Explaining) => Explained | undefined;

/** ajv's errors for one file, as the problems an editor reads: one per mistake, at its place, with a hint. */
export function explain(source: SourceFile, raw: ErrorObject[]): Problem[] {
  const errors = pruneUnions(raw as Err[]);
  const typoFor = misspeltKeys(errors);
  const problems: Problem[] = [];
  // A range in "start:" says why "end:" is missing: one mistake, reported once (at the range).
  const seen = new Set<string>(errors.flatMap(coveredByRange));
  for (const e of errors) {
    // "day: [tu, th]": a list where one value goes is one mistake, whatever each branch of a union says of it.
    const listForOne = Array.isArray(e.data) && (e.keyword === 'enum' || e.keyword === 'const' || (e.keyword === 'type' && e.params.type !== 'array'));
    const explainer = listForOne ? oneValueOnly : (EXPLAINERS.get(e.keyword) ?? notValid);
    const path = pointerToPath(e.instancePath);
    const parentSchema = (e.parentSchema ?? {}) as Explaining['parentSchema'];
    const explained = explainer(e, { path, parentSchema, placeholderOk: e.placeholderOk === true, typoFor });
    if (!explained) continue;
    const { problem, at = path, key = false } = explained;
    if (explained.underline !== undefined) {
      problems.push(underline(source, problemAt(source, at, problem, { key }), explained.underline));
      continue;
    }
    const id = explained.id ?? `${problem.code}:${at.join('/')}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const placed = problemAt(source, at, problem, { key });
    // "ru: #1 in town": the editor sees a text after the colon, YAML a comment.
    const emptied = e.data === null && placed.line ? emptiedByComment(source.text.split(/\r?\n/)[placed.line - 1] ?? '', placed.line) : undefined;
    if (emptied) {
      problems.push({ ...emptied, file: placed.file, path: placed.path });
      continue;
    }
    const fix = explained.fix ?? explained.fixOfWritten?.(writtenAt(source, placed));
    problems.push(fix === undefined ? placed : withFix(source, placed, fix, explained.fixWhole));
  }
  return problems;
}

/**
 * A misspelt key is one mistake: report it as unknown (with its suggestion), not also as a missing key.
 * By `<object's path>|<the key it resembles>`.
 */
function misspeltKeys(errors: Err[]): Map<string, string> {
  const typoFor = new Map<string, string>();
  for (const e of errors)
    if (e.keyword === 'additionalProperties') {
      const allowed = Object.keys(((e.parentSchema ?? {}) as { properties?: object }).properties ?? {});
      const match = closest(String(e.params.additionalProperty), allowed);
      if (match) typoFor.set(`${e.instancePath}|${match}`, String(e.params.additionalProperty));
    }
  return typoFor;
}

const unknownKey: Explainer = (e, { path, parentSchema }) => {
  const name = String(e.params.additionalProperty);
  const allowed = Object.keys(parentSchema.properties ?? {});
  // A key already written here is no suggestion: it would be there twice.
  const present = new Set(e.data && typeof e.data === 'object' ? Object.keys(e.data) : []);
  const suggestion = suggest(
    name,
    allowed.filter((k) => !present.has(k)),
  );
  return {
    problem: catalogued(
      'unknown-key',
      { key: name, allowed: allowed.join(', ') },
      {
        expected: expectedOf('unknown-key', 'oneOf', { allowed: allowed.join(', ') }),
        found: `"${name}"`,
        hint: suggestion ? hintOf('unknown-key', { suggestion: suggestion.hint }, 'suggestion') : undefined,
      },
    ),
    at: [...path, name],
    key: true,
    fix: suggestion?.fixed,
  };
};

const missingKey: Explainer = (e, { parentSchema, typoFor }) => {
  const name = String(e.params.missingProperty);
  if (typoFor.has(`${e.instancePath}|${name}`)) return undefined;
  const isRu = name === DEFAULT_LOCALE && TRANSLATED_LOCALES.some((l) => l in (parentSchema.properties ?? {}));
  const problem = isRu
    ? catalogued('missing-ru', {}, { expected: expectedOf('missing-ru', 'ru', {}), found: describeValue(e.data) })
    : catalogued('missing-key', { key: name }, { expected: expectedOf('missing-key', 'key', { key: name }) });
  return { problem, key: true, id: `${problem.code}:${e.instancePath}:${name}` };
};

const wrongType: Explainer = (e, { parentSchema, placeholderOk }) => {
  const type = String(e.params.type);
  const pattern = (e.parentSchema as { pattern?: string } | undefined)?.pattern;
  if (type === 'string' && pattern && e.data !== null && typeof e.data !== 'object') return textReadAsOther(e, pattern, parentSchema, placeholderOk);
  const expected = TYPE_NAMES[type] ?? type;
  const numeric = (type === 'number' || type === 'integer') && typeof e.data === 'string';
  return {
    problem: catalogued(
      'wrong-type',
      { expected, found: describeValue(e.data), value: quoteValue(String(e.data)) },
      {
        variant: e.data === null ? 'empty' : numeric ? 'notNumber' : undefined,
        expected,
        found: describeValue(e.data),
        hint: numeric ? withPlaceholderNote(numberHint(String(e.data), type === 'integer'), placeholderOk) : typeHint(type, e.data, expected, placeholderOk),
      },
    ),
    fix: numeric ? numberMeant(String(e.data), type === 'integer') : listMeant(type, e.data),
    fixWhole: true,
  };
};

/** The list an editor meant by a text where a list belongs: "• a" or "-a" is one item, a plain word a list of one. */
function listMeant(type: string, data: unknown): string | undefined {
  if (type !== 'array' || typeof data !== 'string') return undefined;
  if (bulletName(data[0] ?? '') || /^-\S/.test(data)) return `- ${data.slice(1).trim()}`;
  return /^[\w-]+$/.test(data) ? `[${data}]` : undefined;
}

/** A time written 16.30 or a postal code without quotes is read as a number: say how to write it. */
function textReadAsOther(e: Err, pattern: string, parentSchema: Explaining['parentSchema'], placeholderOk: boolean): Explained {
  const format = formatHint(pattern, parentSchema.description);
  const test = new RegExp(pattern);
  const fits = test.test(String(e.data));
  // 16.30 read as a number: the time 16:30.
  const asTime =
    typeof e.data === 'number'
      ? String(e.data)
          .replace(/^(\d{1,2})\.(\d)$/, '$1.$20')
          .replace(/^(\d)\./, '0$1.')
          .replace('.', ':')
      : undefined;
  const fixed = fits ? `"${e.data}"` : asTime && test.test(asTime) ? `'${asTime}'` : undefined;
  // 19.00 is read as the number 19: the time is in what was written.
  const timeOfWritten = (written: string) => {
    const time = /^\d{1,2}\.\d{2}$/.test(written) ? written.replace('.', ':').padStart(5, '0') : undefined;
    return time && test.test(time) ? `'${time}'` : undefined;
  };
  return {
    problem: catalogued(
      'wrong-type',
      { expected: format.expected, found: describeValue(e.data) },
      {
        expected: format.expected,
        found: describeValue(e.data),
        hint: withPlaceholderNote(fits ? hintOf('wrong-type', { value: String(e.data) }, 'quote') : format.hint, placeholderOk),
      },
    ),
    fix: fixed,
    fixWhole: true,
    fixOfWritten: typeof e.data === 'number' ? timeOfWritten : undefined,
  };
}

/** How to write a value of `type` where `data` stands (not for numbers written as text: see numberHint). */
function typeHint(type: string, data: unknown, expected: string, placeholderOk: boolean): string {
  if (type === 'string' && data === null) return withPlaceholderNote(hintOf('wrong-type', {}, 'emptyText'), placeholderOk);
  if (type === 'array' && typeof data === 'string') {
    const bullet = bulletName(data[0] ?? '');
    if (bullet) return suggestionText('bullet', { char: data[0]!, name: bullet, fixed: data.slice(1).trim() });
    if (/^-\S/.test(data)) return suggestionText('dashWithoutSpace', { fixed: data.slice(1) });
    return hintOf('wrong-type', { value: data }, 'oneEntryPerLine');
  }
  return withPlaceholderNote(hintOf('wrong-type', { expected }), placeholderOk);
}

const notAllowed: Explainer = (e, { placeholderOk }) => {
  const allowed = (e.keyword === 'enum' ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue]).map(String);
  const suggestion = typeof e.data === 'string' ? suggest(e.data, allowed) : undefined;
  return {
    problem: catalogued(
      'not-allowed',
      { found: typeof e.data === 'string' ? quoteValue(e.data) : describeValue(e.data), allowed: allowed.join(', ') },
      {
        expected: expectedOf('not-allowed', 'oneOf', { allowed: allowed.join(', ') }),
        found: describeValue(e.data),
        hint: suggestion
          ? hintOf('not-allowed', { suggestion: suggestion.hint, allowed: allowed.join(', ') }, 'suggestion')
          : withPlaceholderNote(hintOf('not-allowed', { allowed: allowed.join(', ') }), placeholderOk),
      },
    ),
    fix: suggestion?.fixed,
  };
};

const badPattern: Explainer = (e, { path, parentSchema, placeholderOk }) => {
  if (e.params.pattern === ONE_LINE)
    return {
      problem: catalogued('line-break', {}, { expected: expectedOf('line-break', 'oneLine', {}), found: describeValue(e.data) }),
    };
  if (e.params.pattern === NO_HTML) {
    const tag = /<[A-Za-z/!?][^>]*>?/.exec(String(e.data))?.[0] ?? '<';
    return { problem: catalogued('raw-html', { tag }, { expected: expectedOf('raw-html', 'plain', {}), found: tag }), underline: tag };
  }
  if (e.params.pattern === IMAGE_FILE_PATTERN && typeof e.data === 'string') {
    const unsupported = unsupportedPicture(e.data);
    if (unsupported) return { problem: unsupported };
  }
  const format = formatHint(e.params.pattern as string, parentSchema.description);
  const pattern = new RegExp(e.params.pattern as string);
  const range = typeof e.data === 'string' ? rangeIn(e.data, (v) => pattern.test(v)) : undefined;
  if (range) return rangeExplained(e, path, range, e.params.pattern as string);
  const suggestion = typeof e.data === 'string' ? suggest(e.data, [], (v) => pattern.test(v)) : undefined;
  return {
    problem: catalogued(
      'bad-format',
      { found: typeof e.data === 'string' ? quoteValue(e.data) : describeValue(e.data), format: format.expected },
      { expected: format.expected, found: describeValue(e.data), hint: suggestion ? suggestion.hint : withPlaceholderNote(format.hint, placeholderOk) },
    ),
    fix: suggestion?.fixed,
  };
};

/** The formats an editor exports pictures in that the site does not show, by their file names' endings. */
const UNSUPPORTED_ENDINGS: Record<string, 'svg' | 'heic' | 'pdf' | 'gif' | 'tiff'> = {
  svg: 'svg',
  heic: 'heic',
  heif: 'heic',
  pdf: 'pdf',
  gif: 'gif',
  tif: 'tiff',
  tiff: 'tiff',
};

/**
 * A picture named by a format the site does not show (an iPhone's .heic, a drawing's .svg, a .pdf):
 * said as what it is, with what to export instead (the same words as when validate reads such a file
 * under another name), not as a name "not written the way it should be".
 */
function unsupportedPicture(value: string): Described | undefined {
  const format = UNSUPPORTED_ENDINGS[/\.([A-Za-z]+)$/.exec(value)?.[1]?.toLowerCase() ?? ''];
  if (!format) return undefined;
  // Which place shows it is not known here: ask for the width the largest place needs.
  const min = Math.max(...Object.values(USES).map((u) => u.minWidth));
  return catalogued(
    'image-unsupported',
    { value },
    {
      variant: format,
      hint: hintOf('image-unsupported', { min }, format),
      expected: expectedOf('image-unsupported', 'formats', {}),
      found: foundOf('image-unsupported', 'other', { format: format.toUpperCase() }),
    },
  );
}

/** Keys that hold the start of a range, and the key of its end. */
const RANGE_PAIRS: Record<string, string> = { start: 'end', from: 'to', validFrom: 'validUntil' };

/** "10:00-11:00" or "2026-09-01 – 2026-09-30": two values that each fit, joined by a dash. */
function rangeIn(value: string, fits: (v: string) => boolean): { start: string; end: string } | undefined {
  for (const m of value.matchAll(/\s*[-–—]\s*/g)) {
    const start = value.slice(0, m.index).trim();
    const end = value.slice(m.index + m[0].length).trim();
    if (start && end && fits(start) && fits(end)) return { start, end };
  }
  return undefined;
}

/** The id of the "end: is missing" a range in "start:" explains (see missingKey's id). */
function coveredByRange(e: Err): string[] {
  const key = e.instancePath.split('/').at(-1)!;
  if (e.keyword !== 'pattern' || typeof e.data !== 'string' || !RANGE_PAIRS[key]) return [];
  const pattern = new RegExp(e.params.pattern as string);
  return rangeIn(e.data, (v) => pattern.test(v)) ? [`missing-key:${e.instancePath.slice(0, -key.length - 1)}:${RANGE_PAIRS[key]}`] : [];
}

/** A start and an end written as one value where one goes: say so, and where each half belongs. */
function rangeExplained(e: Err, path: PathPart[], range: { start: string; end: string }, pattern: string): Explained {
  const key = String(path.at(-1) ?? '');
  const other = RANGE_PAIRS[key];
  const what = formatHint(pattern).expected.includes('date') ? 'date' : /time/.test(formatHint(pattern).expected) ? 'time' : 'value';
  const found = quoteValue(String(e.data));
  return {
    problem: catalogued(
      'bad-format',
      { found, what },
      {
        variant: 'range',
        expected: formatHint(pattern).expected,
        found: describeValue(e.data),
        hint: other ? hintOf('bad-format', { key, other, ...range }, 'rangeStartEnd') : hintOf('bad-format', { what, end: range.end }, 'rangeOne'),
      },
    ),
  };
}

/** A list where one value goes ("day: [tu, th]"): one entry per day, or one value. */
const oneValueOnly: Explainer = (e, { path }) => {
  const list = (e.data as unknown[]).map(String);
  const key = String([...path].reverse().find((p) => typeof p === 'string') ?? '');
  return {
    problem: catalogued(
      'wrong-type',
      { values: list.join(', ') },
      {
        variant: 'listForOne',
        expected: expectedOf('wrong-type', 'oneValue', {}),
        found: describeValue(e.data),
        hint:
          key === 'day'
            ? hintOf('wrong-type', { values: list.join(', '), first: list[0] ?? '' }, 'oneEntryPerDay')
            : hintOf('wrong-type', { values: list.join(', ') }, 'oneValue'),
      },
    ),
    id: `list:${e.instancePath}`,
  };
};

const badFormat: Explainer = (e, { parentSchema, placeholderOk }) => {
  const format = formatHint(`format:${e.params.format}`, parentSchema.description);
  return {
    problem: catalogued(
      'bad-format',
      { found: typeof e.data === 'string' ? quoteValue(e.data) : describeValue(e.data) },
      { expected: format.expected, found: describeValue(e.data), hint: withPlaceholderNote(format.hint, placeholderOk) },
    ),
    // An address without its scheme ("www.example.de"): the same with https:// in front.
    fix: e.params.format === 'uri' && typeof e.data === 'string' && /^[\w-]+(\.[\w-]+)+(\/\S*)?$/.test(e.data) ? `https://${e.data}` : undefined,
  };
};

const tooFewItems: Explainer = (e) => {
  const n = Number(e.params.limit);
  return {
    problem: catalogued('too-few-items', { min: count(n, 'item') }, { expected: expectedOf('too-few-items', 'min', { min: n }), found: describeValue(e.data) }),
  };
};

const emptyText: Explainer = (_, { placeholderOk }) => ({
  problem: catalogued(
    'empty-text',
    {},
    {
      expected: expectedOf('empty-text', 'text', {}),
      found: foundOf('empty-text', 'empty', {}),
      hint: withPlaceholderNote(hintOf('empty-text', {}), placeholderOk),
    },
  ),
});

const outOfRange: Explainer = (e) => {
  const small = e.keyword.endsWith('inimum');
  const limit = limitWords(String(e.params.comparison), e.params.limit);
  return {
    problem: catalogued(
      'out-of-range',
      { found: String(e.data), direction: small ? 'small' : 'large', limit },
      { expected: expectedOf('out-of-range', 'limit', { limit }), found: String(e.data) },
    ),
  };
};

const notWhole: Explainer = (e) => ({
  problem: catalogued(
    'wrong-type',
    { value: String(e.data), expected: TYPE_NAMES.integer! },
    { variant: 'notNumber', expected: TYPE_NAMES.integer!, found: String(e.data), hint: hintOf('wrong-type', {}, 'whole') },
  ),
});

const notValid: Explainer = (e) => ({ problem: catalogued('not-valid', { detail: e.message ?? e.keyword }, { found: describeValue(e.data) }) });

/** By ajv keyword; any other keyword is reported with ajv's own words (notValid). */
const EXPLAINERS = new Map<string, Explainer>([
  ['additionalProperties', unknownKey],
  ['required', missingKey],
  ['type', wrongType],
  ['enum', notAllowed],
  ['const', notAllowed],
  ['pattern', badPattern],
  ['format', badFormat],
  ['minItems', tooFewItems],
  ['minLength', emptyText],
  ['minimum', outOfRange],
  ['exclusiveMinimum', outOfRange],
  ['maximum', outOfRange],
  ['exclusiveMaximum', outOfRange],
  ['multipleOf', notWhole],
]);

/** Narrows a problem's span to `part` of its value, when the value is on one line (a tag in a long text). */
function underline(source: SourceFile, problem: Problem, part: string): Problem {
  if (!problem.line || !problem.column) return problem;
  const lineText = source.text.split(/\r?\n/)[problem.line - 1] ?? '';
  const index = lineText.indexOf(part, problem.column - 1);
  if (index < 0) return problem;
  return { ...problem, column: index + 1, endLine: problem.line, endColumn: index + 1 + part.length };
}

/** The one-line value (or key) a problem points at, as written; empty when it spans lines. */
function writtenAt(source: SourceFile, problem: Problem): string {
  const { line, column, endLine, endColumn } = problem;
  if (!line || !column || !endColumn || endLine !== line) return '';
  return [...(source.text.split(/\r?\n/)[line - 1] ?? '')].slice(column - 1, endColumn - 1).join('');
}

/** The fix that puts `text` in place of the one-line value (or key) a problem points at; nothing when it spans lines or is quoted. */
export function withFix(source: SourceFile, problem: Problem, text: string, whole = false): Problem {
  const { line, column, endLine, endColumn } = problem;
  if (!line || !column || !endColumn || endLine !== line) return problem;
  const written = writtenAt(source, problem);
  if (!whole && /^["']/.test(written)) return { ...problem, fix: [{ line, column: column + 1, endColumn: endColumn - 1, text }] };
  return { ...problem, fix: [{ line, column, endColumn, text }] };
}
