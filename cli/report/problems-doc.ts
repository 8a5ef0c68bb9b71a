import { PROBLEMS, type ProblemDefinition, SERVER_CODES } from './problems.ts';

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', '<br>');

/** The wordings of a code's "expected" and "found" lines, one a line. */
const expectedFound = (def: ProblemDefinition) =>
  [...Object.values(def.expected ?? {}).map((t) => `expected: ${t}`), ...Object.values(def.found ?? {}).map((t) => `found: ${t}`)].join('\n');

/** docs/problems.md: every code of the catalogue, so an editor can look one up. */
export function problemsMarkdown(): string {
  const out = [
    '# Problem codes',
    '',
    '<!-- Generated from cli/report/problems.ts by `npm run schemas`; do not edit by hand. -->',
    '',
    'Every problem `content validate` (and `build`, `dev`, `i18n`) reports ends with its code in brackets, e.g. `[wrong-type]`.',
    'Errors stop the build; warnings do not, except with `--strict`. `{name}` stands for the value of one occurrence.',
    '',
    '| Code | Severity | What it means | Message | What to do | Expected / found | Example of the mistake |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [code, def] of Object.entries(PROBLEMS) as [string, ProblemDefinition][]) {
    const by = def.by && def.by !== 'validate' ? ` (${def.by})` : '';
    out.push(
      `| \`${code}\` | ${def.severity}${by} | ${cell(def.title)} | ${cell([def.message, ...Object.values(def.variants ?? {})].join('\n'))} | ${cell([def.hint, ...Object.values(def.hints ?? {})].join('\n'))} | ${cell(expectedFound(def))} | ${def.example ? `<code>${cell(def.example)}</code>` : ''} |`,
    );
  }
  out.push('', '## Enquiry form answers (`content serve`)', '', 'The server answers a refused enquiry with one of these codes per field.', '');
  out.push('| Code | Meaning |', '|---|---|');
  for (const [code, meaning] of Object.entries(SERVER_CODES)) out.push(`| \`${code}\` | ${meaning} |`);
  return `${out.join('\n')}\n`;
}
