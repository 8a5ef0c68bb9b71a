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

/**
 * A page's structured data as its <script type="application/ld+json"> holds it: one node as it
 * is, several as a list. Each page has its own, so it is not kept.
 */
export const jsonLdScript = (jsonLd: object[]): string => inScript(jsonLd.length === 1 ? jsonLd[0] : jsonLd);
