/**
 * What an editor is told about a value in the wrong form, by the pattern (or format) it failed.
 * One source for both `content validate` and the JSON Schemas the editor reads
 * (`patternErrorMessage`/`errorMessage`), so both say the same. No zod here: `validate` loads it.
 */
export interface FormatHint {
  /** What the value should look like, e.g. 'a time written HH:MM, e.g. 18:30'. */
  expected: string;
  /** What to do. */
  hint: string;
  /** Example values for the schema (`examples`). */
  examples?: string[];
}

const DATE_PATTERN_START = '^(?:(?:\\d\\d[2468][048]';

/** Added to the hint where a value may also be a placeholder. */
export const PLACEHOLDER_NOTE = 'If the studio has not supplied this fact yet, write a placeholder: "TODO: what is missing".';

export const FORMAT_HINTS: Record<string, FormatHint> = {
  '^[0-9a-f]{10}$': {
    expected: 'a short hash, as "content i18n --confirm" writes it',
    hint: 'Do not edit this by hand: run "content i18n --confirm" after checking the translations.',
    examples: ['59589fe2a5'],
  },
  '^[a-z][a-zA-Z0-9_-]*$': {
    expected: 'a key: a lowercase letter first, then letters, digits, "-" or "_", no spaces',
    hint: 'Write the key in lowercase Latin letters without spaces, e.g. vocal-individual.',
    examples: ['vocal', 'vocal-individual'],
  },
  '^\\/([a-z0-9]+(-[a-z0-9]+)*)?$': {
    expected: 'a route such as /vocal: a slash, then lowercase letters, digits and "-", no slash at the end',
    hint: 'Write the route as /name in lowercase, without a slash at the end, e.g. /vocal.',
    examples: ['/', '/vocal', '/early-development'],
  },
  '^\\/([a-z0-9]+(-[a-z0-9]+)*)?(#[a-z][a-z0-9-]*)?$': {
    expected: 'a page of this site such as /prises or /#contacts',
    hint: 'Write a route of this site, optionally with a section after #, e.g. /prises or /#contacts.',
    examples: ['/prises', '/#contacts'],
  },
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': {
    expected: 'a time of day written HH:MM (00:00 to 23:59), e.g. 18:30',
    hint: 'Write the time with two digits each for hours (00 to 23) and minutes and a colon, e.g. 09:00 or 18:30.',
    examples: ['09:00', '18:30'],
  },
  '^([01][0-9]|2[0-3]):[0-5][0-9]–([01][0-9]|2[0-3]):[0-5][0-9]$': {
    expected: 'a time span written HH:MM–HH:MM (hours 00 to 23) with a dash "–", e.g. 10:00–18:00',
    hint: 'Write the opening hours as 10:00–18:00 (two digits each, hours 00 to 23, the long dash "–" between).',
    examples: ['10:00–18:00'],
  },
  '^\\+?[0-9 ()/-]{6,}$': {
    expected: 'a phone number of digits, spaces, "+", "(", ")", "/" and "-"',
    hint: 'Write the phone number with digits only (spaces, +, brackets, / and - are fine), e.g. +49 30 1234567.',
    examples: ['+49 30 1234567'],
  },
  '^[0-9]{5}$': {
    expected: 'a German postal code of five digits',
    hint: 'Write the five digits of the postal code, e.g. 10115.',
    examples: ['10115'],
  },
  '^(\\/|https:\\/\\/)': {
    expected: 'a path on this site (/api/enquiry) or an address starting with https://',
    hint: 'Write a path starting with / or an address starting with https://.',
    examples: ['/api/enquiry'],
  },
  '^\\/[a-z0-9-]+$': {
    expected: 'a path such as /thanks: a slash, then lowercase letters, digits and "-"',
    hint: 'Write the path as /name in lowercase, e.g. /thanks.',
    examples: ['/thanks'],
  },
  '^TODO:': {
    expected: 'a placeholder "TODO: what is missing"',
    hint: 'Start the placeholder with "TODO:", e.g. "TODO: studio phone number".',
    examples: ['TODO: studio phone number'],
  },
  'format:date': {
    expected: 'a date written YYYY-MM-DD, e.g. 2026-12-31',
    hint: 'Write the date as year-month-day with dashes, e.g. 2026-12-31 (not 31.12.2026).',
    examples: ['2026-12-31'],
  },
  'format:email': {
    expected: 'an e-mail address such as info@example.de',
    hint: 'Write one e-mail address, e.g. info@example.de, without spaces or "mailto:".',
    examples: ['info@example.de'],
  },
  'format:uri': {
    expected: 'a full address starting with https://',
    hint: 'Write the full address, starting with https://, e.g. https://studio.example.de.',
    examples: ['https://studio.example.de'],
  },
};

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
