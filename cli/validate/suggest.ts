import { bulletName, spaceName } from '../load/yaml-structure.ts';
import { SUGGESTIONS, type SuggestionKind } from '../report/problems.ts';

/**
 * What an editor most likely meant by a value that is not allowed where it stands: the same word
 * with look-alike Cyrillic letters or an invisible character, typed in the Russian keyboard layout,
 * a weekday in Russian, Ukrainian, German or English, or a misspelling. Offered only when the
 * suggestion is one of `allowed` and differs from the value.
 */
export interface Suggestion {
  /** The value to write instead. */
  fixed: string;
  /** The sentence that says so. */
  hint: string;
}

const fill = (kind: SuggestionKind, vars: Record<string, string | number>) =>
  SUGGESTIONS[kind].replace(/\{(\w+)\}/g, (all, name: string) => (vars[name] === undefined ? all : String(vars[name])));

/** Cyrillic and Greek letters that look like Latin ones. */
export const LOOK_ALIKE: Record<string, string> = {
  а: 'a',
  в: 'B',
  е: 'e',
  к: 'k',
  м: 'M',
  н: 'H',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 'T',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  ι: 'i',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Χ: 'X',
};
const scriptOf = (c: string) => (/\p{Script=Greek}/u.test(c) ? 'Greek' : 'Cyrillic');

/** The Russian (ЙЦУКЕН) layout's letters, on the keys of the English (QWERTY) layout. */
const RU = 'йцукенгшщзхъфывапролджэячсмитьбюё';
const EN = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`";

const INVISIBLE = /\u00a0|\u200b|\u200c|\u200d|\u2060|\ufeff|\u202f|\u2007/g;

/** Weekdays as editors write them, by their code (mo … su). */
const WEEKDAYS: [string, string, string[]][] = [
  ['mo', 'Monday', ['пн', 'пон', 'понедельник', 'понеділок', 'montag', 'monday', 'mon']],
  ['tu', 'Tuesday', ['вт', 'вторник', 'вівторок', 'di', 'dienstag', 'tuesday', 'tue', 'tues']],
  ['we', 'Wednesday', ['ср', 'среда', 'середа', 'mi', 'mittwoch', 'wednesday', 'wed']],
  ['th', 'Thursday', ['чт', 'четверг', 'четвер', 'do', 'donnerstag', 'thursday', 'thu', 'thur', 'thurs']],
  ['fr', 'Friday', ['пт', 'пятница', "п'ятниця", 'пʼятниця', 'freitag', 'friday', 'fri']],
  ['sa', 'Saturday', ['сб', 'суббота', 'субота', 'samstag', 'saturday', 'sat']],
  ['su', 'Sunday', ['вс', 'воскресенье', 'нд', 'неділя', 'so', 'sonntag', 'sunday', 'sun']],
];

/** Signs and words written for a code. */
const SYMBOLS: Record<string, string> = { '€': 'EUR', euro: 'EUR', евро: 'EUR', eur: 'EUR' };

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** The allowed value equal to `word` but for case, if any. */
const inList = (word: string, allowed: readonly string[]) => allowed.find((a) => a === word) ?? allowed.find((a) => a.toLowerCase() === word.toLowerCase());

/**
 * The suggestion for `value` among `allowed`; `valid` says whether a value not in a list is still
 * right there (a key that only has to be well-formed).
 */
export function suggest(value: string, allowed: readonly string[], valid?: (v: string) => boolean): Suggestion | undefined {
  const ok = (v: string): string | undefined => (v === value ? undefined : (inList(v, allowed) ?? (valid?.(v) ? v : undefined)));
  const invisible = value.match(INVISIBLE);
  if (invisible) {
    const fixed = ok(value.replace(INVISIBLE, ''));
    if (fixed) return { fixed, hint: fill('invisible', { value, name: spaceName(invisible[0]!), fixed }) };
  }
  const firstLookAlike = [...value].findIndex((c) => LOOK_ALIKE[c] && /[A-Za-z]/.test(value));
  if (firstLookAlike >= 0 || (/^[\p{Script=Cyrillic}\p{Script=Greek}]+$/u.test(value) && [...value].every((c) => LOOK_ALIKE[c]))) {
    const chars = [...value];
    const index = Math.max(0, firstLookAlike);
    const fixed = ok(chars.map((c) => LOOK_ALIKE[c] ?? c).join(''));
    if (fixed)
      return {
        fixed,
        hint: fill('lookAlike', { value, script: scriptOf(chars[index]!), char: chars[index]!, position: index + 1, latin: LOOK_ALIKE[chars[index]!]!, fixed }),
      };
  }
  if (/[а-яё]/i.test(value)) {
    const typed = [...value.toLowerCase()].map((c) => (RU.includes(c) ? EN[RU.indexOf(c)]! : c)).join('');
    const fixed = ok(typed);
    if (fixed) return { fixed, hint: fill('keyboardLayout', { value, fixed }) };
  }
  const day = WEEKDAYS.find(([code, , names]) => code !== value.toLowerCase() && names.includes(value.toLowerCase().replace(/\.$/, '')));
  if (day) {
    const fixed = ok(day[0]);
    if (fixed) return { fixed, hint: fill('weekday', { value, day: day[1], fixed }) };
  }
  const symbol = ok(SYMBOLS[value.trim().toLowerCase()] ?? '');
  if (symbol) return { fixed: symbol, hint: fill('misspelt', { fixed: symbol }) };
  const close = closest(value, allowed);
  if (close && close !== value) return { fixed: close, hint: fill('misspelt', { fixed: close }) };
  return undefined;
}

/** Optimal string alignment distance: a swap of two neighbours ("titel") counts as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/**
 * The allowed value closest to `word`, when it is close enough to be a typo: one edit in a word of
 * up to four letters ("ry" → "ru", not "ву" → "ru"), a third of the letters in longer ones. A
 * value that starts with an allowed short code ("Monday" → "mo") counts too.
 */
export function closest(word: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = word.toLowerCase();
  for (const c of allowed) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  const limit = word.length <= 4 ? 1 : Math.max(2, Math.floor(word.length / 3));
  if (best !== undefined && bestDistance <= limit) return best;
  return allowed.find((a) => a.length <= 3 && lower.startsWith(a.toLowerCase()) && /^[a-z]/i.test(word));
}

export { bulletName, ordinal };
