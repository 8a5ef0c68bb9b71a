// What a copy through the wrong program does to letters: read as another encoding (mojibake), or
// mixed with look-alike letters of another alphabet. Pure functions over one text (text-letters.ts
// reports them).
import { LOOK_ALIKE } from '../suggest.ts';

/** A single-byte encoding as the characters that stand for UTF-8's lead and continuation bytes in it. */
interface Encoding {
  name: string;
  byte: Map<string, number>;
  pattern: RegExp;
  /** Whether what the bytes decode to is text of this kind of mojibake, not a chance pair of real letters. */
  plausible: (decoded: string) => boolean;
  /** How many garbled letters a text needs to count (one pair of real Russian letters can look like one). */
  least: number;
}

const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Windows-1252's characters for the bytes 0x80–0x9F (WHATWG's table; the five it leaves free stand
 * for themselves). Node 20's TextDecoder decodes these bytes to nothing; the rest is Latin-1.
 */
const WINDOWS_1252_80 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const windows1252 = (b: number) => (b >= 0x80 && b < 0xa0 ? WINDOWS_1252_80[b - 0x80]! : String.fromCharCode(b));

function encoding(name: string, label: string, plausible: (decoded: string) => boolean, least: number): Encoding {
  const decoder = new TextDecoder(name);
  const byte = new Map<string, number>();
  const range = (from: number, to: number) => {
    let chars = '';
    for (let b = from; b <= to; b++) {
      const c = name === 'windows-1252' ? windows1252(b) : decoder.decode(Uint8Array.of(b));
      if (c === '\ufffd' || c.length !== 1) continue;
      byte.set(c, b);
      chars += hex(c);
    }
    return `[${chars}]`;
  };
  const cont = range(0x80, 0xbf);
  const pattern = new RegExp(`${range(0xe0, 0xef)}${cont}{2}|${range(0xc2, 0xdf)}${cont}`, 'g');
  return { name: label, byte, pattern, plausible, least };
}

const ENCODINGS = [
  // German letters, punctuation and Cyrillic letters read as Latin-1 / Windows-1252: "fÃ¼r", "â€ž", "Ð¡".
  encoding('windows-1252', 'Latin-1 (Windows-1252)', (s) => /^[\u00a0-\u024f\u0400-\u04ff\u2010-\u203a\u20ac]$/.test(s), 1),
  // Russian read as Windows-1251: "РџСЂРёРІРµС‚".
  encoding('windows-1251', 'Windows-1251', (s) => /^[А-яЁё]$/.test(s), 2),
];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The garbled letters of `text` put right, with how many there were. */
function repair(text: string, enc: Encoding): { text: string; count: number } {
  let count = 0;
  const repaired = text.replace(enc.pattern, (m) => {
    try {
      const s = utf8.decode(Uint8Array.from([...m].map((c) => enc.byte.get(c)!)));
      if (!enc.plausible(s)) return m;
      count++;
      return s;
    } catch {
      return m;
    }
  });
  return { text: repaired, count };
}

/** The first garbled word of `text`, what it was, and the encoding it was read as. */
export function mojibake(text: string): { found: string; fixed: string; encoding: string } | undefined {
  for (const enc of ENCODINGS) {
    if (!enc.pattern.test(text)) continue;
    enc.pattern.lastIndex = 0;
    const { count } = repair(text, enc);
    if (count < enc.least) continue;
    for (const word of text.split(/\s+/)) {
      const fixed = repair(word, enc);
      if (fixed.count) return { found: word, fixed: fixed.text, encoding: enc.name };
    }
  }
  return undefined;
}

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const WORD = /[\p{L}\p{M}]+/gu;
/** Latin letters that look like Cyrillic ones, each to the Cyrillic letter of its case. */
const TO_CYRILLIC = new Map<string, string>();
for (const [other, latin] of Object.entries(LOOK_ALIKE))
  if (CYRILLIC.test(other) && (!TO_CYRILLIC.has(latin) || (other === other.toUpperCase()) === (latin === latin.toUpperCase()))) TO_CYRILLIC.set(latin, other);

/** The first word of `text` with letters of both Latin and Cyrillic; `fixed` where every odd letter has a look-alike. */
export function mixedScriptWord(text: string): { word: string; main: string; script: string; letters: string; fixed?: string } | undefined {
  // Most texts are in one alphabet: they are not split into words at all.
  if (!LATIN.test(text) || !CYRILLIC.test(text)) return undefined;
  for (const [word] of text.matchAll(WORD)) {
    const chars = [...word];
    const latin = chars.filter((c) => LATIN.test(c)).length;
    const cyrillic = chars.filter((c) => CYRILLIC.test(c)).length;
    if (!latin || !cyrillic) continue;
    const mainIsLatin = latin > cyrillic;
    const odd = mainIsLatin ? CYRILLIC : LATIN;
    const oddLetters = [...new Set(chars.filter((c) => odd.test(c)))];
    const swap = (c: string) => (!odd.test(c) ? c : mainIsLatin ? (CYRILLIC.test(c) ? LOOK_ALIKE[c] : undefined) : TO_CYRILLIC.get(c));
    const swapped = chars.map(swap);
    return {
      word,
      main: mainIsLatin ? 'Latin' : 'Cyrillic',
      script: mainIsLatin ? 'Cyrillic' : 'Latin',
      letters: oddLetters.map((c) => `"${c}" is ${mainIsLatin ? 'Cyrillic' : 'Latin'}`).join(', '),
      ...(swapped.every((c) => c !== undefined) && { fixed: swapped.join('') }),
    };
  }
  return undefined;
}
