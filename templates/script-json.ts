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
