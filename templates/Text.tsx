import { createElement, type ReactNode } from 'react';
import type { Text } from './model.ts';

// No 'th': a header cell names what it heads (Th).
type Tag = 'span' | 'p' | 'h1' | 'h2' | 'h3' | 'h4' | 'dd' | 'dt' | 'li' | 'td' | 'strong' | 'em' | 'blockquote' | 'summary' | 'caption' | 'div' | 'small';

/**
 * Renders a Text. When the translation is missing, the Russian fallback is marked lang="ru"
 * on the element that carries it, so screen readers and search engines are not misled. A span
 * with nothing to carry (no lang, class or id) is left out: the text alone reads and looks the
 * same, in fewer bytes.
 */
export function T({ value, as = 'span', rich = false, className, id }: { value: Text; as?: Tag; rich?: boolean; className?: string; id?: string }) {
  const content = rich ? emphasis(value.text) : value.text;
  if (as === 'span' && !value.lang && !className && !id) return content;
  return createElement(as, { lang: value.lang, className, id }, content);
}

/**
 * Texts in content order, each in its own element (paragraphs, list items). The lists come
 * from content and are never reordered or filtered while shown, so the position is the key
 * (the text is not: two items may read the same).
 */
export function Texts({ values, as, rich = false }: { values: Text[]; as: Tag; rich?: boolean }) {
  return (
    <>
      {values.map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a static list in content order
        <T key={i} value={v} as={as} rich={rich} />
      ))}
    </>
  );
}

/** A table header cell, with the scope that tells screen readers which cells it heads. */
export function Th({ value, scope }: { value: Text; scope: 'col' | 'row' }) {
  return (
    <th scope={scope} lang={value.lang}>
      {value.text}
    </th>
  );
}

/** `**bold**` and `*italic*` as <strong>/<em>; everything else, HTML included, stays literal text. */
export function emphasis(text: string): ReactNode[] {
  // Most texts have no asterisk: what the loop below would return, without running the pattern.
  if (!text.includes('*')) return text === '' ? [] : [text];
  const out: ReactNode[] = [];
  const re = /\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*/g;
  let last = 0;
  let n = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(m[1] !== undefined ? <strong key={n++}>{m[1]}</strong> : <em key={n++}>{m[2]}</em>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Joins texts inline ("Russian, German"), each keeping its own lang (a text without one needs no element). */
export function Inline({ values }: { values: Text[] }) {
  return (
    <>
      {values.map((v, i) => {
        const text = `${i > 0 ? ', ' : ''}${v.text}`;
        return v.lang ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, positional list
          <span key={i} lang={v.lang}>
            {text}
          </span>
        ) : (
          text
        );
      })}
    </>
  );
}

/** A remark in brackets after what it qualifies ("Mo 17:00 (every other week)"); nothing without one. */
export function Aside({ value }: { value?: Text }) {
  if (!value) return null;
  return (
    <>
      {' '}
      (<T value={value} />)
    </>
  );
}
