import { DEFAULT_LOCALE, type Locale } from '../locales.ts';
import type { LocalizedTextSite } from '../texts/localized-texts.ts';
import { type Confirmation, sourceHash, type TranslationLock } from './translation-lock.ts';

/**
 * Which translations were confirmed against which Russian text, by each text's identity
 * (localized-texts.ts), never its position: moving, inserting or deleting entries changes no
 * confirmation (issue #34). A text known by its identity alone is confirmed when the Russian text
 * recorded for it is the one it has now, and stale when it is another. A text known by its Russian
 * text (`[*]`) is confirmed when its Russian text is among those confirmed there; it is stale when
 * its translation is one confirmed there with a Russian text no text there has any more (the
 * Russian text was edited, the translation kept), and unconfirmed otherwise (a new text).
 */
export type Status = 'confirmed' | 'stale' | 'unconfirmed';

/** A text with its Russian text's hash, computed once for every locale. */
interface Hashed {
  text: LocalizedTextSite;
  ru: string;
}

/** The Russian texts (hashes) each `[*]` identity has now. */
function presentAt(texts: Hashed[]): Map<string, Set<string>> {
  const present = new Map<string, Set<string>>();
  for (const { text, ru } of texts) if (text.byText) present.set(text.identity, (present.get(text.identity) ?? new Set()).add(ru));
  return present;
}

const hashed = (texts: readonly LocalizedTextSite[]): Hashed[] =>
  texts.flatMap((text) => {
    const ru = text.value[DEFAULT_LOCALE];
    return ru === undefined ? [] : [{ text, ru: sourceHash(ru) }];
  });

/**
 * The status of each translated text in one locale, against `lock`. A Russian text is hashed only
 * when a confirmation is there to compare it with (`content validate` asks for every text of a site
 * that may have none confirmed yet).
 */
export function statusesOf(texts: readonly LocalizedTextSite[], lock: TranslationLock): (text: LocalizedTextSite, locale: Locale) => Status {
  const hashes = new Map<LocalizedTextSite, string>();
  const ruOf = (text: LocalizedTextSite) => {
    let ru = hashes.get(text);
    if (ru === undefined) {
      ru = sourceHash(text.value[DEFAULT_LOCALE]!);
      hashes.set(text, ru);
    }
    return ru;
  };
  // The Russian texts each `[*]` identity has now, for the identities asked about.
  let byIdentity: Map<string, LocalizedTextSite[]> | undefined;
  const present = new Map<string, Set<string>>();
  const presentAt = (identity: string) => {
    let here = present.get(identity);
    if (!here) {
      if (!byIdentity) {
        byIdentity = new Map();
        for (const t of texts) if (t.byText && t.value[DEFAULT_LOCALE] !== undefined) byIdentity.set(t.identity, [...(byIdentity.get(t.identity) ?? []), t]);
      }
      here = new Set((byIdentity.get(identity) ?? []).map(ruOf));
      present.set(identity, here);
    }
    return here;
  };
  return (text, locale) => {
    const record = lock.confirmed[locale]?.[text.identity];
    if (record === undefined || text.value[DEFAULT_LOCALE] === undefined || text.byText !== (typeof record === 'object')) return 'unconfirmed';
    const ru = ruOf(text);
    if (typeof record === 'string') return record === ru ? 'confirmed' : 'stale';
    if (record[ru] !== undefined) return 'confirmed';
    const translation = text.value[locale];
    if (translation === undefined) return 'unconfirmed';
    const tr = sourceHash(translation);
    const here = presentAt(text.identity);
    return Object.entries(record).some(([was, with_]) => with_ === tr && !here.has(was)) ? 'stale' : 'unconfirmed';
  };
}

/** What `--confirm` confirms: every translation of `locales`, or only those of one file, or of some texts. */
export interface ConfirmScope {
  locales: readonly Locale[];
  /** A content file (`faq.yaml`): its records are made anew; the other files' stay. */
  file?: string;
  /** Only these texts (one line of a file): their records are set; all others stay. */
  only?: ReadonlySet<LocalizedTextSite>;
}

/**
 * The lock with the present translations in `scope` confirmed against today's Russian texts, and
 * how many translations that is. A whole locale is recorded anew (what no text has any more goes).
 */
export function confirmTexts(lock: TranslationLock, texts: readonly LocalizedTextSite[], scope: ConfirmScope): { lock: TranslationLock; count: number } {
  const all = hashed(texts);
  const present = presentAt(all);
  const chosen = all.filter(({ text }) => (scope.only ? scope.only.has(text) : !scope.file || text.key.startsWith(`${scope.file}#`)));
  const confirmed = { ...lock.confirmed };
  let count = 0;
  for (const locale of scope.locales) {
    // One text: every other record stays; one file: the other files' records; a whole locale: none.
    const keep = (identity: string) => Boolean(scope.only) || (scope.file !== undefined && !identity.startsWith(`${scope.file}#`));
    const kept = Object.entries(confirmed[locale] ?? {}).filter(([identity]) => keep(identity));
    const records: Record<string, Confirmation> = Object.fromEntries(kept.map(([k, c]) => [k, typeof c === 'string' ? c : { ...c }]));
    for (const { text, ru } of chosen) {
      const translation = text.value[locale];
      if (!translation?.trim()) continue;
      count++;
      if (!text.byText) {
        records[text.identity] = ru;
        continue;
      }
      const tr = sourceHash(translation);
      const before = records[text.identity];
      const here = present.get(text.identity);
      // The Russian text this translation was confirmed with before, now edited: superseded by this one.
      const was = typeof before === 'object' ? Object.entries(before).filter(([r, t]) => !(t === tr && !here?.has(r))) : [];
      records[text.identity] = { ...Object.fromEntries(was), [ru]: tr };
    }
    confirmed[locale] = records;
  }
  return { lock: { ...lock, confirmed }, count };
}

/** A key of the earlier form of translations.yaml, by position (`faq.yaml#items[3].question`). */
export const byPosition = (key: string) => /\[\d+\]/.test(key.replace(/"(?:[^"\\]|\\.)*"/g, ''));

/**
 * translations.yaml of the earlier form (confirmations by position) carried over to identities: each
 * key by position names the text at that position now (the file as it was confirmed, so long as no
 * entry moved since), and its confirmation passes to that text's identity unchanged, a stale one
 * staying stale. A key by identity written beside it (a merge) wins. `carried`: how many keys by
 * position there were.
 */
export function carryOver(lock: TranslationLock, texts: readonly LocalizedTextSite[]): { lock: TranslationLock; carried: number } {
  if (!Object.values(lock.confirmed).some((records) => Object.keys(records ?? {}).some(byPosition))) return { lock, carried: 0 };
  const atPosition = new Map(texts.map((t) => [t.key, t]));
  let carried = 0;
  const confirmed: TranslationLock['confirmed'] = {};
  for (const [locale, records] of Object.entries(lock.confirmed)) {
    const entries = Object.entries(records ?? {});
    const out: Record<string, Confirmation> = Object.fromEntries(entries.filter(([k]) => !byPosition(k)));
    for (const [key, record] of entries) {
      if (!byPosition(key)) continue;
      carried++;
      const text = atPosition.get(key);
      if (!text || typeof record !== 'string') continue; // the text is gone: nothing to confirm
      const existing = out[text.identity];
      if (!text.byText) {
        if (existing === undefined) out[text.identity] = record;
        continue;
      }
      const translation = text.value[locale as Locale];
      if (!translation?.trim() || typeof existing === 'string') continue;
      out[text.identity] = { [record]: sourceHash(translation), ...existing };
    }
    confirmed[locale] = out;
  }
  return { lock: carried ? { ...lock, confirmed } : lock, carried };
}
