import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { problemsMarkdown } from '../../cli/report/problems-doc.ts';
import { TRANSLATIONS_SCHEMA_FILE, translationsSchemaText } from '../../cli/schema/json-schema.ts';
import { AJV_OPTIONS } from '../../cli/validate/validators.ts';
import { CONTENT, contentCopy, FIXTURE, ROOT, runCli } from '../helpers/cli.ts';

const require = createRequire(import.meta.url);
const SCHEMAS = join(ROOT, 'schemas');
const files = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'));
const load = (f: string) => JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8')) as Record<string, unknown>;

/** Every schema node with the path of the field it describes. */
function* nodes(node: unknown, at = ''): Generator<[string, Record<string, unknown>]> {
  if (!node || typeof node !== 'object') return;
  const n = node as Record<string, unknown>;
  yield [at, n];
  for (const [k, v] of Object.entries((n.properties as object) ?? {})) yield* nodes(v, `${at}.${k}`);
  if (n.items) yield* nodes(n.items, `${at}[]`);
  if (n.additionalProperties && typeof n.additionalProperties === 'object') yield* nodes(n.additionalProperties, `${at}.*`);
  for (const b of [...((n.anyOf as unknown[]) ?? []), ...((n.oneOf as unknown[]) ?? [])]) yield* nodes(b, at);
  for (const [k, v] of Object.entries((n.$defs as object) ?? {})) yield* nodes(v, `#${k}`);
}

describe('the schemas the editor reads', () => {
  it.each(files)('%s: every field has a description of its own', (f) => {
    const missing: string[] = [];
    for (const [, n] of nodes(load(f)))
      for (const [k, v] of Object.entries((n.properties as Record<string, { description?: string }>) ?? {})) if (!v.description) missing.push(k);
    expect(missing).toEqual([]);
  });

  it.each(files)('%s: every pattern comes with the hint validate gives, with examples; no date or e-mail checked twice', (f) => {
    for (const [at, n] of nodes(load(f))) {
      if (typeof n.pattern === 'string') {
        expect(n.patternErrorMessage, `${f} ${at}`).toMatch(/^[A-Z].{15,}\.$/);
        expect(n.format, `${f} ${at}: format and pattern give two messages`).toBeUndefined();
        if (n.pattern !== '^TODO:' && !String(n.patternErrorMessage).startsWith('Raw HTML')) expect(n.examples, `${f} ${at}`).toBeDefined();
      }
      if (typeof n.format === 'string') expect(n.errorMessage, `${f} ${at}`).toBeTruthy();
    }
  });

  it.each(files)("%s: every check the editor makes carries our message (errorMessage), not the editor's generic one", (f) => {
    const missing: string[] = [];
    for (const [at, n] of nodes(load(f))) {
      const checked =
        Array.isArray(n.enum) ||
        n.const !== undefined ||
        typeof n.format === 'string' ||
        ['array', 'string', 'number', 'integer'].includes(String(n.type)) ||
        (n.type === 'object' && n.additionalProperties === false);
      if (checked && !(typeof n.errorMessage === 'string' && /^[A-Z].{10,}[.)]$/.test(n.errorMessage))) missing.push(at || '(root)');
    }
    expect(missing).toEqual([]);
  });

  it('check formats: a site address without https:// is refused, as validate refuses it', () => {
    const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const validate = new Ajv.default(AJV_OPTIONS).compile(load('site.schema.json'));
    const site = parse(readFileSync(join(ROOT, 'content/site.yaml'), 'utf8')) as Record<string, unknown>;
    expect(validate(site)).toBe(true);
    expect(validate({ ...site, baseUrl: 'www.example.de' })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'format', instancePath: '/baseUrl' });
  });

  it('compile in ajv strict mode too (the editor keywords are declared)', () => {
    const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const ajv = new Ajv.default({ ...AJV_OPTIONS, strict: true });
    for (const f of files) expect(() => ajv.compile(load(f)), f).not.toThrow();
  });

  it('say what validate says about a value in the wrong form', async () => {
    const schedule = load('schedule.schema.json') as {
      properties: { entries: { items: { properties: { start: { anyOf: { patternErrorMessage?: string }[] } } } } };
    };
    const message = schedule.properties.entries.items.properties.start.anyOf.find((b) => b.patternErrorMessage)!.patternErrorMessage!;
    const copy = contentCopy();
    try {
      const path = join(copy.dir, 'schedule.yaml');
      const text = readFileSync(path, 'utf8').replace("  start: '19:00'", '  start: 16-30');
      (await import('node:fs')).writeFileSync(path, text);
      const r = await runCli(['validate', '--content', copy.dir, '--format', 'json']);
      const problem = (JSON.parse(r.stdout) as { problems: { code: string; hint: string }[] }).problems.find((p) => p.code === 'bad-format')!;
      expect(problem.hint).toBe(message);
    } finally {
      copy.cleanup();
    }
  });

  it('cover content/translations.yaml, with a modeline, and the shipped file passes', () => {
    expect(readFileSync(join(SCHEMAS, TRANSLATIONS_SCHEMA_FILE), 'utf8')).toBe(translationsSchemaText());
    const text = readFileSync(join(ROOT, 'content/translations.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=../schemas/${TRANSLATIONS_SCHEMA_FILE}`);
    const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const validate = new Ajv.default(AJV_OPTIONS).compile(load(TRANSLATIONS_SCHEMA_FILE));
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('are found from every file of the content and of the frozen fixture content (tests/fixtures/content: one level deeper)', () => {
    const modelines = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => {
          const schema = /^# yaml-language-server: \$schema=(\S+)\n/.exec(readFileSync(join(dir, f), 'utf8'))?.[1];
          return [f, schema && resolve(dirname(join(dir, f)), schema)] as const;
        });
    const frozen = modelines(FIXTURE);
    expect(frozen.length).toBeGreaterThan(20);
    for (const [f, schema] of [...frozen, ...modelines(CONTENT)]) {
      expect(dirname(schema ?? ''), f).toBe(resolve(SCHEMAS));
      expect(existsSync(schema!), f).toBe(true);
    }
  });

  it('docs/problems.md lists every code of the catalogue (run "npm run schemas")', () => {
    expect(readFileSync(join(ROOT, 'docs/problems.md'), 'utf8')).toBe(problemsMarkdown());
  });
});
