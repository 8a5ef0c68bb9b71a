const serialized = new WeakMap<object, string>();

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
const inScript = (value: unknown): string => JSON.stringify(value).replaceAll('<', '\\u003c');

/** `inScript`, each object serialized once (pages share their form's props). */
export const scriptJson = (value: unknown): string => {
  if (typeof value !== 'object' || value === null) return inScript(value);
  let json = serialized.get(value);
  if (json === undefined) {
    json = inScript(value);
    serialized.set(value, json);
  }
  return json;
};

/** What a page's <script type="application/ld+json"> holds: one node as it is, several as a list. */
const scripted = (jsonLd: object[]): object => (jsonLd.length === 1 ? jsonLd[0]! : jsonLd);

/** A page's structured data as its script holds it. */
export const jsonLdScript = (jsonLd: object[]): string => scriptJson(scripted(jsonLd));

/** `jsonLdScript`, not kept: for a page whose structured data is only sent on (to a render worker) from this thread. */
export const jsonLdScriptOnce = (jsonLd: object[]): string => inScript(scripted(jsonLd));

/**
 * Structured data that arrives as its script's text (what a render worker is sent instead of
 * the nodes, cli/render/page-parts.ts): `count` nodes whose `jsonLdScript` is `script`. They
 * serve nothing else: the page's script is all the templates make of its structured data.
 */
export function jsonLdOfScript(count: number, script: string): object[] {
  const nodes = Array.from({ length: count }, () => ({}));
  serialized.set(count === 1 ? nodes[0]! : nodes, script);
  return nodes;
}
