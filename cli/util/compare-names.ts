/**
 * The order of English collation (`a.localeCompare(b, 'en')`) for names (file paths, keys, codes), without its cost: the first
 * localeCompare of a process loads ICU's collator, 10 to 40 ms, a fifth of a whole `validate` of the
 * shipped content. For printable ASCII, the Unicode collation's order (CLDR root, which English
 * uses) is simple: letters by their letter, whatever their case, after digits, after punctuation in
 * the order of ORDER; only between names equal but for case does case count, lower before upper, at
 * the first difference. Names with anything else are compared by English collation itself.
 * Never by the machine's own locale: with LANG=da_DK "aa" sorts after "z", and a site's page
 * order or a report's order must not depend on who builds it.
 * (tests/util/compare-names.test.ts holds the two to the same order.)
 */
const ORDER = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz';

/** The primary weight of each printable ASCII character (a letter's is its lower case's); 0 for any other. */
const WEIGHT = new Uint8Array(128);
for (let i = 0; i < ORDER.length; i++) WEIGHT[ORDER.charCodeAt(i)] = i + 1;
for (let c = 65; c <= 90; c++) WEIGHT[c] = WEIGHT[c + 32]!;

let english: Intl.Collator | undefined;
/** English (CLDR root) collation, made on first use: loading it is the cost the fast path avoids. */
function collate(a: string, b: string): number {
  english ??= new Intl.Collator('en');
  return english.compare(a, b);
}

export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  let caseOrder = 0; // lower before upper at the first place where only case differs
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    const wx = x < 128 ? WEIGHT[x]! : 0;
    const wy = y < 128 ? WEIGHT[y]! : 0;
    if (wx === 0 || wy === 0) return collate(a, b);
    if (wx !== wy) return rest(a, b, i) ? wx - wy : collate(a, b);
    if (caseOrder === 0 && x !== y) caseOrder = x > y ? -1 : 1; // 'a' (97) sorts before 'A' (65)
  }
  if (!rest(a, b, n)) return collate(a, b);
  return a.length !== b.length ? a.length - b.length : caseOrder;
}

/** Whether both names are printable ASCII from `from` on, so the order above holds for them. */
function rest(a: string, b: string, from: number): boolean {
  for (let i = from; i < a.length; i++) if (a.charCodeAt(i) >= 128 || WEIGHT[a.charCodeAt(i)] === 0) return false;
  for (let i = from; i < b.length; i++) if (b.charCodeAt(i) >= 128 || WEIGHT[b.charCodeAt(i)] === 0) return false;
  return true;
}
