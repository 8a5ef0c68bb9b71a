const serialized = new WeakMap<object, string>();

/**
 * JSON inside a <script> element: `<` escaped so no text can close the element. Objects are
 * serialized once (pages share their form's props).
 */
export const scriptJson = (value: unknown): string => {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value).replaceAll('<', '\\u003c');
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value).replaceAll('<', '\\u003c');
    serialized.set(value, json);
  }
  return json;
};

/** A page's structured data as its <script type="application/ld+json"> holds it: one node as it is, several as a list. */
export const jsonLdScript = (jsonLd: object[]): string => scriptJson(jsonLd.length === 1 ? jsonLd[0] : jsonLd);

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
