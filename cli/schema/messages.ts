import { FORMAT_HINTS, type FormatHint } from '../report/problems.ts';

/**
 * Which of the catalogue's format hints (cli/report/problems.ts) a pattern or format gets: one
 * source for both `content validate` and the JSON Schemas the editor reads (`patternErrorMessage`/
 * `errorMessage`), so both say the same. No zod here: `validate` loads it.
 */
export type { FormatHint } from '../report/problems.ts';
export { FORMAT_HINTS, PLACEHOLDER_NOTE } from '../report/problems.ts';

const DATE_PATTERN_START = '^(?:(?:\\d\\d[2468][048]';

/** The hint for a pattern (or `format:<name>`); dates and e-mail addresses are recognised by their long patterns. */
export function formatHint(pattern: string, description?: string): FormatHint {
  if (pattern.startsWith(DATE_PATTERN_START)) return FORMAT_HINTS['format:date']!;
  if (pattern.includes('@(?:')) return FORMAT_HINTS['format:email']!;
  return (
    FORMAT_HINTS[pattern] ?? {
      expected: description ?? 'the form the other files use',
      hint: description ? `Write ${description.charAt(0).toLowerCase()}${description.slice(1)}` : 'Compare the value with the same place in another file.',
    }
  );
}
